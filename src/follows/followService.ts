/**
 * What the follow commands do to the store, with the rules that keep a chat sane: its fair shares
 * of follows and of the live streams (followLimits.ts), labels of at most MAX_LABEL_LENGTH
 * characters, one follow per address (tracking it again updates it), and the watcher told after
 * every change so that a new follow is live at once and an untracked one stops costing a subscription.
 */
import type { ChatRef } from '../model/chat';
import { UsageError } from '../usage';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import { tokenSymbols, type TokenSymbols } from './tokenSymbols';
import type { Follow, FollowKind, FollowOptions, FollowTarget } from '../model/follow';
import type { FollowRoom } from './streamRoom';
import { checkFollowShares, DEFAULT_FOLLOW_LIMITS, type FollowLimits } from './followLimits';
import type { Trade } from '../market/schemas';
import { writeWalletBaseline } from './walletBaseline';
import { PlaceLock } from './placeLock';
import { sharePlaceKey, sharePlaceOf } from '../model/place';

export type { FollowLimits };

/** A wallet's label is a name ("dev", "whale 2"), shown in every alert of it. */
export const MAX_LABEL_LENGTH = 32;
/** A price move alerts at this many percent unless the follow says otherwise. */
export const DEFAULT_THRESHOLD_PCT = 10;

export const DEFAULT_OPTIONS: FollowOptions = { events: [], minUsd: 0, thresholdPct: DEFAULT_THRESHOLD_PCT, side: 'both' };

export interface TrackRequest {
  chat: ChatRef;
  userId: string;
  kind: FollowKind;
  address: string;
  /** Undefined: keep the current label (or none). */
  label?: string;
  /** Only the options given; the rest keep their current (or default) values. */
  options: Partial<FollowOptions>;
  now: Date;
  /** A wallet's trades read just before (its check): its baseline when it has no last-seen state yet (walletBaseline.ts). */
  baseline?: readonly Trade[];
}

export interface TargetRequest {
  chat: ChatRef;
  userId: string;
  address: string;
  target: FollowTarget;
  now: Date;
}

function sameTarget(a: FollowTarget | null | undefined, b: FollowTarget): boolean {
  return a !== null && a !== undefined && a.metric === b.metric && a.side === b.side && a.value === b.value;
}

export interface TrackResult {
  follow: Follow;
  created: boolean;
  /** The chat had been paused (the bot could not write there) and is resumed by this change. */
  resumed: boolean;
}

export interface FollowServiceDeps {
  /** The state, when given, names tokens by their last-seen symbols on /following and /targets. */
  store: Pick<Store, 'follows' | 'chats'> & Partial<Pick<Store, 'state'>>;
  /**
   * Brings the watcher's subscriptions and follower lists in line with the store's follows of
   * `address` (of every target when null: a resumed chat brings several back).
   */
  resync: (address: string | null) => Promise<void>;
  logger: Logger;
  /** Whether the live streams can take what a follow adds (src/follows/streamRoom.ts); without it, every follow fits. */
  room?: FollowRoom;
  /** The fair shares (MAX_FOLLOWS_PER_CHAT and the others, from the settings); the defaults for what is not given. */
  limits?: Partial<FollowLimits>;
}

export class FollowService {
  private sweeping: Promise<void> | null = null;
  private sweepAgain = false;

  private readonly limits: FollowLimits;
  private readonly places = new PlaceLock();

  constructor(private readonly deps: FollowServiceDeps) {
    this.limits = { ...DEFAULT_FOLLOW_LIMITS, ...deps.limits };
  }

  async track(request: TrackRequest): Promise<TrackResult> {
    // The limits read and the follow written with no other change of the place between (placeLock.ts).
    return this.places.run(sharePlaceKey(sharePlaceOf(request.chat)), () => this.trackNow(request));
  }

  private async trackNow(request: TrackRequest): Promise<TrackResult> {
    const { follows } = this.deps.store;
    const label = request.label?.trim();
    if (label !== undefined && [...label].length > MAX_LABEL_LENGTH) {
      throw new UsageError(`The label is too long: at most ${MAX_LABEL_LENGTH} characters.`, null);
    }
    const existing = await follows.get(request.chat, request.address);
    if (existing !== null && existing.kind !== request.kind) {
      throw new UsageError(
        `This chat follows ${request.address} as a ${existing.kind}. /untrack it first to follow it as a ${request.kind}.`,
        null,
      );
    }
    if (existing === null) await checkFollowShares(this.deps.store, this.limits, request.chat, request.kind, request.address);
    const options: FollowOptions = { ...(existing?.options ?? DEFAULT_OPTIONS), ...definedOnly(request.options) };
    const refused = (await this.deps.room?.refusal(request.kind, request.address, options)) ?? null;
    if (refused !== null) {
      this.deps.logger.warn(
        { platform: request.chat.platform, chat: request.chat.chatId, kind: request.kind, address: request.address },
        'follow refused: the live streams are at the open-files limit',
      );
      throw new UsageError(refused.problem, null, refused.advice);
    }
    const state = this.deps.store.state;
    if (request.kind === 'wallet' && request.baseline !== undefined && state !== undefined)
      await writeWalletBaseline(state, request.address, request.baseline, request.now);
    const { follow, created } = await follows.upsert({
      chat: request.chat,
      kind: request.kind,
      address: request.address,
      label: label === undefined ? (existing?.label ?? null) : label === '' ? null : label,
      options,
      addedBy: existing?.addedBy ?? request.userId,
      now: request.now,
    });
    const resumed = await this.resumeIfPaused(request.chat);
    await this.resync(resumed ? null : request.address);
    return { follow, created, resumed };
  }

