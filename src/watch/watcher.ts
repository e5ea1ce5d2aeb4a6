/**
 * The watcher: one live subscription per distinct followed token or wallet, every pushed change
 * through the detectors, and each alert into the outbox of every chat that follows it, in the same
 * transaction as the new last-seen state.
 *
 * Wiring (src/app.ts):
 *
 *   const watcher = createWatcher({ store, streams, logger, describeToken });
 *   await watcher.start();                      // loads follows and last-seen state, opens subscriptions
 *   watcher.onAlerts(() => delivery.notify());  // new outbox rows were written
 *   await watcher.resync(address?);             // after /track, /untrack, /mute…: follows changed
 *   const job = startReconcileJob({ watcher, market, cron: config.reconcileCron, logger }); // src/jobs/reconcile.ts
 *   ...
 *   await job.stop(); await watcher.close();
 *
 * Its parts, one job each: Subscriptions (subscriptions.ts: opened and closed to match the follows,
 * reconnections), ReadQueue (readQueue.ts: inputs waiting for a read of their target), TargetMemory
 * (targetMemory.ts: state, follows and names in memory, and their reads), HolderBaselines
 * (holderBaselines.ts: the lists a stream sends on subscribing) and Commits (commits.ts: one
 * transaction a turn). This file compares each input and ties them together; a stream's events
 * become inputs in inputs.ts.
 *
 * - Targets are the distinct tokens and wallets followed in chats that are not paused
 *   (`store.follows.targets()`); `sync(targets)` diffs them against the open subscriptions:
 *   token-feed for every token, holders-live for the tokens where some follow wants whale alerts,
 *   trades-live for every wallet (one wallet per subscription). However many chats follow a
 *   target, it has one subscription per stream.
 * - Every input (a pushed token, holder or trade, or a reconciliation's token-data and
 *   wallet-tracker answers) is compared, in its target's arrival order, with the state the input
 *   before left: the last-seen state of a token is never compared by two paths at once, so the
 *   stream and a reconciliation seeing the same change make one alert. An input whose target is in
 *   memory is compared as it arrives; one that needs a read first (its state, its follows, a traded
 *   token's name) waits, and its target's later inputs wait behind it, while other targets go on.
 *   What a turn of the event loop found is committed in one transaction (`store.state.commitMany`).
 * - The last-seen state and the follows of each target are kept in memory (the store holds the
 *   durable copy); `resync(address)` reloads one target's follows, `resync()` all of them.
 * - A reconnection shows as a second snapshot on a subscription that had one, or as an event of a
 *   later opening of its socket: `onReconnect` listeners hear of it (at most once a second), and
 *   the reconciliation job runs then.
 */
import { errorText, silentLogger, type Logger } from '../log';
import type { StreamName } from '../market/endpoints';
import type { Holder, Token, Trade } from '../market/schemas';
import type { StreamEvent, StreamProtocol } from '../market/stream';
import type { AlertEvent } from '../model/events';
import type { FollowKind } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { Store } from '../store/store';
import { detectHolderChanges, detectTokenChanges, detectTradeChanges } from '../alerts/detect';
import { deliveriesFor, needsHolders } from '../alerts/fanout';
import {
  olderThanApplied,
  snapshotOfToken,
  snapshotOfWallet,
  snapshotWithHolder,
  snapshotWithPrice,
  syncedAtOf,
  withPoolsOf,
} from '../alerts/snapshot';
import { Commits, ReadAgain, type Alerts, type Uncommitted } from './commits';
import { HolderBaselines } from './holderBaselines';
import { CLOSED, inputOfEvent, type Input, type Settling } from './inputs';
import { ReadQueue } from './readQueue';
import type { WatchScope } from './scope';
import { plannedSubscriptions } from './plan';
import { solPriceOf } from './priceInput';
import { Subscriptions, type WatcherStreams } from './subscriptions';
import { TargetMemory, type DescribeToken } from './targetMemory';
import { sameAsWritten, writtenToken } from './writtenToken';

