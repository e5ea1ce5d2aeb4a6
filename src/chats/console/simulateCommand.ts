/**
 * /simulate: the console's way to make the built-in simulator do now what it would do by itself
 * some time later (a risk status change, a price move, a whale buy, a liquidity pull, a wallet's
 * trade), so an alert can be seen on demand. It exists only in the console on the built-in
 * simulator (consoleCommands.ts adds it there); anywhere else there is no market to push.
 * Every change goes through the simulator's scenario controls, as a control POSTed to the
 * standalone simulator does, so the live streams carry it to the watcher like any other.
 */
import { bold, code, field, rich, riskColor, type Card } from '../../cards/card';
import { defineCommand, type AnyCommand } from '../../dispatch/command';
import type { Args } from '../../dispatch/parseArgs';
import type { Controls, Market, TokenSummary, WireToken } from 'tmds-simulator';
import { UsageError } from '../../usage';

/** A whale bought in holds this share of the supply: twice the line a whale alert draws. */
const WHALE_BUY_SHARE_PCT = 2;

const EVENTS = ['risk', 'price', 'whale', 'pull', 'trade'] as const;

/**
 * The built-in simulator as /simulate drives it. The composition root (src/app/chats.ts) hands it
 * over with the simulator's own functions, so that the console imports no simulator code, only
 * its types.
 */
export interface SimulateTarget {
  market: Market;
  controls: Controls;
  /** The simulator's whale buy: `wallet` buys `sharePct` of the supply; false when the pools are too shallow. */
  whaleBuy(market: Market, token: string, wallet: string, sharePct: number): boolean;
  summarize(token: WireToken): TokenSummary;
  /** The share of the supply from which the simulator counts a holder as a whale. */
  whaleSharePct: number;
  /** A control's or the market's refusal, as its status (404: no such token) and words; null for any other error. */
  refusal(error: unknown): { status: number; message: string } | null;
}

const DEFINITION = {
  name: 'simulate',
  description: 'Make the built-in market do something now: risk change, price move, whale, pull, trade',
  help: [
    'Forces an event on the built-in simulator (console only); a chat tracking the token gets its alert within seconds.',
    '/simulate risk <token> <status>: sets the risk status (safe, warning, danger), or auto to give it back to the token’s data.',
    '/simulate price <token> <change>: moves the price by change percent (25 or -30; a rise is a whale’s buy, ' +
      'a fall the largest holder’s sell).',
    `/simulate whale <token>: a shared wallet buys ${WHALE_BUY_SHARE_PCT}% of the supply and becomes a whale.`,
    '/simulate pull <token> [share]: pulls share percent of the liquidity from every pool (default 100: all of it).',
    '/simulate trade <token> <wallet> <side> <usd>: the wallet buys or sells usd dollars’ worth of the token.',
    'Example: /simulate price 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 -30',
  ].join('\n'),
  options: [
    {
      name: 'event',
      type: 'choice',
      description: 'What happens: risk, price, whale, pull or trade',
      required: true,
      choices: EVENTS.map((value) => ({ value, label: value })),
    },
    { name: 'token', type: 'address', description: 'The token’s address', required: true },
    {
      name: 'status',
      type: 'choice',
      description: 'The new risk status, or auto for the one its data gives',
      required: true,
      forms: ['risk'],
      choices: ['safe', 'warning', 'danger', 'auto'].map((value) => ({ value, label: value })),
    },
    {
      name: 'change',
      type: 'number',
      description: 'Price change in percent (25 or -30)',
      required: true,
      min: -99,
      max: 10_000,
      percent: true,
      forms: ['price'],
    },
    { name: 'wallet', type: 'address', description: 'The trading wallet’s address', required: true, forms: ['trade'] },
    {
      name: 'side',
      type: 'choice',
      description: 'buy or sell',
      required: true,
      forms: ['trade'],
      choices: [
        { value: 'buy', label: 'buy' },
        { value: 'sell', label: 'sell' },
      ],
    },
    {
      name: 'usd',
      type: 'number',
      description: 'The trade’s size in USD',
      required: true,
      min: 0.01,
      max: 1_000_000_000,
      forms: ['trade'],
    },
    {
      name: 'share',
      type: 'number',
      description: 'Share of the liquidity pulled, in percent (default 100)',
      required: false,
      min: 1,
      max: 100,
      percent: true,
      forms: ['pull'],
    },
  ],
} as const;

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new UsageError(`${name} is missing`, null);
  return value;
}

function number(args: Args, name: string): number | undefined {
  const value = args[name];
  return typeof value === 'number' ? value : undefined;
}

/** SOL amounts as a terminal reads them: a few significant digits, no exponent. */
function sol(value: string): string {
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount === 0) return '0 SOL';
  return `${amount.toLocaleString('en-US', { maximumSignificantDigits: 4 })} SOL`;
}

