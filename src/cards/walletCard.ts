/**
 * The wallet card: what some wallets did lately across every token (spec §4.6): their newest
 * trades as short lines, then what they made per token. Profit comes from the service's running
 * totals (see profitByToken); the USD of each listed trade is what the service gives wallet-tracker
 * trades, a value at current prices (§4.6), and the card says so.
 */
import { unreadNote } from './unread';
import type { Trade, TradeHistory } from '../market/schemas';
import { bold, field, joinRich, rich, type Card, type CardAction, type CardField, type RichText } from './card';
import { formatTokenAmount, relativeTime, shortAddress, usd } from '../text/format';
import { explorerAccountUrl } from './explorer';
import { cleanText } from '../text/sanitize';
import {
  profitByToken,
  solText,
  tokenAmountText,
  tokenSymbol,
  tokenTitle,
  tradeSide,
  tradeToken,
  txLink,
  UNKNOWN,
  usdText,
  walletLink,
  walletList,
  type TokenInfo,
  type TokenProfit,
} from './tradeFacts';

/** Trade lines in the description. */
export const MAX_TRADE_LINES = 10;
/** Tokens with a profit field of their own; the others are named in one line. */
export const MAX_PROFIT_FIELDS = 8;
/** Symbols named in the "Other tokens" line. */
const MAX_OTHER_SYMBOLS = 12;

export interface WalletCardInput {
  wallets: readonly string[];
  history: TradeHistory;
  /** What is known of each traded token, by address; tokens missing here show by address. */
  tokens: ReadonlyMap<string, TokenInfo>;
  now: Date;
  /** Trades (or metadata entries) the service sent that could not be read. */
  unreadable?: number;
}

function infoOf(tokens: ReadonlyMap<string, TokenInfo>, address: string): TokenInfo {
  return tokens.get(address) ?? { address, name: null, symbol: null, decimals: null };
}

/** "+$1.2K", "−$30.00", "$0": a result, so gains carry their sign too. */
export function signedUsd(value: number | null): string {
  if (value === null) return UNKNOWN;
  return value > 0 ? `+${usd(value)}` : usd(value);
}

function tradeLine(trade: Trade, tokens: ReadonlyMap<string, TokenInfo>, now: Date, showMaker: boolean): RichText {
  const info = infoOf(tokens, tradeToken(trade));
  const side = tradeSide(trade, info.address);
  const maker = trade.makerData?.address;
  return joinRich([
    rich(bold(side === 'buy' ? 'Buy' : side === 'sell' ? 'Sell' : 'Swap'), ` ${tokenAmountText(trade, info)} for ${solText(trade)}`),
    `${usdText(trade.amountUSD)} now`,
    relativeTime(trade.timestamp, now),
    showMaker && maker !== undefined ? walletLink(maker, trade.chainId) : [],
    txLink(trade),
  ]);
}

function holdingText(profit: TokenProfit, info: TokenInfo): string {
  if (profit.holding === null || info.decimals === null) return UNKNOWN;
  return profit.holding === 0n ? 'none' : `${formatTokenAmount(profit.holding, info.decimals)} ${tokenSymbol(info)}`;
}

function profitField(profit: TokenProfit, info: TokenInfo, now: Date): CardField {
  const value = rich(
    joinRich([
      `Bought ${usdText(profit.boughtUsd)}`,
      `Sold ${usdText(profit.soldUsd)}`,
      rich('Realised ', bold(signedUsd(profit.realisedUsd))),
    ]),
    '\n',
    joinRich([
      `${profit.buys} ${profit.buys === 1 ? 'buy' : 'buys'}, ${profit.sells} ${profit.sells === 1 ? 'sell' : 'sells'}`,
      `Holding ${holdingText(profit, info)}`,
      `last ${relativeTime(profit.lastTradeAt, now)}`,
    ]),
  );
  return field(tokenTitle(info), value);
}

/** The sum of the known values; unknown as soon as one is unknown. */
function sumOf(values: ReadonlyArray<number | null>): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

function actionsFor(wallets: readonly string[], latestToken: string | null): CardAction[] {
  if (latestToken === null) return [];
  return [
    { label: 'Trades', command: 'trades', args: [latestToken, ...wallets] },
    { label: 'Chart', command: 'chart', args: [latestToken] },
  ];
}

export function buildWalletCard(input: WalletCardInput): Card {
  const { wallets, history, tokens, now } = input;
  const trades = history.tradeHistory;
  const single = wallets.length === 1 ? wallets[0] : undefined;
  const title = single === undefined ? `${wallets.length} wallets` : `Wallet ${shortAddress(cleanText(single, 64, '?'))}`;
  const url = single === undefined ? undefined : (explorerAccountUrl(single) ?? undefined);
  const who = single === undefined ? rich('Wallets: ', walletList(wallets)) : [];
  const unread = unreadNote(input.unreadable ?? 0, 'entry of the answer', 'entries of the answer');

  if (trades.length === 0) {
    return {
      title,
      url,
      description: joinRich(
        [
          unread === null
            ? single === undefined
              ? 'No trades by these wallets.'
              : 'No trades by this wallet.'
            : `No readable trades: ${unread}.`,
          who,
        ],
        '\n',
      ),
      color: 'neutral',
      fields: [],
      timestamp: now,
      actions: [],
    };
  }

  const profits = profitByToken(trades);
  const lines = trades.slice(0, MAX_TRADE_LINES).map((trade) => tradeLine(trade, tokens, now, single === undefined));
  const heading = trades.length > lines.length ? `Newest ${lines.length} of ${trades.length} trades:` : 'Trades, newest first:';
  const detailed = profits.slice(0, MAX_PROFIT_FIELDS);
  const others = profits.slice(MAX_PROFIT_FIELDS);

  const fields: CardField[] = [
    field('Trades', `${trades.length} in ${profits.length} ${profits.length === 1 ? 'token' : 'tokens'}`, true),
    field('Bought', usdText(sumOf(profits.map((p) => p.boughtUsd))), true),
    field('Sold', usdText(sumOf(profits.map((p) => p.soldUsd))), true),
    field('Realised', signedUsd(sumOf(profits.map((p) => p.realisedUsd))), true),
    ...detailed.map((profit) => profitField(profit, infoOf(tokens, profit.token), now)),
  ];
  if (others.length > 0) {
    const named = others.slice(0, MAX_OTHER_SYMBOLS).map((profit) => tokenSymbol(infoOf(tokens, profit.token)));
    const rest = others.length - named.length;
    fields.push(field('Other Tokens', `${named.join(', ')}${rest > 0 ? ` +${rest} more` : ''}`));
  }

  return {
    title,
    url,
    description: joinRich([who, unread === null ? '' : `⚠ ${unread}`, heading, ...lines], '\n'),
    color: 'info',
    fields,
    footer:
      'Trade USD at current prices · profit per token from the service’s running totals (USD at trade time), realised at average cost',
    timestamp: now,
    actions: actionsFor(wallets, profits[0]?.token ?? null),
  };
}