export type { WatcherStreams } from './subscriptions';

export interface WatchTargets {
  tokens: string[];
  wallets: string[];
}

export interface WatcherDeps {
  store: Store;
  streams: WatcherStreams;
  logger?: Logger;
  /** Epoch ms; default Date.now. */
  now?: () => number;
  /**
   * Name and decimals of a token a followed wallet traded that no chat follows (the alert card
   * names it). Optional; without it, or when it fails, the card shows the address. Typically
   * `(address) => market.token(address)` (cached, batched).
   */
  describeToken?: DescribeToken;
  /** USD per SOL when known, for the price in USD on price alerts. */
  solUsd?: () => number | null;
  /** The partitions this watcher holds, with several watcher processes (src/cluster/); absent: every target. */
  scope?: WatchScope;
  /** The protocol the service's streams speak now (src/watch/plan.ts); absent: the spec's reading. Read at each sync. */
  protocol?: () => StreamProtocol;
  /**
   * A token's largest holders over REST (holders-history): on the vendor's protocol, which sends no
   * list on subscribing, the baseline a holders-live record is compared with (holderBaselines.ts).
   */
  readHolders?: (token: string) => Promise<readonly Holder[]>;
}

export interface WatcherStatus {
  tokens: number;
  wallets: number;
  subscriptions: Record<StreamName, number>;
  /** Inputs processed (pushed events and reconciliation answers) since start. */
  processed: number;
  /** Alert events found, and outbox rows written for them. */
  events: number;
  /** Alert events found, by kind (`risk-status`, `price`…): `events` split up. */
  eventsByKind: Record<string, number>;
  rows: number;
  /** Token inputs ignored as older than one already applied (their syncedAt; see olderThanApplied). */
  stale: number;
  /**
   * Prices seen on the vendor's trades and candles that moved nothing: the token had no state yet
   * (its first poll sets it), the trade went through another pool than the deepest, or a candle's
   * unit could not be told (src/watch/priceInput.ts).
   */
  pricesSkipped: number;
  /** Inputs waiting to be processed. */
  queued: number;
}

export interface Watcher {
  /** Loads the targets from the store and opens their subscriptions. */
  start(): Promise<void>;
  /** Opens and closes subscriptions so that exactly `targets` are watched. */
  sync(targets: WatchTargets): Promise<void>;
  /**
   * Follows changed (a command added, removed, muted or changed one): re-reads the targets, and the
   * follows of `address` (or of every target without it), then syncs. Cheap; call it after each change.
   */
  resync(address?: string): Promise<void>;
  /**
   * Tokens read by a reconciliation (token-data): compared like pushed ones. Resolves once
   * committed, with the outbox rows added. `readSince`: the `mark()` taken before the request, so
   * that a frame that came after it keeps its word over an answer of the same second.
   */
  applyTokens(tokens: readonly Token[], readSince?: number): Promise<number>;
  /** How many stream frames of tokens were applied so far: taken before a reconciliation's request (applyTokens). */
  mark(): number;
  /** A wallet's recent trades read by a reconciliation (wallet-tracker). Resolves once committed. */
  applyWalletTrades(wallet: string, trades: readonly Trade[]): Promise<number>;
  /** The targets watched now. */
  targets(): WatchTargets;
  /**
   * Called when the service is to be read again: after a stream reconnected (at most once a
   * second), and after the store refused a commit or a read for being away or full (commits.ts
   * ReadAgain: 1 s after, then at doubling waits up to a minute while it keeps refusing), so that
   * what could not be written is found again even where no frame of its target comes.
   */
  onReconnect(listener: () => void): () => void;
  /** Called after a batch wrote outbox rows, with how many. */
  onAlerts(listener: (rows: number) => void): () => void;
  status(): WatcherStatus;
  /** Resolves when every input queued so far is committed. */
  idle(): Promise<void>;
  /**
   * Drops what memory holds of the targets `test` picks (state, follows, baselines): they are read
   * from the store again when next needed. Another watcher may have written them meanwhile.
   */
  forgetWhere(test: (address: string) => boolean): void;
  /** Closes at once the subscriptions of targets out of scope (partitions lost), reading nothing. */
  letGoOutOfScope(): void;
  /** Closes every subscription (not the stream client) and waits for the queue. */
  close(): Promise<void>;
}

