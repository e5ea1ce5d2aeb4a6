/**
 * "Not found" is an answer about what was typed, not a failure of the bot: its card says what to
 * try instead and carries no error id (there is nothing in the log to look up), and the log has
 * one info line for it, no stack. The likeliest mistakes get their own hint: a wallet looked up as
 * a token, and a pair's address (what a DEX Screener or GeckoTerminal pool link holds) taken for
 * its token's.
 */
import { isMarketError } from '../market/errors';
import type { QueryService } from '../query/service';
import type { AnyCommand } from './command';
import type { Args } from './parseArgs';

export function isNotFound(error: unknown): boolean {
  return isMarketError(error) && error.kind === 'not-found';
}

/** The address the command was asked about: its first address option's value. */
export function askedAddress(command: AnyCommand, args: Args): string | null {
  for (const option of command.options) {
    const value = args[option.name];
    if (option.type === 'address' && typeof value === 'string') return value;
  }
  return null;
}

/**
 * What to try instead of `address`, which the service does not know as a token. Asks the service
 * whether it is a wallet (one cached request, src/query/addressRole.ts).
 */
export async function notFoundHint(address: string, query: Pick<QueryService, 'isWallet'>): Promise<string> {
  if (await query.isWallet(address)) return `This is a wallet: try /wallet ${address}`;
  return (
    `The market data service knows no token at ${address}. A pair’s link (DEX Screener, GeckoTerminal pools) ` +
    `may hold the pool’s address rather than the token’s: paste the token’s own address, or its pump.fun, Birdeye or Solscan link.`
  );
}
