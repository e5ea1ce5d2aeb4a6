/**
 * What the watcher compares: one input per pushed event or reconciliation answer, about one
 * target (a token or a wallet), and the promise a caller waits on until what it brought is
 * committed. Each stream's events become inputs here (`inputOfEvent`): a new input stream is a new
 * line of that table and a new comparison in the watcher, nothing else.
 */
import type { Holder, Token, Trade } from '../market/schemas';
import { priceOfTrade, type PriceSeen } from './priceInput';
import type { StreamEvent } from '../market/stream';
import type { FollowKind } from '../model/follow';

export type Input =
  /**
   * `address` is the watcher's own string for the token (the subscription's), not the frame's copy
   * of it: every map of the watcher is keyed by that very string, so each lookup of a pushed frame
   * finds its key by identity rather than comparing 44 characters.
   */
  | {
      type: 'token';
      address: string;
      token: Token;
      snapshot: boolean;
      /** Pushed by the stream, or read by a reconciliation (REST). */
      from: 'stream' | 'reconcile';
      /** A reconciliation's: the watcher's mark (`Watcher.mark()`) taken before the request was made. */
      readSince?: number;
    }
  /** `again`: the first record of a later serving of its subscription (the socket came back). */
  | { type: 'holder'; tokenAddress: string; holder: Holder; snapshot: boolean; again: boolean }
  /**
   * A price of a token seen on a stream that carries no whole token (the vendor's trades-live and
   * chart-live): compared with the token's last state for moves alone (priceInput.ts).
   */
  | { type: 'price'; address: string; price: PriceSeen }
  | { type: 'trades'; wallet: string; trades: readonly Trade[]; snapshot: boolean; again: boolean };

/**
 * A stream event as the watcher's input, for the target `address` it was subscribed for (`follows`
 * a token or a wallet); null: not compared (a spec candle: token-feed's frames bring the price, a
 * snapshot of old trades or candles: not news).
 */
export function inputOfEvent(event: StreamEvent, address: string, again: boolean, follows: 'token' | 'wallet' = 'wallet'): Input | null {
  switch (event.kind) {
    case 'token':
      return { type: 'token', address, token: event.token, snapshot: event.snapshot, from: 'stream' };
    case 'holder':
      return { type: 'holder', tokenAddress: address, holder: event.holder, snapshot: event.snapshot, again };
    case 'trade':
      if (follows === 'token') return event.snapshot ? null : { type: 'price', address, price: priceOfTrade(event.trade) };
      return { type: 'trades', wallet: address, trades: [event.trade], snapshot: event.snapshot, again };
    case 'candle':
      // On the spec's reading token-feed brings each price whole; a candle there would only repeat it.
      if (event.priceUnit === 'sol' || event.snapshot) return null;
      return {
        type: 'price',
        address,
        price: { value: event.candle.close, unit: 'unstated', usdPerSol: null, pool: null, source: 'candle' },
      };
  }
}

/** The token or wallet an input is about. */
export function targetOf(input: Input): { kind: FollowKind; address: string } {
  if (input.type === 'token') return { kind: 'token', address: input.address };
  if (input.type === 'holder') return { kind: 'token', address: input.tokenAddress };
  if (input.type === 'price') return { kind: 'token', address: input.address };
  return { kind: 'wallet', address: input.wallet };
}

/** The key an input waits under: its target's kind and address (a holder record is its token's). */
export function waitKey(input: Input): string {
  const { kind, address } = targetOf(input);
  return `${kind}|${address}`;
}

/** Something that settles once what it holds is committed, with the outbox rows added. */
export interface Settling {
  done: Promise<number>;
  /** The same, without the count: what a stream callback awaits (one promise per batch, not per event). */
  settled: Promise<void>;
  resolve: (rows: number) => void;
}

export function settling(): Settling {
  let resolve: (rows: number) => void = () => undefined;
  const done = new Promise<number>((r) => {
    resolve = r;
  });
  return { done, settled: done.then(() => undefined), resolve };
}

/** What inputs join after close: nothing is processed. */
export const CLOSED: Settling = { done: Promise.resolve(0), settled: Promise.resolve(), resolve: () => undefined };