/**
 * A token's state is written at least this often while it changes, so that a restart finds a
 * recent price window; between, a push that changes nothing a detector reads stays in memory.
 */
const STATE_WRITE_MS = 30_000;
/**
 * Inputs detected but not yet committed past which a stream callback waits for the commit: the
 * sockets' reading then pauses (src/market/stream/connection.ts) instead of memory growing.
 */
const UNCOMMITTED_LIMIT = 4_096;

export function createWatcher(deps: WatcherDeps): Watcher {
  return new WatcherImpl(deps);
}

class WatcherImpl implements Watcher {
  private readonly store: Store;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly memory: TargetMemory;
  private readonly baselines = new HolderBaselines();
  private readonly commits: Commits;
  private readonly reads: ReadQueue;
  private readonly subscriptions: Subscriptions;
  private wanted: WatchTargets = { tokens: [], wallets: [] };
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly counts = { processed: 0, events: 0, stale: 0, pricesSkipped: 0 };
  /** Per token, USD per SOL as its latest vendor trade implied it: the rate a candle's USD price is read with. */
  private readonly tradeRates = new Map<string, number>();
  private readonly eventsByKind = new Map<string, number>();
  /** Per token, the `syncedAt` (epoch ms) of the last stream frame applied, and its number among all: see compareToken. */
  private readonly streamedAt = new Map<string, { synced: number; frame: number }>();
  /** Stream frames of tokens applied since start (the marks reconciliations take). */
  private framesApplied = 0;
  /** Tokens whose holders baseline was asked of REST in this process (vendor protocol): asked once each. */
  private readonly holdersAsked = new Set<string>();
  /** Listeners of onReconnect that the store's refusals ask too (the stream's reconnections ask them through Subscriptions). */
  private readonly readAgainListeners = new Set<() => void>();
  private readonly readAgain = new ReadAgain(() => this.askReadAgain());

  constructor(private readonly deps: WatcherDeps) {
    this.store = deps.store;
    this.logger = (deps.logger ?? silentLogger).child({ component: 'watcher' });
    this.now = deps.now ?? Date.now;
    this.memory = new TargetMemory(deps.store, this.logger, deps.describeToken);
    this.commits = new Commits(
      deps.store,
      this.logger,
      this.now,
      { failed: (target) => this.forget(target), refused: () => this.readAgain.refused(), landed: () => this.readAgain.landed() },
      deps.scope ?? null,
    );
    this.reads = new ReadQueue(
      {
        inMemory: (input) => this.memory.inMemory(input),
        prepare: (target, inputs) => this.memory.prepare(target, inputs),
        hasState: (target) => this.memory.hasState(target.kind, target.address),
        compare: (input, into) => this.detect(input, into),
        forget: (target) => this.forget(target),
        pending: () => this.commits.pending(),
        refused: () => this.readAgain.refused(),
      },
      this.logger,
      this.now,
    );
    this.subscriptions = new Subscriptions(deps.streams, this.logger, this.now, (event, address, again, follows) =>
      this.onStreamEvent(event, address, again, follows),
    );
  }

  async start(): Promise<void> {
    await this.resync();
  }

  resync(address?: string): Promise<void> {
    // One sync at a time, in the order asked: the last one sees the newest follows.
    const run = this.syncing.then(async () => {
      if (this.closed) return;
      this.memory.dropFollowers(address);
      const targets = await this.store.follows.targets();
      await this.syncNow(targets);
    });
    this.syncing = run.catch((error: unknown) => {
      this.logger.error({ error: errorText(error) }, 'could not read the follows; subscriptions unchanged');
    });
    return run;
  }

