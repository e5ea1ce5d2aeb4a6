/**
 * A follow row as both stores read it back: the columns they share, and the interning that keeps
 * 100,000 follows small in memory (chats, options and who added them are kept once each, not once
 * per row). Each store maps its own row types onto `FollowColumns`.
 */
import type { ChatRef } from '../model/chat';
import type { Follow, FollowKind, FollowOptions, FollowTarget, PriceDirection, TradeSide } from '../model/follow';
import { ChatInterner, type ChatColumns } from './rows';

export interface FollowColumns extends ChatColumns {
  id: number;
  kind: string;
  address: string;
  label: string | null;
  events: string;
  min_usd: number;
  threshold_pct: number;
  side: string;
  muted_until: number | null;
  added_by: string;
  added_at: number;
  direction: string;
  /** '' for a follow that is no target. */
  target_metric: string;
  target_side: string;
  target_value: number;
}

/** The columns in the order both stores select them. */
export const FOLLOW_COLUMNS =
  'id, platform, chat_id, thread_id, scope_id, kind, address, label, events, min_usd, threshold_pct, side, muted_until, ' +
  'added_by, added_at, direction, target_metric, target_side, target_value';

/** A target as its three columns hold it: '', '' and 0 for a follow that is no target (the unique key reads them so). */
export function targetColumns(target: FollowTarget | null | undefined): [metric: string, side: string, value: number] {
  return target === null || target === undefined ? ['', '', 0] : [target.metric, target.side, target.value];
}

/**
 * A follow as the store hands it out. Its time of adding is kept as a number and made a Date only
 * when read (the /following card): the cache holds every follow of every watched token, and at
 * 100,000 follows a Date each was a tenth of the watcher's memory.
 */
class StoredFollow implements Follow {
  constructor(
    readonly id: number,
    readonly chat: ChatRef,
    readonly kind: FollowKind,
    readonly address: string,
    readonly label: string | null,
    readonly options: FollowOptions,
    readonly mutedUntil: Date | null,
    readonly addedBy: string,
    private readonly addedAtMs: number,
  ) {}

  get addedAt(): Date {
    return new Date(this.addedAtMs);
  }
}

function kindOf(text: string): FollowKind {
  return text === 'wallet' ? 'wallet' : 'token';
}

function sideOf(text: string): TradeSide {
  return text === 'buy' || text === 'sell' ? text : 'both';
}

function directionOf(text: string): PriceDirection {
  return text === 'up' || text === 'down' ? text : 'both';
}

function targetOf(row: FollowColumns): FollowTarget | null {
  if (row.target_metric !== 'price' && row.target_metric !== 'mcap') return null;
  return { metric: row.target_metric, side: row.target_side === 'below' ? 'below' : 'above', value: row.target_value };
}

/** Turns rows into frozen Follow objects, sharing what many rows repeat. */
export class FollowReader {
  private readonly chats = new ChatInterner();
  /** Identical options (most follows keep the defaults) share one frozen object. */
  private readonly options = new Map<string, FollowOptions>();
  private readonly addedBy = new Map<string, string>();

  follow(row: FollowColumns, address: string = row.address): Follow {
    return Object.freeze(
      new StoredFollow(
        row.id,
        this.chats.chat(row),
        kindOf(row.kind),
        address,
        row.label,
        this.optionsOf(row),
        row.muted_until === null ? null : new Date(row.muted_until),
        this.addedByOf(row.added_by),
        row.added_at,
      ),
    );
  }

  /** Who added a follow: a handful of users add most follows, so each name is kept once, not once per row. */
  private addedByOf(text: string): string {
    const known = this.addedBy.get(text);
    if (known !== undefined) return known;
    if (this.addedBy.size >= 10_000) this.addedBy.clear();
    this.addedBy.set(text, text);
    return text;
  }

  private optionsOf(row: FollowColumns): FollowOptions {
    const id =
      `${row.events}\u0000${row.min_usd}\u0000${row.threshold_pct}\u0000${row.side}\u0000` +
      `${row.direction}\u0000${row.target_metric}\u0000${row.target_side}\u0000${row.target_value}`;
    let options = this.options.get(id);
    if (options === undefined) {
      // Kept as written: which names are alert kinds is the alert registry's to say, not the store's.
      const events = row.events === '' ? [] : row.events.split(',').filter((name) => name !== '');
      const direction = directionOf(row.direction);
      const target = targetOf(row);
      // The defaults (both directions, no target) are left out, as a follow written before them reads.
      options = Object.freeze({
        events: Object.freeze(events) as FollowOptions['events'],
        minUsd: row.min_usd,
        thresholdPct: row.threshold_pct,
        side: sideOf(row.side),
        ...(direction === 'both' ? {} : { direction }),
        ...(target === null ? {} : { target: Object.freeze(target) }),
      });
      if (this.options.size >= 10_000) this.options.clear();
      this.options.set(id, options);
    }
    return options;
  }
}

/** At most this many tokens and wallets keep their followers cached (the watcher's 10,000 fit). */
const CACHE_LIMIT = 20_000;

/**
 * The answers of `followersOf`, per kind and address, dropped by every write that could change
 * them. Shared and frozen: callers read them, never change them.
 */
export class FollowersCache {
  private readonly cache = new Map<string, readonly Follow[]>();

  get(kind: FollowKind, address: string): Follow[] | undefined {
    // The frozen array typed as the interface's mutable one: a caller that pushes gets a TypeError, not a corrupt cache.
    return this.cache.get(`${kind}\u0000${address}`) as Follow[] | undefined;
  }

  set(kind: FollowKind, address: string, follows: Follow[]): Follow[] {
    if (this.cache.size >= CACHE_LIMIT) {
      // Drop the oldest entry (Maps keep insertion order): cheap, and good enough for a working set.
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    const frozen = Object.freeze(follows);
    this.cache.set(`${kind}\u0000${address}`, frozen);
    return frozen as Follow[];
  }

  /** Both kinds: an address re-tracked as the other kind leaves the first list too. */
  forget(address: string): void {
    this.cache.delete(`token\u0000${address}`);
    this.cache.delete(`wallet\u0000${address}`);
  }

  clear(): void {
    this.cache.clear();
  }
}
