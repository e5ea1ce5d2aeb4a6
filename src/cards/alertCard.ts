/**
 * The alert card: what changed, on which token, from what to what, and buttons to look closer.
 * Built once per event (and follow label) and rendered by the same renderers as the look-ups, so
 * every text written by strangers (token names, statuses, authorities, a chat's wallet label) is
 * cleaned here and escaped there; nothing is markup.
 *
 * `alertCard(event, label)` builds the card at once, without pictures. `alertCardWithChart` is
 * the same card with, for a price move, the small chart of its window (src/charts/moveChart.ts;
 * PNG encoding runs off the event loop, hence a promise): what delivery should send when it can
 * wait for it. Either is built once per event and label.
 */
import type { AlertEvent, FlagChange, LiquidityEvent, PriceEvent, RiskFlagEvent, RiskStatusEvent, TokenRef, WalletTradeEvent, WhaleEvent } from '../model/events';
import { renderMoveChart } from '../charts/moveChart';
import { type Card, type CardAction, type CardField, type RichText, bold, field, link, rich, riskColor } from './card';
import { explorerAccountUrl, explorerTokenUrl, explorerTxUrl } from './explorer';
import { duration, formatTokenAmount, percent, price, shortAddress, solFromLamports, usd } from '../text/format';
import { LABEL_MAX, UNKNOWN, sharePercent, tokenTitle } from './tokenFacts';
import { untrusted } from '../text/sanitize';

const STATUS_MAX = 24;
const FLAG_VALUE_MAX = 64;
const POOL_LINES = 5;

/** The token as a card names it: "Name (SYM)", or its short address when the service gave no name. */
function tokenName(token: TokenRef): string {
  if (token.name.trim() === '' && token.symbol.trim() === '') return shortAddress(untrusted(token.address, 64, '?'));
  return tokenTitle(token);
}

function tokenLink(token: TokenRef): RichText {
  return [link(shortAddress(untrusted(token.address, 64, '?')), explorerTokenUrl(token.address))];
}

function walletLink(wallet: string): RichText {
  return [link(shortAddress(untrusted(wallet, 64, '?')), explorerAccountUrl(wallet))];
}

function status(value: string | null): string {
  return untrusted(value, STATUS_MAX, UNKNOWN).toUpperCase();
}

function tokenActions(token: TokenRef, extra: CardAction[] = []): CardAction[] {
  return [
    { label: 'Token', command: 'token', args: [token.address] },
    { label: 'Chart', command: 'chart', args: [token.address] },
    { label: 'Holders', command: 'holders', args: [token.address] },
    ...extra,
  ];
}

const FLAG_LABELS: Record<FlagChange['flag'], string> = {
  mintAuthority: 'Mint authority',
  freezeAuthority: 'Freeze authority',
  mutable: 'Metadata',
  ownerBalance: 'Owner balance',
};

function authorityState(value: string | null): string {
  return value === null ? 'renounced' : `active (${shortAddress(untrusted(value, FLAG_VALUE_MAX, '?'))})`;
}

/** A decimal string as read from the event (it went through JSON and a store); null when it is not one. */
function bigintOf(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  try {
    return BigInt(value);
  } catch {
    return null;
  }
}

/**
 * An owner balance as a reader weighs it: the amount in whole tokens with the symbol, and its
 * share of the supply when the supply is known. A bare "25.2M" said neither what was held nor
 * whether it was much.
 */
function ownerAmount(value: string | null, token: TokenRef): { amount: string; share: string | null } {
  if (value === null) return { amount: 'none', share: null };
  const amount = bigintOf(value);
  if (amount === null) return { amount: UNKNOWN, share: null };
  if (amount === 0n) return { amount: 'none', share: null };
  const decimals = token.decimals;
  const symbol = untrusted(token.symbol, 16);
  if (decimals === null || decimals === undefined) return { amount: `${formatTokenAmount(amount, 0)} units`, share: null };
  const share = sharePercent(amount, bigintOf(token.totalSupply));
  return { amount: symbol === '' ? formatTokenAmount(amount, decimals) : `${formatTokenAmount(amount, decimals)} ${symbol}`, share: share === null ? null : percent(share) };
}

/** "25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)": the last share named says what the shares are of. */
function ownerChange(from: string | null, to: string | null, token: TokenRef): string {
  const before = ownerAmount(from, token);
  const after = ownerAmount(to, token);
  const lastShare = after.share !== null ? 'after' : 'before';
  const shown = (side: { amount: string; share: string | null }, which: 'before' | 'after') =>
    side.share === null ? side.amount : `${side.amount} (${side.share}${which === lastShare ? ' of supply' : ''})`;
  return `${shown(before, 'before')} → ${shown(after, 'after')}`;
}

/** "Mint authority: renounced → active (AbCd…WxYz)", "Owner balance: 25.2M MOCHI (5.04%) → 17.8M MOCHI (3.56% of supply)" */
export function flagChangeText(change: FlagChange, token: TokenRef): string {
  const label = FLAG_LABELS[change.flag];
  switch (change.flag) {
    case 'mintAuthority':
    case 'freezeAuthority':
      return `${label}: ${authorityState(change.from)} → ${authorityState(change.to)}`;
    case 'mutable': {
      const word = (value: string | null) => (value === 'true' ? 'mutable' : value === 'false' ? 'immutable' : UNKNOWN);
      return `${label}: ${word(change.from)} → ${word(change.to)}`;
    }
    case 'ownerBalance':
      return `${label}: ${ownerChange(change.from, change.to, token)}`;
  }
}

/**
 * Every alert card is coloured by the token's current risk status, whatever the alert: a price
 * rise on a DANGER token is still a DANGER token, and a colour of its own for the kind of alert
 * would read as a status the token does not have. A risk change's new status is the current one.
 * Unknown status: neutral, no badge.
 */
