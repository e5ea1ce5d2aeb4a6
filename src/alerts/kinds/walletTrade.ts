/**
 * A followed wallet bought or sold; the follow's side and minimum USD apply.
 *
 * A followed wallet bought or sold: every trade newer than the newest the wallet's snapshot has
 * seen (by timestamp; within the newest second, by the trade ids seen in it). First sight of a
 * wallet is its baseline.
 *
 * A trade dated well before the wallet was last looked at (TRADE_LATE_MS) is not news even when
 * no snapshot had it: it was there to be seen then. A feed that shows only a wallet's latest 20
 * trades can leave older ones out of a baseline, and a later full read (wallet-tracker) must not
 * alert them hours late. Trades missed while a socket was down are newer than that look, and alert.
 *
 * Key: the wallet and the trade (transaction hash and log index), the same on trades-live and in
 * wallet-tracker's answer. The follow's minimum USD and side are applied by the fan-out.
 */
import { bold, field, link, rich, type Card } from '../../cards/card';
import { explorerTxUrl } from '../../cards/explorer';
import { LABEL_MAX, UNKNOWN } from '../../cards/tokenFacts';
import type { WalletTradeEvent } from '../../model/events';
import { formatTokenAmount, price, shortAddress, usd } from '../../text/format';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, muteAction, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import { tradedToken } from '../../market/stream/decode';
import type { Trade } from '../../market/schemas';
import { WSOL, tradeId } from '../snapshot';
import type { WalletSnapshot } from '../../model/snapshot';
import { eventKey } from '../detect/eventBase';
import { bareTokenRef, type TokenNamer } from '../detect/inputs';

/** How late a trade may be reported (indexing lag) and still be news. */
export const TRADE_LATE_MS = 10 * 60_000;

export function isNewTrade(last: WalletSnapshot, trade: Trade): boolean {
  if (trade.timestamp * 1000 < last.seenAt - TRADE_LATE_MS) return false;
  if (last.newestTimestamp === null) return true;
  if (trade.timestamp > last.newestTimestamp) return true;
  if (trade.timestamp < last.newestTimestamp) return false;
  const id = tradeId(trade);
  return last.newestIds ? !last.newestIds.includes(id) : id !== last.newestTrade;
}

export function walletTradeEvent(wallet: string, trade: Trade, name: TokenNamer, at: number): WalletTradeEvent {
  const token = tradedToken(trade);
  const side = trade.tokenOut === token ? 'buy' : 'sell';
  const tokenAmount = side === 'buy' ? trade.amountOut : trade.amountIn;
  const nativeAmount = trade.tokenIn === WSOL ? trade.amountIn : trade.tokenOut === WSOL ? trade.amountOut : null;
  const named = name(token);
  return {
    kind: 'wallet-trade',
    key: eventKey('wallet-trade', wallet, [trade.transactionHash, trade.logIndex ?? 0]),
    at,
    token: named.token,
    wallet,
    side,
    tokenAmount: tokenAmount.toString(),
    decimals: named.decimals,
    nativeAmount: nativeAmount === null ? null : nativeAmount.toString(),
    amountUsd: trade.amountUSD,
    price: trade.suspectedBaseTokenPrice,
    transactionHash: trade.transactionHash,
    timestamp: trade.timestamp,
  };
}

export function detectWalletTrades(
  last: WalletSnapshot | null,
  wallet: string,
  trades: readonly Trade[],
  at: number,
  name: TokenNamer = bareTokenRef,
): WalletTradeEvent[] {
  if (last === null) return [];
  const seen = new Set<string>();
  const events: WalletTradeEvent[] = [];
  // Oldest first, so alerts arrive in the order the trades happened.
  for (const trade of [...trades].sort((a, b) => a.timestamp - b.timestamp)) {
    if (!isNewTrade(last, trade)) continue;
    const id = tradeId(trade);
    if (seen.has(id)) continue;
    seen.add(id);
    events.push(walletTradeEvent(wallet, trade, name, at));
  }
  return events;
}

const SIDE_WORDS = { buy: 'buys', sell: 'sells', both: 'buys and sells' } as const;

function walletTradeCard(event: WalletTradeEvent, label: string | null): Card {
  const who =
    label === null
      ? shortAddress(untrusted(event.wallet, 64, '?'))
      : untrusted(label, LABEL_MAX, shortAddress(untrusted(event.wallet, 64, '?')));
  let amount = UNKNOWN;
  try {
    const units = BigInt(event.tokenAmount);
    amount = event.decimals === null ? `${formatTokenAmount(units, 0)} units` : formatTokenAmount(units, event.decimals);
  } catch {
    // left unknown
  }
  const symbol = untrusted(event.token.symbol, 16);
  const fields = [
    field('Amount', rich(bold(amount), symbol === '' ? '' : ` ${symbol}`), true),
    field(event.side === 'buy' ? 'Paid' : 'Received', event.nativeAmount === null ? UNKNOWN : lamports(event.nativeAmount), true),
    field('Value', event.amountUsd === null ? UNKNOWN : usd(event.amountUsd), true),
    field('Price', event.price === null ? UNKNOWN : `${price(event.price)} SOL`, true),
    field('Wallet', walletLink(event.wallet), true),
    field('Transaction', [link(shortAddress(untrusted(event.transactionHash, 100, '?')), explorerTxUrl(event.transactionHash))], true),
    // The traded token's market, when the watcher follows it (a token no chat follows has none at hand).
    ...marketFields(event.token, { withPrice: false }),
  ];
  const verb = event.side === 'buy' ? 'bought' : 'sold';
  return base(event, `${who} ${verb} ${tokenName(event.token)}`, fields, [
    { label: 'Token', command: 'token', args: [event.token.address] },
    { label: 'Trades', command: 'trades', args: [event.token.address, event.wallet] },
    { label: 'Wallet', command: 'wallet', args: [event.wallet] },
    muteAction(event.wallet),
  ]);
}

export const walletTradeKind = defineAlertKind({
  name: 'wallet-trade',
  family: 'wallet',
  words: ['trades'],
  describe: (options) => `${SIDE_WORDS[options.side]}${options.minUsd > 0 ? ` of at least ${usd(options.minUsd)}` : ''}`,
  detector: { input: 'trades', detect: (last, wallet, trades, at, name) => detectWalletTrades(last, wallet, trades, at, name) },
  // A trade whose USD value is unknown passes only a minimum of 0.
  tells(follow, event, wants) {
    if (!wants('wallet-trade')) return false;
    const { side, minUsd } = follow.options;
    if (side !== 'both' && side !== event.side) return false;
    return minUsd <= 0 || (event.amountUsd !== null && event.amountUsd >= minUsd);
  },
  card: walletTradeCard,
});
