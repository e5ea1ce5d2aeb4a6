/**
 * How the follow cards (/following, /targets, /status) name a token: its symbol beside its short
 * address ("BONK · DezX…B263"), so a list of follows reads as tokens rather than as rows of base58.
 * The symbols are the watcher's last-seen state of each token (no request to the service for a
 * list); a token not seen yet, or without a symbol, is named by its short address alone. Symbols
 * are written by strangers: they are cleaned here (tokenSymbol) and escaped by the renderers.
 */
import { tokenSymbol } from '../cards/tokenFacts';
import type { StateRepository } from '../store/store';
import { shortAddress } from '../text/format';
import { untrusted } from '../text/sanitize';

/** Cleaned symbols by token address; a token with none is absent. */
export type TokenSymbols = ReadonlyMap<string, string>;

export const NO_SYMBOLS: TokenSymbols = new Map();

/** The symbols of `addresses` as last seen; none when the state cannot be read (a list is still a list). */
export async function tokenSymbols(
  state: Pick<StateRepository, 'tokens'> | undefined,
  addresses: readonly string[],
): Promise<TokenSymbols> {
  const wanted = [...new Set(addresses)];
  if (state === undefined || wanted.length === 0) return NO_SYMBOLS;
  try {
    const seen = await state.tokens(wanted);
    const symbols = new Map<string, string>();
    for (const [address, snapshot] of seen) {
      const symbol = tokenSymbol(snapshot);
      if (symbol !== '') symbols.set(address, symbol);
    }
    return symbols;
  } catch {
    return NO_SYMBOLS;
  }
}

/** "BONK · DezX…B263", or "DezX…B263" when the symbol is not known. */
export function tokenLabel(address: string, symbols: TokenSymbols): string {
  const short = shortAddress(untrusted(address, 64, '?'));
  const symbol = symbols.get(address);
  return symbol === undefined ? short : `${symbol} · ${short}`;
}