  sync(targets: WatchTargets): Promise<void> {
    const run = this.syncing.then(() => this.syncNow(targets));
    this.syncing = run.catch(() => undefined);
    return run;
  }

  private async syncNow(targets: WatchTargets): Promise<void> {
    if (this.closed) return;
    // With several watchers, only the targets of the partitions this one holds.
    const scope = this.deps.scope;
    const mine = (address: string): boolean => scope === undefined || scope.owns(address);
    let tokens = [...new Set(targets.tokens)].filter(mine);
    let wallets = [...new Set(targets.wallets)].filter(mine);
    this.wanted = { tokens, wallets };
    await this.memory.loadFollowers('token', tokens);
    await this.memory.loadFollowers('wallet', wallets);
    await this.memory.loadTokenState(tokens);
    await this.memory.loadWalletState(wallets);
    // The reads may have waited on the store while partitions moved away: only what is still held is subscribed.
    if (scope !== undefined) {
      tokens = tokens.filter(mine);
      wallets = wallets.filter(mine);
      this.wanted = { tokens, wallets };
    }

    const protocol = this.deps.protocol?.() ?? 'spec';
    const wantsHolders = (token: string): boolean => needsHolders(this.memory.followers.token.get(token) ?? []);
    this.subscriptions.sync(plannedSubscriptions(protocol, tokens, wallets, wantsHolders));
    if (protocol === 'vendor') for (const token of tokens) if (wantsHolders(token)) this.askHolderBaseline(token);
    const tokenSet = new Set(tokens);
    this.memory.retain(tokenSet, new Set(wallets));
    for (const address of this.streamedAt.keys()) if (!tokenSet.has(address)) this.streamedAt.delete(address);
    for (const address of this.tradeRates.keys()) if (!tokenSet.has(address)) this.tradeRates.delete(address);
    for (const address of this.holdersAsked) if (!tokenSet.has(address)) this.holdersAsked.delete(address);
    this.baselines.retainTokens(tokenSet);
  }

  /**
   * The vendor's holders-live sends no list on subscribing, only records of balances that change:
   * a token whose holders were never read whole gets its largest holders over REST, taken as the
   * list a spec stream would have sent (a baseline, no alert), so that the first live record, a
   * new whale among them, is compared with something.
   */
  private askHolderBaseline(token: string): void {
    const read = this.deps.readHolders;
    const state = this.memory.tokenState.get(token);
    if (read === undefined || this.holdersAsked.has(token)) return;
    if (state?.holdersSeenAt !== null && state?.holdersSeenAt !== undefined) return;
    this.holdersAsked.add(token);
    read(token).then(
      (holders) => {
        for (const holder of holders) this.accept({ type: 'holder', tokenAddress: token, holder, snapshot: true, again: false });
      },
      (error: unknown) => {
        // Asked again at the next sync; meanwhile the first live record is the baseline, as it was.
        this.holdersAsked.delete(token);
        this.logger.warn({ address: token, error: errorText(error) }, 'could not read the holders baseline of a token');
      },
    );
  }

  /**
   * Compares the event at once when its target is in memory; resolves only when the subscription
   * should wait (for a read of the store, or for a commit when many are detected but uncommitted).
   */
  private onStreamEvent(event: StreamEvent, address: string, again: boolean, follows: 'token' | 'wallet'): Promise<void> | undefined {
    const input = inputOfEvent(event, address, again, follows);
    if (input === null) return undefined;
    const joined = this.accept(input);
    const pending = this.commits.open;
    if (pending !== null && joined === pending && pending.inputs < UNCOMMITTED_LIMIT) return undefined;
    return joined.settled;
  }