  /**
   * Sets a one-shot target on a token for the chat: a follow of the token that wants nothing but
   * its target's crossing. The same target again is the same follow; the chat's limit counts targets.
   */
  async setTarget(request: TargetRequest): Promise<{ follow: Follow; created: boolean }> {
    return this.places.run(sharePlaceKey(sharePlaceOf(request.chat)), () => this.setTargetNow(request));
  }

  private async setTargetNow(request: TargetRequest): Promise<{ follow: Follow; created: boolean }> {
    const { follows } = this.deps.store;
    const options: FollowOptions = { ...DEFAULT_OPTIONS, target: request.target };
    const existing = (await follows.targetsOf(request.chat)).some(
      (follow) => follow.address === request.address && sameTarget(follow.options.target, request.target),
    );
    if (!existing) await checkFollowShares(this.deps.store, this.limits, request.chat, 'token', request.address);
    const refused = (await this.deps.room?.refusal('token', request.address, options)) ?? null;
    if (refused !== null) throw new UsageError(refused.problem, null, refused.advice);
    const { follow, created } = await follows.upsert({
      chat: request.chat,
      kind: 'token',
      address: request.address,
      label: null,
      options,
      addedBy: request.userId,
      now: request.now,
    });
    const resumed = await this.resumeIfPaused(request.chat);
    await this.resync(resumed ? null : request.address);
    return { follow, created };
  }

  targets(chat: ChatRef): Promise<Follow[]> {
    return this.deps.store.follows.targetsOf(chat);
  }

  /** Removes the chat's targets of `address`; how many there were. */
  async untarget(chat: ChatRef, address: string): Promise<number> {
    const removed = await this.deps.store.follows.removeTargets(chat, address);
    if (removed > 0) await this.resync(address);
    return removed;
  }

  /**
   * Removes the targets whose crossing was told (each is done once told) and lets the watcher drop
   * them. Called after the watcher writes alerts, and at start for any told while the bot stopped;
   * calls made while one runs are served by one more run after it.
   */
  endReachedTargets(): Promise<void> {
    if (this.sweeping !== null) {
      this.sweepAgain = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      try {
        do {
          this.sweepAgain = false;
          const addresses = await this.deps.store.follows.removeReachedTargets();
          for (const address of addresses) await this.resync(address);
        } while (this.sweepAgain);
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'could not remove the targets reached; the next alerts try again');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** False when the chat did not follow it. */
  async untrack(chat: ChatRef, address: string): Promise<boolean> {
    const removed = await this.deps.store.follows.remove(chat, address);
    if (removed) await this.resync(address);
    return removed;
  }

  list(chat: ChatRef, page: { offset: number; limit: number }): Promise<{ follows: Follow[]; total: number }> {
    return this.deps.store.follows.list(chat, page);
  }

  /** The tokens' symbols as last seen, cleaned (src/follows/tokenSymbols.ts). */
  symbolsOf(addresses: readonly string[]): Promise<TokenSymbols> {
    return tokenSymbols(this.deps.store.state, addresses);
  }

  get(chat: ChatRef, address: string): Promise<Follow | null> {
    return this.deps.store.follows.get(chat, address);
  }

  /** Mutes until `until`; false when the chat does not follow the address. */
  async mute(chat: ChatRef, address: string, until: Date): Promise<boolean> {
    const found = await this.deps.store.follows.setMutedUntil(chat, address, until);
    // The watcher keeps each target's followers in memory: it must see the mute.
    if (found) await this.resync(address);
    return found;
  }

  /** Clears a mute, and resumes the chat when it was paused; `found` is false when the chat does not follow the address. */
  async unmute(chat: ChatRef, address: string): Promise<{ found: boolean; resumed: boolean }> {
    const found = await this.deps.store.follows.setMutedUntil(chat, address, null);
    if (!found) return { found, resumed: false };
    const resumed = await this.resumeIfPaused(chat);
    await this.resync(resumed ? null : address);
    return { found, resumed };
  }

  /** A chat member changing follows shows the bot is there again: a paused chat is resumed. */
  private async resumeIfPaused(chat: ChatRef): Promise<boolean> {
    const { chats } = this.deps.store;
    if ((await chats.pausedReason(chat)) === null) return false;
    await chats.resume(chat);
    return true;
  }

  /**
   * A failed resync does not undo the change: the follow is stored, and the next reconciliation or
   * change brings the watcher in line. The person is not told of an error that fixes itself.
   */
  private async resync(address: string | null): Promise<void> {
    try {
      await this.deps.resync(address);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'watcher resync after a follow change failed; the next reconciliation retries it');
    }
  }
}

function definedOnly(options: Partial<FollowOptions>): Partial<FollowOptions> {
  const out: Partial<FollowOptions> = {};
  if (options.events !== undefined) out.events = options.events;
  if (options.minUsd !== undefined) out.minUsd = options.minUsd;
  if (options.thresholdPct !== undefined) out.thresholdPct = options.thresholdPct;
  if (options.side !== undefined) out.side = options.side;
  if (options.direction !== undefined) out.direction = options.direction;
  return out;
}
