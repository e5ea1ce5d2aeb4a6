/**
 * Reads one pushed frame, in either protocol the service may speak (docs/streams.md). The spec's
 * reading (our simulator's default) sends `{type, tokenAddress, wallet?, snapshot?, data}`; other
 * servers may send the bare Token, Candle, Holder or Trade, a list of either, or a flat object
 * with `type` beside the fields. The vendor's (real-service.md) sends a `connected` welcome, a
 * `subscriptionConfirmed` confirmation and `event` messages in shapes of their own
 * (vendorFrames.ts). All are read; the payload's kind always comes from the stream, since a socket
 * serves exactly one. Nothing here throws: what cannot be read comes back as an `unreadable` item
 * with a reason and a count, and a well-formed message of a kind not known here as `unknown`.
 *
 * A big frame is not one schema run per element: the envelope already says what the elements
 * are, so each is first checked for what every payload needs (an object carrying its kind's
 * identifying field) by a type check, and what fails that is counted in bulk, in one item, with no
 * schema run and no error report built for it. Only plausible elements meet the schema.
 */
import type { z } from 'zod';
import { cleanServiceText } from '../../text/unsafe';
import type { StreamName } from '../endpoints';
import { parseHolder } from '../readHolder';
import { parseToken } from '../readToken';
import { CandleSchema, TradeSchema, type Candle, type Holder, type Token, type Trade } from '../schemas';
import type { CandlePriceUnit, StreamEventKind } from './types';
import { confirmedToken, parseFrame, vendorCandle, vendorHolder, vendorTrade } from './vendorFrames';

export type Payload =
  | { kind: 'token'; token: Token }
  | { kind: 'candle'; candle: Candle; priceUnit: CandlePriceUnit }
  | { kind: 'holder'; holder: Holder }
  | { kind: 'trade'; trade: Trade };

export type Decoded =
  | { type: 'event'; payload: Payload; tokenAddress: string | null; wallet: string | null; snapshot: boolean }
  /** `vendor`: the vendor's `subscriptionConfirmed` (its token read from the message), not the spec's `subscribed`. */
  | { type: 'subscribed'; tokenAddress: string | null; wallets: string[]; vendor: boolean }
  | { type: 'unsubscribed' }
  | { type: 'error'; message: string }
  /** The vendor's `{"type":"connected"}`, sent as a socket opens: the service speaks the vendor's protocol. */
  | { type: 'welcome' }
  | { type: 'ignored' }
  /** A well-formed message of a kind this client does not know (an `event` of another kind, a `type` never seen). */
  | { type: 'unknown'; reason: string }
  | { type: 'unreadable'; reason: string; count: number };

export const KIND_OF_STREAM: Record<StreamName, StreamEventKind> = {
  'token-feed': 'token',
  'chart-live': 'candle',
  'holders-live': 'holder',
  'trades-live': 'trade',
};

const KINDS = new Set<string>(Object.values(KIND_OF_STREAM));
/** Keep-alive chatter some servers send; harmless, so neither an event nor unreadable. */
const KEEPALIVE = new Set(['ping', 'pong', 'heartbeat', 'keepalive']);
/** The vendor's data messages, by their `event`, and the stream each belongs to. */
const VENDOR_EVENTS: Record<string, StreamName> = {
  trade: 'trades-live',
  chart: 'chart-live',
  holder: 'holders-live',
  token: 'token-feed',
};

/**
 * Quote mints of the Solana pools the service reports (wrapped SOL, USDC, USDT): in a bare trade
 * without maker data, the traded token is the side that is not one of these.
 */
const QUOTE_MINTS = new Set([
  'So11111111111111111111111111111111111111112',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
]);

const MAX_TEXT = 300;

/** The field without which an element cannot be its stream's payload, checked before any schema. */
const REQUIRED_FIELD: Record<StreamEventKind, string> = {
  token: 'address',
  candle: 'timestamp',
  holder: 'address',
  trade: 'transactionHash',
};