  applyTokens(tokens: readonly Token[], readSince?: number): Promise<number> {
    if (tokens.length === 0) return Promise.resolve(0);
    let done: Promise<number> = Promise.resolve(0);
    for (const token of tokens)
      done = this.accept({
        type: 'token',
        address: token.address,
        token,
        snapshot: false,
        from: 'reconcile',
        ...(readSince === undefined ? {} : { readSince }),
      }).done;
    return done;
  }

  mark(): number {
    return this.framesApplied;
  }

  applyWalletTrades(wallet: string, trades: readonly Trade[]): Promise<number> {
    return this.accept({ type: 'trades', wallet, trades, snapshot: false, again: false }).done;
  }

  /** Takes an input in its target's arrival order (readQueue.ts); settles once committed. */
  private accept(input: Input): Settling {
    if (this.closed) return CLOSED;
    return this.reads.accept(input);
  }

  /** After a failed read or commit, memory may be ahead of the store: the target is read from it again. */
  private forget(target: { kind: FollowKind; address: string }): void {
    this.memory.forget(target);
    if (target.kind === 'token') {
      this.baselines.forget(target.address);
      this.streamedAt.delete(target.address);
    }
  }

  /** Compares one input with the last-seen state in memory, which it advances; what changed joins `into`. */
  private detect(input: Input, into: Uncommitted): void {
    this.counts.processed += 1;
    into.inputs += 1;
    const now = this.now();
    switch (input.type) {
      case 'token':
        return this.compareToken(input, into, now);
      case 'holder':
        return this.compareHolder(input, into, now);
      case 'trades':
        return this.compareTrades(input, into, now);
      case 'price':
        return this.comparePrice(input, into, now);
    }
  }

  /** A price from the vendor's trades or candles: the token's window moves, and a move past a threshold alerts. */
  private comparePrice(input: Extract<Input, { type: 'price' }>, into: Uncommitted, now: number): void {
    const { address, price } = input;
    if (price.usdPerSol !== null) this.tradeRates.set(address, price.usdPerSol);
    const last = this.memory.tokenState.get(address);
    const rate = this.tradeRates.get(address) ?? this.deps.solUsd?.() ?? null;
    const sol = last === undefined ? null : solPriceOf(price, last, rate);
    if (last === undefined || sol === null) {
      this.counts.pricesSkipped += 1;
      return;
    }
    const next = snapshotWithPrice(last, sol, rate, now);
    const found = detectTokenChanges(last, next, this.memory.followers.token.get(address) ?? []);
    this.memory.tokenState.set(address, next);
    this.record(into.tokens, address, next, found, 'token', now);
  }

  private compareToken(input: Extract<Input, { type: 'token' }>, into: Uncommitted, now: number): void {
    const address = input.address;
    const last = this.memory.tokenState.get(address) ?? null;
    // Two paths bring a token (the stream and the reconciliation's answers), and an answer read
    // before a frame can be applied after it: what is older than the state applied is not news.
    // The service stamps whole seconds, so an answer read just before a change can also carry the
    // same second as the frame that pushed the change: a frame that came after the request was
    // made keeps its word over the answer (the stream pushes every change; a later one comes as a
    // frame too). An answer of the same second as an earlier frame is applied: it may be what a
    // socket missed.
    const synced = syncedAtOf(input.token);
    const streamed = this.streamedAt.get(address);
    const overtaken =
      input.from === 'reconcile' &&
      input.readSince !== undefined &&
      streamed !== undefined &&
      streamed.frame > input.readSince &&
      synced !== null &&
      synced <= streamed.synced;
    if (overtaken && last !== null && last.poolsLeftOut === true && !olderThanApplied(synced, last)) {
      // The frame that overtook this answer left the pools out (the live service's frames never
      // carry them): the answer keeps its word on the pools, and on nothing else.
      return this.comparePoolsOnly(input, last, into, now);
    }
    if ((last !== null && olderThanApplied(synced, last)) || overtaken) {
      this.counts.stale += 1;
      return;
    }
    if (input.from === 'stream' && synced !== null) {
      this.framesApplied += 1;
      // Kept in place: a record per frame would be garbage on the busiest path.
      if (streamed === undefined) this.streamedAt.set(address, { synced, frame: this.framesApplied });
      else {
        streamed.synced = synced;
        streamed.frame = this.framesApplied;
      }
    }
    const next = this.baselines.firstListRead(
      address,
      snapshotOfToken(input.token, last, now, this.deps.solUsd?.() ?? null, input.from),
      now,
      false,
    );
    // The token's follows too: a target is told when the token crosses its own level.
    const found = detectTokenChanges(last, next, this.memory.followers.token.get(address) ?? []);
    // First sight: the baseline, from which later changes alert (a debug line, once per token).
    if (last === null) this.logger.debug({ address }, 'token baseline set');
    this.memory.tokenState.set(address, next);
    if (last === null) this.memory.unseen.token.delete(address);
    this.record(into.tokens, address, next, found, 'token', now);
    // Holder records that came before the token (two streams, two sockets) are read now, in their
    // order, as if the token had come first: the list's records set the baseline, and a live
    // record among them (a whale that came while the list was being read) is compared.
    for (const early of this.baselines.takeWaiting(address)) this.compareHolder(early, into, now);
  }

