/**
 * The trades card: the newest trades of some wallets in one token (spec §4.4), one field per
 * trade so a trader scans side, size, value, price, maker and time, with totals over every trade
 * the service returned on top.
 */
import { unreadNote } from './unread';
import type { Trade, TradeHistory } from '../market/schemas';
import { bold, field, joinRich, rich, type Card, type CardAction, type CardField } from './card';
import { price, relativeTime, solFromLamports, usd } from '../text/format';
import { explorerTokenUrl } from './explorer';
import {
  solAmountOf,
  solText,
  tokenAmountText,
  tokenTitle,
  tradeSide,
  txLink,
  UNKNOWN,
  usdText,
  walletLink,
  walletList,
  type TokenInfo,
  type TradeSide,
} from './tradeFacts';

/** Trades listed one by one; the totals cover all of them. */
export const MAX_TRADE_FIELDS = 10;

export interface TradesCardInput {
  token: TokenInfo;
  wallets: readonly string[];
  history: TradeHistory;
  now: Date;
  /** Trades (or metadata entries) the service sent that could not be read. */
  unreadable?: number;
}

const SIDE_LABEL: Record<TradeSide, string> = { buy: 'Buy', sell: 'Sell' };

function priceText(trade: Trade): string {
  const sol = trade.suspectedBaseTokenPrice === null ? UNKNOWN : `${price(trade.suspectedBaseTokenPrice)} SOL`;
  return trade.suspectedBaseTokenPriceUSD === null ? sol : `${sol} (${usd(trade.suspectedBaseTokenPriceUSD)})`;
}

function tradeField(trade: Trade, token: TokenInfo, now: Date): CardField {
  const side = tradeSide(trade, token.address);
  const name = `${side === null ? 'Swap' : SIDE_LABEL[side]} · ${relativeTime(trade.timestamp, now)}`;
  const maker = trade.makerData?.address;
  const value = rich(
    bold(tokenAmountText(trade, token)),
    ` for ${solText(trade)} · ${usdText(trade.amountUSD)}`,
    '\n',
    joinRich([
      `Price ${priceText(trade)}`,
      maker === undefined ? [] : rich('Maker ', walletLink(maker, trade.chainId)),
      rich('Tx ', txLink(trade)),
    ]),
  );
  return field(name, value);
}

interface SideTotal {
  count: number;
  lamports: bigint;
  /** Null once any trade lacks a USD value. */
  usd: number | null;
}

function totals(trades: readonly Trade[], token: string, side: TradeSide): SideTotal {
  const total: SideTotal = { count: 0, lamports: 0n, usd: 0 };
  for (const trade of trades) {
    if (tradeSide(trade, token) !== side) continue;
    total.count += 1;
    total.lamports += solAmountOf(trade) ?? 0n;
    total.usd = total.usd === null || trade.amountUSD === null ? null : total.usd + trade.amountUSD;
  }
  return total;
}

function totalText(total: SideTotal): string {
  if (total.count === 0) return '0';
  return `${total.count} · ${solFromLamports(total.lamports)} · ${usdText(total.usd)}`;
}

function actionsFor(token: string, wallets: readonly string[]): CardAction[] {
  return [
    { label: 'Token', command: 'token', args: [token] },
    { label: 'Chart', command: 'chart', args: [token] },
    { label: 'Wallet', command: 'wallet', args: [...wallets] },
  ];
}

export function buildTradesCard(input: TradesCardInput): Card {
  const { token, wallets, history, now } = input;
  const trades = history.tradeHistory;
  const title = tokenTitle(token);
  const unread = unreadNote(input.unreadable ?? 0, 'entry of the answer', 'entries of the answer');
  const url = explorerTokenUrl(token.address) ?? undefined;
  const by = rich(wallets.length === 1 ? 'Wallet ' : `${wallets.length} wallets: `, walletList(wallets));

  if (trades.length === 0) {
    return {
      title: `No trades in ${title}`,
      url,
      description:
        unread === null
          ? rich(`No trades by these wallets in ${title}.`, '\n', by)
          : rich(`No readable trades by these wallets in ${title}: ${unread}.`, '\n', by),
      color: 'neutral',
      fields: [],
      footer: 'The service keeps each token’s trade history; try other wallets or /wallet for all their tokens.',
      timestamp: now,
      actions: actionsFor(token.address, wallets),
    };
  }

  const shown = trades.slice(0, MAX_TRADE_FIELDS);
  const count = trades.length > shown.length ? `${trades.length} (newest ${shown.length} below)` : String(trades.length);
  return {
    title: `Trades in ${title}`,
    url,
    description: unread === null ? by : rich(by, '\n', `⚠ ${unread}`),
    color: 'info',
    fields: [
      field('Trades', count, true),
      field('Bought', totalText(totals(trades, token.address, 'buy')), true),
      field('Sold', totalText(totals(trades, token.address, 'sell')), true),
      ...shown.map((trade) => tradeField(trade, token, now)),
    ],
    footer: 'Newest first · USD and price at the time of each trade',
    timestamp: now,
    actions: actionsFor(token.address, wallets),
  };
}
