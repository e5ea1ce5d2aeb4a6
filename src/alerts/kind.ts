/**
 * An alert kind, described once: its name, which follows it is for, the words `/track` accepts for
 * it, how a follow card says it is wanted, its detector, the follows it tells, and its card. The
 * watcher, fan-out, `/track`, the follow cards and the alert card all read these descriptors
 * (src/alerts/registry.ts), so a new kind is one file in src/alerts/kinds/, its tests and its docs line.
 */
import type { Card, CardAttachment } from '../cards/card';
import type { Trade } from '../market/schemas';
import type { AlertEvent, AlertKind } from '../model/events';
import type { Follow, FollowKind, FollowOptions } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { HolderUpdate, TokenNamer } from './detect/inputs';

/**
 * What a kind's detector reads: a token's next snapshot (with the token's follows, for a kind
 * that tells each follow of its own level, as targets do), one holder record, or a wallet's trades.
 */
export type Detector<E> =
  | { input: 'token'; detect(last: TokenSnapshot, next: TokenSnapshot, follows: readonly Follow[]): E[] }
  | { input: 'holder'; detect(last: TokenSnapshot, update: HolderUpdate): E[] }
  | { input: 'trades'; detect(last: WalletSnapshot | null, wallet: string, trades: readonly Trade[], at: number, name: TokenNamer): E[] };

/**
 * Whom a kind's alerts are for: the follows of a token or of a wallet (the kinds `/track` offers),
 * a token's targets (`/target`), or a chat itself (its daily watchlist, `/digest`).
 */
export type AlertFamily = FollowKind | 'target' | 'chat';

export interface AlertKindSpec<K extends AlertKind> {
  name: K;
  /** The follows it is for: a token's or a wallet's (the kinds `/track` offers), a target, or the chat itself. */
  family: AlertFamily;
  /** Words `/track`'s events option accepts for this kind alone, besides its name. */
  words: readonly string[];
  /** Words that name it with other kinds (`risk`: the status and the flags). */
  groups?: readonly string[];
  /** How a follow card says the follow wants it: "price moves of 10% or more". */
  describe(options: FollowOptions): string;
  /** What finds its events; none for a kind made elsewhere (a chat's daily watchlist, made on a schedule). */
  detector?: Detector<AlertEventOf<K>>;
  /**
   * Whether a follow that is not muted is told of this event. `wants(kind)` says whether the follow
   * asked for a kind (its events option). Default: when it asked for this one.
   */
  tells?(follow: Follow, event: AlertEventOf<K>, wants: (kind: string) => boolean): boolean;
  /** The card; `label` is the follow's name for a wallet (untrusted). No picture. */
  card(event: AlertEventOf<K>, label: string | null): Card;
  /** A picture for the card, built off the event loop where it can wait (a price move's small chart). */
  picture?(event: AlertEventOf<K>): Promise<CardAttachment | null>;
  /** Sent as a card of its own even when a backlog of alerts is merged into digests (a daily watchlist is one already). */
  alone?: true;
}

export type AlertEventOf<K extends AlertKind> = Extract<AlertEvent, { kind: K }>;

/** A kind as the registry holds it: every function takes any event and answers for its own kind only. */
export interface AlertKindDescriptor {
  readonly name: AlertKind;
  readonly family: AlertFamily;
  readonly words: readonly string[];
  readonly groups: readonly string[];
  /** What its detector reads; null when it has none. */
  readonly input: Detector<AlertEvent>['input'] | null;
  describe(options: FollowOptions): string;
  detectToken(last: TokenSnapshot, next: TokenSnapshot, follows: readonly Follow[]): AlertEvent[];
  detectHolder(last: TokenSnapshot, update: HolderUpdate): AlertEvent[];
  detectTrades(last: WalletSnapshot | null, wallet: string, trades: readonly Trade[], at: number, name: TokenNamer): AlertEvent[];
  tells(follow: Follow, event: AlertEvent, wants: (kind: string) => boolean): boolean;
  card(event: AlertEvent, label: string | null): Card;
  picture(event: AlertEvent): Promise<CardAttachment | null>;
  readonly alone: boolean;
}

/** The descriptor of a kind, from its spec: the one place a kind's own event type meets the others. */
export function defineAlertKind<K extends AlertKind>(spec: AlertKindSpec<K>): AlertKindDescriptor {
  // An event's kind names its type (AlertEventsByKind): an event of this kind is this kind's event.
  const own = (event: AlertEvent): event is AlertEventOf<K> => event.kind === spec.name;
  const detector = spec.detector;
  return {
    name: spec.name,
    family: spec.family,
    words: [spec.name, ...spec.words],
    groups: spec.groups ?? [],
    input: detector?.input ?? null,
    describe: (options) => spec.describe(options),
    detectToken: (last, next, follows) => (detector?.input === 'token' ? detector.detect(last, next, follows) : []),
    detectHolder: (last, update) => (detector?.input === 'holder' ? detector.detect(last, update) : []),
    detectTrades: (last, wallet, trades, at, name) => (detector?.input === 'trades' ? detector.detect(last, wallet, trades, at, name) : []),
    tells: (follow, event, wants) => own(event) && (spec.tells === undefined ? wants(spec.name) : spec.tells(follow, event, wants)),
    card(event, label) {
      if (!own(event)) throw new Error(`the ${spec.name} card was asked for a ${event.kind} event`);
      return spec.card(event, label);
    },
    picture: (event) => (own(event) && spec.picture !== undefined ? spec.picture(event) : Promise.resolve(null)),
    alone: spec.alone === true,
  };
}