export function decodeText(stream: StreamName, text: string): Decoded[] {
  let value: unknown;
  try {
    value = parseFrame(text);
  } catch {
    return [unreadable('not JSON')];
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [unreadable('an empty list')];
    const out: Decoded[] = [];
    const skipped = { count: 0 };
    const kind = KIND_OF_STREAM[stream];
    for (const item of value) {
      // A bare list of payloads: anything that cannot be one is counted, not decoded.
      if (!isRecord(item) || (typeof item.type !== 'string' && !(REQUIRED_FIELD[kind] in item) && !('data' in item))) skipped.count += 1;
      else out.push(...decodeValue(stream, item));
    }
    if (skipped.count > 0) out.push(unreadable(`${skipped.count} list elements that are no ${kind}`, skipped.count));
    return out;
  }
  return decodeValue(stream, value);
}

function decodeValue(stream: StreamName, value: unknown): Decoded[] {
  if (!isRecord(value)) return [unreadable('not an object')];
  if (typeof value.event === 'string') return [decodeVendorEvent(stream, value.event, value)];
  const type = typeof value.type === 'string' ? value.type : null;
  if (type === 'subscribed') {
    return [{ type: 'subscribed', tokenAddress: textOrNull(value.tokenAddress), wallets: textList(value.wallets), vendor: false }];
  }
  if (type === 'subscriptionConfirmed')
    return [{ type: 'subscribed', tokenAddress: confirmedToken(value.message), wallets: [], vendor: true }];
  if (type === 'connected') return [{ type: 'welcome' }];
  if (type === 'unsubscribed') return [{ type: 'unsubscribed' }];
  if (type === 'error') return [{ type: 'error', message: errorText(value) }];
  if (type !== null && KEEPALIVE.has(type)) return [{ type: 'ignored' }];

  const kind = KIND_OF_STREAM[stream];
  if (type !== null && KINDS.has(type) && type !== kind) return [unreadable(`a ${type} message on ${stream}`)];
  // A message of a type never seen that carries no payload: someone's new control message, not a broken frame.
  if (type !== null && !KINDS.has(type) && !('data' in value) && !(REQUIRED_FIELD[kind] in value))
    return [{ type: 'unknown', reason: `a "${cleanServiceText(type, 40)}" message` }];

  const meta = { tokenAddress: textOrNull(value.tokenAddress), wallet: textOrNull(value.wallet), snapshot: value.snapshot === true };
  const data = 'data' in value ? value.data : undefined;
  // The usual frame, an envelope around one payload: read with no list made around it.
  if (isRecord(data))
    return [REQUIRED_FIELD[kind] in data ? readPayload(kind, data, meta) : unreadable(`an envelope whose data is no ${kind}`)];
  if (Array.isArray(data)) {
    if (data.length === 0) return [unreadable('an envelope with an empty list')];
    const out: Decoded[] = [];
    let skipped = 0;
    for (const item of data as unknown[]) {
      if (isRecord(item) && REQUIRED_FIELD[kind] in item) out.push(readPayload(kind, item, meta));
      else skipped += 1;
    }
    if (skipped > 0) out.push(unreadable(`${skipped} elements of the envelope that are no ${kind}`, skipped));
    return out;
  }
  return [readPayload(kind, value, meta)];
}

/** A vendor `event` message: read into its payload when it is this stream's kind. */
function decodeVendorEvent(stream: StreamName, event: string, value: Record<string, unknown>): Decoded {
  const belongs = VENDOR_EVENTS[event];
  if (belongs === undefined) return { type: 'unknown', reason: `an "${cleanServiceText(event, 40)}" event` };
  if (belongs !== stream) return unreadable(`a ${event} event on ${stream}`);
  const meta = { tokenAddress: textOrNull(value.tokenAddress), wallet: null, snapshot: false };
  switch (event) {
    case 'trade': {
      const parsed = vendorTrade(value);
      if (!parsed.success) return unreadable(`not a trade: ${firstIssue(parsed.error)}`);
      return {
        type: 'event',
        payload: { kind: 'trade', trade: parsed.data },
        ...meta,
        tokenAddress: meta.tokenAddress ?? tradedToken(parsed.data),
      };
    }
    case 'chart': {
      const parsed = vendorCandle(value);
      if (!parsed.success) return unreadable(`not a candle: ${firstIssue(parsed.error)}`);
      // The vendor's page does not say the unit of chart-live prices (its example behaves as USD).
      return { type: 'event', payload: { kind: 'candle', candle: parsed.data, priceUnit: 'unstated' }, ...meta };
    }
    case 'holder': {
      const parsed = vendorHolder(value);
      if (!parsed.success) return unreadable(`not a holder: ${firstIssue(parsed.error)}`);
      return {
        type: 'event',
        payload: { kind: 'holder', holder: parsed.data },
        ...meta,
        tokenAddress: meta.tokenAddress ?? parsed.data.tokenAddress,
      };
    }
    default:
      // token-feed's filter lists (new tokens matching a filter set): nothing here follows them yet.
      return { type: 'unknown', reason: 'a token-feed filter list' };
  }
}