  /** A reconciliation's answer applied for its pools alone (see compareToken). */
  private comparePoolsOnly(input: Extract<Input, { type: 'token' }>, last: TokenSnapshot, into: Uncommitted, now: number): void {
    const address = input.address;
    const next = withPoolsOf(last, snapshotOfToken(input.token, last, now, this.deps.solUsd?.() ?? null, 'reconcile'));
    const found = detectTokenChanges(last, next, this.memory.followers.token.get(address) ?? []);
    this.memory.tokenState.set(address, next);
    this.record(into.tokens, address, next, found, 'token', now);
  }

  /** Compares one holder record of a token; one that comes before its token waits for it. */
  private compareHolder(input: Extract<Input, { type: 'holder' }>, into: Uncommitted, now: number): void {
    const address = input.tokenAddress;
    const stored = this.memory.tokenState.get(address);
    if (stored === undefined) {
      this.baselines.holdForToken(input);
      return;
    }
    // A live record means the first list, if one was arriving, is whole: this record is compared.
    const last = this.baselines.firstListRead(address, stored, now, !input.snapshot);
    const first = last.holdersSeenAt === null || last.holdersSeenAt === undefined;
    const baseline = this.baselines.isBaseline(`holders:${address}`, { first, snapshot: input.snapshot, again: input.again });
    this.baselines.beginFirstList(address, last, now);
    const found = baseline ? [] : detectHolderChanges(last, { holder: input.holder, snapshot: input.snapshot, at: now });
    const next = snapshotWithHolder(last, input.holder, now);
    this.memory.tokenState.set(address, next);
    this.record(into.tokens, address, next, found, 'token', now);
  }

  private compareTrades(input: Extract<Input, { type: 'trades' }>, into: Uncommitted, now: number): void {
    const address = input.wallet;
    const last = this.memory.walletState.get(address) ?? null;
    const baseline = this.baselines.isBaseline(`wallet:${address}`, { first: last === null, snapshot: input.snapshot, again: input.again });
    const found = baseline ? [] : detectTradeChanges(last, address, input.trades, now, (traded) => this.memory.nameOf(traded));
    const next = snapshotOfWallet(address, last, input.trades, now);
    this.memory.walletState.set(address, next);
    if (last === null) this.memory.unseen.wallet.delete(address);
    this.record(into.wallets, address, next, found, 'wallet', now);
  }