function base(event: AlertEvent, title: string, fields: CardField[], actions: CardAction[], description?: RichText): Card {
  const url = explorerTokenUrl(event.token.address);
  return {
    title,
    ...(url === null ? {} : { url }),
    ...(description === undefined ? {} : { description }),
    color: riskColor(event.kind === 'risk-status' ? event.to : event.token.riskStatus),
    fields,
    footer: `${shortAddress(untrusted(event.token.address, 64, '?'))} · alert`,
    timestamp: new Date(event.at),
    actions,
  };
}

function riskStatusCard(event: RiskStatusEvent): Card {
  const from = status(event.from);
  const to = status(event.to);
  const fields = [field('Status', rich(bold(from), ' → ', bold(to)), true), field('Token', tokenLink(event.token), true)];
  if (event.flags.length > 0) fields.push(field('Changed with it', event.flags.map((change) => flagChangeText(change, event.token)).join('\n')));
  return base(event, `Risk ${from} → ${to}: ${tokenName(event.token)}`, fields, tokenActions(event.token), rich('Risk status changed from ', bold(from), ' to ', bold(to), '.'));
}

function riskFlagCard(event: RiskFlagEvent): Card {
  const lines = event.changes.map((change) => flagChangeText(change, event.token));
  return base(event, `Risk flag changed: ${tokenName(event.token)}`, [field('Changed', lines.join('\n')), field('Token', tokenLink(event.token), true)], tokenActions(event.token));
}

function lamports(value: string | null): string {
  if (value === null) return UNKNOWN;
  try {
    return solFromLamports(BigInt(value));
  } catch {
    return UNKNOWN;
  }
}

function liquidityCard(event: LiquidityEvent): Card {
  const lines = event.pools.slice(0, POOL_LINES).map((pool) => {
    const name = shortAddress(untrusted(pool.poolAddress, 64, '?'));
    if (pool.gone) return `Pool ${name}: gone (had ${lamports(pool.from)})`;
    const drop = pool.dropPct === null ? '' : ` (−${percent(pool.dropPct)})`;
    return `Pool ${name}: ${lamports(pool.from)} → ${lamports(pool.to)}${drop}`;
  });
  if (event.pools.length > POOL_LINES) lines.push(`and ${event.pools.length - POOL_LINES} more`);
  return base(event, `Liquidity pulled: ${tokenName(event.token)}`, [field('Pools', lines.join('\n')), field('Token', tokenLink(event.token), true)], tokenActions(event.token));
}

function priceCard(event: PriceEvent): Card {
  const up = event.changePct >= 0;
  // Whole minutes: "in 47m", not "in 47m13s".
  const within = duration(Math.max(60, Math.round(event.windowSecs / 60) * 60));
  const change = percent(event.changePct, { signed: true });
  const fields = [
    field('Change', rich(bold(change), ` in ${within}`), true),
    field('Price', rich(`${price(event.from)} → `, bold(`${price(event.to)} SOL`)), true),
  ];
  if (event.priceUsd !== null) fields.push(field('Price (USD)', usd(event.priceUsd), true));
  fields.push(field('Token', tokenLink(event.token), true));
  const title = `Price ${up ? 'up' : 'down'} ${percent(Math.abs(event.changePct))}: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token));
}

function walletTradeCard(event: WalletTradeEvent, label: string | null): Card {
  const who = label === null ? shortAddress(untrusted(event.wallet, 64, '?')) : untrusted(label, LABEL_MAX, shortAddress(untrusted(event.wallet, 64, '?')));
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
  ];
  const verb = event.side === 'buy' ? 'bought' : 'sold';
  return base(
    event,
    `${who} ${verb} ${tokenName(event.token)}`,
    fields,
    [
      { label: 'Token', command: 'token', args: [event.token.address] },
      { label: 'Trades', command: 'trades', args: [event.token.address, event.wallet] },
      { label: 'Wallet', command: 'wallet', args: [event.wallet] },
    ],
  );
}

function whaleCard(event: WhaleEvent): Card {
  const from = event.fromPct === null ? 'under 1%' : percent(event.fromPct);
  const fields = [
    field('Share of supply', rich(`${from} → `, bold(percent(event.toPct))), true),
    field('Wallet', walletLink(event.wallet), true),
    field('Token', tokenLink(event.token), true),
  ];
  const title = `Whale ${event.direction === 'in' ? 'in' : 'out'}: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token, [{ label: 'Wallet', command: 'wallet', args: [event.wallet] }]));
}

/** The alert card of an event; `label` is the follow's name for a wallet (untrusted). No picture. */
export function alertCard(event: AlertEvent, label: string | null): Card {
  switch (event.kind) {
    case 'risk-status':
      return riskStatusCard(event);
    case 'risk-flag':
      return riskFlagCard(event);
    case 'liquidity':
      return liquidityCard(event);
    case 'price':
      return priceCard(event);
    case 'wallet-trade':
      return walletTradeCard(event, label);
    case 'whale':
      return whaleCard(event);
  }
}

/** The alert card, and for a price move with at least two prices the picture of its window. */
export async function alertCardWithChart(event: AlertEvent, label: string | null): Promise<Card> {
  const card = alertCard(event, label);
  if (event.kind !== 'price') return card;
  const points = event.points ?? [];
  if (points.length < 2) return card;
  try {
    const png = await renderMoveChart(points, { symbol: event.token.symbol, quote: 'SOL', basePrice: event.from });
    card.image = { filename: 'price-move.png', contentType: 'image/png', data: png, description: 'Price over the move window' };
  } catch {
    // A card without its picture is still the alert.
  }
  return card;
}