type Meta = { tokenAddress: string | null; wallet: string | null; snapshot: boolean };

function readPayload(kind: StreamEventKind, item: unknown, meta: Meta): Decoded {
  switch (kind) {
    case 'token': {
      // The hand-written reader first (readToken.ts: every pushed frame is a token), then the schema.
      const parsed = parseToken(item);
      if (!parsed.success) return unreadable(`not a token: ${firstIssue(parsed.error)}`);
      const token = parsed.data;
      return {
        type: 'event',
        payload: { kind, token },
        tokenAddress: meta.tokenAddress ?? token.address,
        wallet: meta.wallet,
        snapshot: meta.snapshot,
      };
    }
    case 'candle': {
      const parsed = CandleSchema.safeParse(item);
      if (!parsed.success) return unreadable(`not a candle: ${firstIssue(parsed.error)}`);
      return {
        type: 'event',
        // The spec's chart-live pushes candles as chart-history answers them: prices in SOL.
        payload: { kind, candle: parsed.data, priceUnit: 'sol' },
        tokenAddress: meta.tokenAddress,
        wallet: meta.wallet,
        snapshot: meta.snapshot,
      };
    }
    case 'holder': {
      // As for tokens: the hand-written reader first (readHolder.ts), then the schema.
      const parsed = parseHolder(item);
      if (!parsed.success) return unreadable(`not a holder: ${firstIssue(parsed.error)}`);
      const holder = parsed.data;
      return {
        type: 'event',
        payload: { kind, holder },
        tokenAddress: meta.tokenAddress ?? holder.tokenAddress,
        wallet: meta.wallet,
        snapshot: meta.snapshot,
      };
    }
    case 'trade': {
      const parsed = TradeSchema.safeParse(item);
      if (!parsed.success) return unreadable(`not a trade: ${firstIssue(parsed.error)}`);
      const trade = parsed.data;
      return {
        type: 'event',
        payload: { kind, trade },
        tokenAddress: meta.tokenAddress ?? tradedToken(trade),
        wallet: meta.wallet ?? trade.makerData?.address ?? null,
        snapshot: meta.snapshot,
      };
    }
  }
}

/** The token a trade is about, when the frame did not say. */
export function tradedToken(trade: Trade): string {
  const fromMaker = trade.makerData?.tokenAddress;
  if (fromMaker) return fromMaker;
  if (QUOTE_MINTS.has(trade.tokenIn)) return trade.tokenOut;
  if (QUOTE_MINTS.has(trade.tokenOut)) return trade.tokenIn;
  return trade.tokenOut;
}

function errorText(value: Record<string, unknown>): string {
  const parts = [textOrNull(value.error), textOrNull(value.message)].filter((part): part is string => part !== null && part !== '');
  // The server's words go to the log and the socket's status: cleaned of control and bidi characters as card text is.
  return parts.length > 0 ? cleanServiceText(parts.join(': '), MAX_TEXT) : 'error without a message';
}

function firstIssue(error: z.ZodError): string {
  const [issue] = error.issues;
  if (!issue) return 'wrong shape';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function unreadable(reason: string, count = 1): Decoded {
  return { type: 'unreadable', reason, count };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