  /**
   * Keeps the newest snapshot of a target for the next commit, with every alert found for it.
   * A token whose snapshot changed nothing a detector reads (a price within its minute, a holders
   * count) and was written less than STATE_WRITE_MS ago is not written again: most pushes change
   * only that, and the memory copy is the one compared. A token written here is always written
   * with its alerts, in one transaction.
   */
  private record<S extends TokenSnapshot | WalletSnapshot>(
    into: Map<string, { snapshot: S; alerts: Alerts }>,
    address: string,
    snapshot: S,
    found: AlertEvent[],
    kind: FollowKind,
    now: number,
  ): void {
    let entry = into.get(address);
    const token = kind === 'token' ? (snapshot as TokenSnapshot) : null;
    const last = token === null ? undefined : this.memory.written.get(address);
    const unchanged = token !== null && last !== undefined && sameAsWritten(last, token);
    if (!entry) {
      if (found.length === 0 && unchanged && last !== undefined && now - last.at < STATE_WRITE_MS) return;
      into.set(address, (entry = { snapshot, alerts: [] }));
    } else entry.snapshot = snapshot;
    if (token !== null) {
      // Kept in place when unchanged: a new record per push would be more kept state to copy.
      if (unchanged && last !== undefined) last.at = now;
      else this.memory.written.set(address, writtenToken(token, now));
    }
    if (found.length === 0) return;
    this.counts.events += found.length;
    const followers = this.memory.followers[kind].get(address) ?? [];
    for (const event of found) {
      this.eventsByKind.set(event.kind, (this.eventsByKind.get(event.kind) ?? 0) + 1);
      const to = deliveriesFor(event, followers, now);
      if (to.length > 0) entry.alerts.push({ event, to });
    }
  }

  /**
   * Closes at once the subscriptions of the targets no longer in scope, and forgets them, reading
   * nothing: a watcher that lost its partitions because the store is out of reach must still let
   * their streams go, before another watcher subscribes them.
   */
  letGoOutOfScope(): void {
    const scope = this.deps.scope;
    if (scope === undefined) return;
    const gone = (address: string): boolean => !scope.owns(address);
    this.forgetWhere(gone);
    this.wanted = {
      tokens: this.wanted.tokens.filter((address) => !gone(address)),
      wallets: this.wanted.wallets.filter((address) => !gone(address)),
    };
    this.subscriptions.closeWhere(gone);
  }

  forgetWhere(test: (address: string) => boolean): void {
    for (const kind of ['token', 'wallet'] as const) {
      for (const address of this.memory.addresses(kind)) {
        if (!test(address)) continue;
        this.forget({ kind, address });
        this.memory.dropFollowers(address);
      }
    }
  }

  targets(): WatchTargets {
    return { tokens: [...this.wanted.tokens], wallets: [...this.wanted.wallets] };
  }

  onReconnect(listener: () => void): () => void {
    const off = this.subscriptions.onReconnect(listener);
    this.readAgainListeners.add(listener);
    return () => {
      off();
      this.readAgainListeners.delete(listener);
    };
  }

  /** The store refused a commit or a read a while ago: the service is read again (the reconciliation listens). */
  private askReadAgain(): void {
    if (this.closed) return;
    for (const listener of this.readAgainListeners) {
      try {
        listener();
      } catch (error) {
        this.logger.warn({ error: errorText(error) }, 'reconnect listener failed');
      }
    }
  }

  onAlerts(listener: (rows: number) => void): () => void {
    return this.commits.onRows(listener);
  }

  status(): WatcherStatus {
    return {
      tokens: this.wanted.tokens.length,
      wallets: this.wanted.wallets.length,
      subscriptions: this.subscriptions.status(),
      processed: this.counts.processed,
      events: this.counts.events,
      eventsByKind: Object.fromEntries(this.eventsByKind),
      rows: this.commits.rows,
      stale: this.counts.stale,
      pricesSkipped: this.counts.pricesSkipped,
      queued: this.reads.queued + (this.commits.open?.inputs ?? 0),
    };
  }

  async idle(): Promise<void> {
    for (;;) {
      const reads = this.reads.underWay();
      if (reads === null && !this.commits.busy) return;
      if (reads !== null) await reads;
      await this.commits.idle();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.readAgain.close();
    this.subscriptions.close();
    await this.syncing;
    await this.idle();
  }
}