function resultCard(what: string, token: TokenSummary): Card {
  return {
    title: `Simulated: ${what} · ${token.symbol}`,
    description: rich('Done on the built-in market. A chat tracking ', code(token.address), ' is told in a moment.'),
    color: riskColor(token.riskStatus),
    fields: [
      field('Risk', rich(bold(token.riskStatus)), true),
      field('Price', sol(token.priceSol), true),
      field('Liquidity', sol(token.liquiditySol), true),
      field('Holders', token.holdersCount, true),
    ],
    actions: [{ label: 'Token', command: 'token', args: [token.address] }],
  };
}

/** A shared wallet that is no whale of the token yet: the first in the listing's order, so the same one each time. */
function nonWhale(target: SimulateTarget, token: string, supply: number): string {
  const { market } = target;
  for (const wallet of market.wallets()) {
    const held = Number(market.holder(token, wallet)?.currentlyHoldingAmount ?? 0);
    if ((held / supply) * 100 < target.whaleSharePct) return wallet;
  }
  throw new UsageError('every shared wallet is already a whale of this token', null, 'Try /simulate price with a rise instead.');
}

function noSuchToken(): UsageError {
  return new UsageError('the built-in market has no such token', null, 'Use a token from the banner, or /token to check an address.');
}

/** Does the event; a control's refusal (a token the market does not have, a sell of nothing) is the person's mistake, said plainly. */
function perform(target: SimulateTarget, args: Args): Card {
  const { controls, market } = target;
  const event = text(args, 'event');
  const tokenAddress = text(args, 'token');
  try {
    switch (event) {
      case 'risk': {
        const status = text(args, 'status');
        const riskStatus = status === 'auto' ? null : status === 'safe' ? 'SAFE' : status === 'warning' ? 'WARNING' : 'DANGER';
        const { token } = controls.risk({ tokenAddress, riskStatus });
        return resultCard(
          status === 'auto' ? `risk status back to its data’s (${token.riskStatus})` : `risk status set to ${token.riskStatus}`,
          token,
        );
      }
      case 'price': {
        const change = number(args, 'change') ?? 0;
        if (change === 0)
          throw new UsageError('change must not be 0', null, 'A rise is a positive percentage (25), a fall a negative one (-30).');
        const { token } = controls.price({ tokenAddress, changePct: change });
        return resultCard(`price ${change > 0 ? '+' : ''}${change}%`, token);
      }
      case 'whale': {
        const before = market.token(tokenAddress);
        if (before === null) throw noSuchToken();
        const wallet = nonWhale(target, tokenAddress, Number(before.totalSupply));
        if (!target.whaleBuy(market, tokenAddress, wallet, WHALE_BUY_SHARE_PCT)) {
          throw new UsageError('the token’s pools are too shallow for a whale to buy in', null, 'Try /simulate price with a rise instead.');
        }
        const after = market.token(tokenAddress);
        if (after === null) throw noSuchToken();
        const token = target.summarize(after);
        return resultCard(`whale ${wallet.slice(0, 4)}…${wallet.slice(-4)} bought ${WHALE_BUY_SHARE_PCT}% of the supply`, token);
      }
      case 'pull': {
        const share = number(args, 'share') ?? 100;
        const { token } = controls.liquidity(share >= 100 ? { tokenAddress, pull: true } : { tokenAddress, factor: 1 - share / 100 });
        return resultCard(`${share}% of the liquidity pulled`, token);
      }
      case 'trade': {
        const side = text(args, 'side') === 'sell' ? 'sell' : 'buy';
        const usd = number(args, 'usd') ?? 0;
        const wallet = text(args, 'wallet');
        const { token } = controls.trade({ wallet, tokenAddress, side, amountUSD: usd });
        return resultCard(
          `${wallet.slice(0, 4)}…${wallet.slice(-4)} ${side === 'buy' ? 'bought' : 'sold'} $${usd.toLocaleString('en-US')}`,
          token,
        );
      }
      default:
        throw new UsageError(`"${event}" is not an event`, null, `event is one of ${EVENTS.join(', ')}.`);
    }
  } catch (error) {
    const refused = target.refusal(error);
    if (refused === null) throw error;
    if (refused.status === 404) throw noSuchToken();
    throw new UsageError(refused.message, null, 'See /help simulate.');
  }
}

export interface SimulateCommand {
  command: AnyCommand;
  /** Runs parsed arguments (parseWords of `command`): the console calls this, with no services to hand. */
  answer(args: Args): Promise<Card>;
}

export function simulateCommand(target: SimulateTarget): SimulateCommand {
  const answer = (args: Args): Promise<Card> => {
    try {
      return Promise.resolve(perform(target, args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return { command: defineCommand({ ...DEFINITION, run: (args) => answer(args) }), answer };
}
