/**
 * The watcher: one live subscription per distinct followed token or wallet, every pushed change
 * through the detectors, and each alert into the outbox of every chat that follows it, in the same
 * transaction as the new last-seen state.
 *
 * Wiring (src/main.ts):
 *
 *   const watcher = createWatcher({ store, streams, logger, describeToken });
 *   await watcher.start();                  // loads follows and last-seen state, opens subscriptions
 *   watcher.onAlerts(() => senders.wake()); // new outbox rows were written
 *   await watcher.resync(address?);         // after /track, /untrack, /mute…: follows changed
 *   const job = startReconcileJob({ watcher, market, cron: config.reconcileCron, logger }); // src/jobs/reconcile.ts
 *   ...
 *   await job.stop(); await watcher.close();
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
 * - A reconnection shows as a second snapshot on a subscription that had one: `onReconnect`
 *   listeners hear of it (at most once a second), and the reconciliation job runs then.
 */
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { StreamName } from '../market/endpoints';
import type { Holder, Token, Trade } from '../market/schemas';
import type { StreamClient, StreamEvent, StreamTarget, SubscriptionRejection } from '../market/stream';
import { tradedToken } from '../market/stream/decode';
import type { StateCommitBatch, Store } from '../store/store';
import type { AlertDelivery, Follow, FollowKind } from '../model/follow';
import { detectHolderChanges, detectTokenChanges, detectTradeChanges } from '../alerts/detectors';
import { tokenRef } from '../alerts/detectors/key';
import type { AlertEvent, TokenRef } from '../model/events';
import { deliveriesFor, needsHolders } from '../alerts/fanout';
import { olderThanApplied, snapshotOfToken, snapshotOfWallet, snapshotWithHolder } from '../alerts/snapshot';
import { type TokenSnapshot, type WalletSnapshot } from '../model/snapshot';
import { sameAsWritten, writtenToken, type WrittenToken } from './writtenToken';

export interface WatchTargets {
  tokens: string[];
  wallets: string[];
}

/** What the watcher needs of the stream client (a StreamClient, or a fake in a test). */
export type WatcherStreams = Pick<StreamClient, 'subscribe'>;

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
  describeToken?: (address: string) => Promise<Pick<Token, 'symbol' | 'name' | 'decimals'> | null>;
  /** USD per SOL when known, for the price in USD on price alerts. */
  solUsd?: () => number | null;
}

export interface WatcherStatus {
  tokens: number;
  wallets: number;
  subscriptions: Record<StreamName, number>;
  /** Inputs processed (pushed events and reconciliation answers) since start. */
  processed: number;
  /** Alert events found, and outbox rows written for them. */
  events: number;
  rows: number;
  /** Token inputs ignored as older than one already applied (their syncedAt; see olderThanApplied). */
  stale: number;
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
  /** Tokens read by a reconciliation (token-data): compared like pushed ones. Resolves once committed, with the outbox rows added. */
  applyTokens(tokens: readonly Token[]): Promise<number>;
  /** A wallet's recent trades read by a reconciliation (wallet-tracker). Resolves once committed. */
  applyWalletTrades(wallet: string, trades: readonly Trade[]): Promise<number>;
  /** The targets watched now. */
  targets(): WatchTargets;
  /** Called (at most once a second) after a stream reconnected. */
  onReconnect(listener: () => void): () => void;
  /** Called after a batch wrote outbox rows, with how many. */
  onAlerts(listener: (rows: number) => void): () => void;
  status(): WatcherStatus;
  /** Resolves when every input queued so far is committed. */
  idle(): Promise<void>;
  /** Closes every subscription (not the stream client) and waits for the queue. */
  close(): Promise<void>;
}

type Input =
  /**
   * `address` is the watcher's own string for the token (the subscription's), not the frame's copy
   * of it: every map of the watcher is keyed by that very string, so each lookup of a pushed frame
   * finds its key by identity rather than comparing 44 characters.
   */
  | { type: 'token'; address: string; token: Token; snapshot: boolean }
  /** `again`: the first record of a later serving of its subscription (the socket came back). */
  | { type: 'holder'; tokenAddress: string; holder: Holder; snapshot: boolean; again: boolean }
  | { type: 'trades'; wallet: string; trades: readonly Trade[]; snapshot: boolean; again: boolean };

type Alerts = Array<{ event: AlertEvent; to: AlertDelivery[] }>;

/** Something that settles once what it holds is committed, with the outbox rows added. */
interface Settling {
  done: Promise<number>;
  /** The same, without the count: what a stream callback awaits (one promise per batch, not per event). */
  settled: Promise<void>;
  resolve: (rows: number) => void;
}

/** What was detected since the last commit: the newest state of each target changed, with its alerts. */
interface Uncommitted extends Settling {
  tokens: Map<string, { snapshot: TokenSnapshot; alerts: Alerts }>;
  wallets: Map<string, { snapshot: WalletSnapshot; alerts: Alerts }>;
  inputs: number;
}

/** Inputs of one target that wait for its state, follows or a traded token's name to be read, in arrival order. */
interface Waiting extends Settling {
  target: { kind: FollowKind; address: string };
  inputs: Input[];
}

function settling(): Settling {
  let resolve: (rows: number) => void = () => undefined;
  const done = new Promise<number>((r) => {
    resolve = r;
  });
  return { done, settled: done.then(() => undefined), resolve };
}

/** What inputs join after close: nothing is processed. */
const CLOSED: Settling = { done: Promise.resolve(0), settled: Promise.resolve(), resolve: () => undefined };

/** Names of tokens traded by followed wallets that no chat follows; bounded, oldest out. */
const NAMES_KEPT = 5_000;
const RECONNECT_DEBOUNCE_MS = 1_000;
/**
 * A token's state is written at least this often while it changes, so that a restart finds a
 * recent price window; between, a push that changes nothing a detector reads stays in memory.
 */
const STATE_WRITE_MS = 30_000;
/** Holder records kept for a token whose own data has not come yet (holders-live sends 20 on subscribing). */
const HOLDERS_WAITING = 100;
/**
 * How long holders-live's first list of a token may take to arrive whole. The list is a baseline,
 * and it counts as read (the snapshot's holdersSeenAt, written to the store) only once it is whole:
 * at the first live holder record, or at the token's first input this long after the list began.
 * A stop before then leaves no holdersSeenAt in the store, so the next start reads the list again
 * as a baseline instead of comparing it with the part that was written, which would tell every
 * holder that part lacked as a new whale. The list is sent at once on subscribing: two seconds is
 * ample, and a token pushes more often than that.
 */
export const FIRST_HOLDERS_LIST_MS = 2_000;
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
  private readonly streams: WatcherStreams;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly tokenState = new Map<string, TokenSnapshot>();
  private readonly walletState = new Map<string, WalletSnapshot>();
  /**
   * Targets the store was asked for and holds no state of: their first input is compared at once
   * (it sets the baseline) instead of waiting for another read. At start every token of a fresh
   * store is one, and ten thousand first inputs held across a read would teach V8 that decoded
   * tokens live long, and it would then allocate every later one straight in the old generation.
   */
  private readonly unseen: Record<FollowKind, Set<string>> = { token: new Set(), wallet: new Set() };
  /** The follows of each target, by kind then address (no key joined per lookup: this is read for every frame). */
  private readonly followers: Record<FollowKind, Map<string, Follow[]>> = { token: new Map(), wallet: new Map() };
  private readonly open = new Map<string, { stream: StreamName; stop: () => void }>();
  private readonly baselines = new Set<string>();
  private readonly holdersWaiting = new Map<string, Input[]>();
  /** Tokens whose first holders list is still arriving, with when it began (FIRST_HOLDERS_LIST_MS). */
  private readonly firstLists = new Map<string, number>();
  /** When each token's state was last written, and what a detector reads of it then. */
  private readonly written = new Map<string, WrittenToken>();
  private readonly names = new Map<string, { token: TokenRef; decimals: number | null }>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly alertListeners = new Set<(rows: number) => void>();
  private wanted: WatchTargets = { tokens: [], wallets: [] };
  private uncommitted: Uncommitted | null = null;
  /**
   * Per target (waitKey), the inputs waiting for a read before they can be compared: later inputs
   * of that target wait behind them, keeping its order; other targets go on.
   */
  private readonly waiting = new Map<string, Waiting>();
  /** The reads under way (idle() waits for them). */
  private readonly reads = new Set<Promise<void>>();
  private running: Promise<void> | null = null;
  private syncing: Promise<void> = Promise.resolve();
  private lastReconnectAt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly counts = { processed: 0, events: 0, rows: 0, stale: 0 };
  /** Kept as subscriptions open and close: status() is read often (a /status, a bench) and must not walk them all. */
  private readonly subscriptionCounts: Record<StreamName, number> = { 'token-feed': 0, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 };
  /** One refusal handler for every subscription (a watcher holds tens of thousands): the refusal names its target. */
  private readonly onRejected = (rejection: SubscriptionRejection): void => {
    const address = 'tokenAddress' in rejection.target ? rejection.target.tokenAddress : rejection.target.wallets.join(',');
    this.logger.warn({ stream: rejection.stream, address, code: rejection.code, reason: rejection.reason }, 'the service refused to stream this target');
  };

  constructor(private readonly deps: WatcherDeps) {
    this.store = deps.store;
    this.streams = deps.streams;
    this.logger = (deps.logger ?? silentLogger).child({ component: 'watcher' });
    this.now = deps.now ?? Date.now;
  }

  async start(): Promise<void> {
    await this.resync();
  }

  resync(address?: string): Promise<void> {
    // One sync at a time, in the order asked: the last one sees the newest follows.
    const run = this.syncing.then(async () => {
      if (this.closed) return;
      if (address === undefined) {
        this.followers.token.clear();
        this.followers.wallet.clear();
      }
      else {
        // The cache is keyed by kind and address: an address may be followed as either.
        this.followers.token.delete(address);
        this.followers.wallet.delete(address);
      }
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
    const tokens = [...new Set(targets.tokens)];
    const wallets = [...new Set(targets.wallets)];
    this.wanted = { tokens, wallets };
    await this.loadFollowers('token', tokens);
    await this.loadFollowers('wallet', wallets);
    await this.loadTokenState(tokens);
    await this.loadWalletState(wallets);

    const wantedKeys = new Map<string, { stream: StreamName; target: StreamTarget; address: string }>();
    for (const token of tokens) {
      wantedKeys.set(subKey('token-feed', token), { stream: 'token-feed', target: { tokenAddress: token }, address: token });
      if (needsHolders(this.followers.token.get(token) ?? [])) {
        wantedKeys.set(subKey('holders-live', token), { stream: 'holders-live', target: { tokenAddress: token }, address: token });
      }
    }
    for (const wallet of wallets) {
      wantedKeys.set(subKey('trades-live', wallet), { stream: 'trades-live', target: { wallets: [wallet] }, address: wallet });
    }
    for (const [key, open] of this.open) {
      if (wantedKeys.has(key)) continue;
      open.stop();
      this.open.delete(key);
      this.subscriptionCounts[open.stream] -= 1;
    }
    for (const [key, want] of wantedKeys) {
      if (this.open.has(key)) continue;
      try {
        this.open.set(key, { stream: want.stream, stop: this.subscribe(want.stream, want.target, want.address) });
        this.subscriptionCounts[want.stream] += 1;
      } catch (error) {
        // A target the client can never serve (not an address): said once, the others go on.
        this.logger.warn({ stream: want.stream, address: want.address, error: errorText(error) }, 'cannot watch this target');
      }
    }
    // State of targets no longer followed is forgotten here (the store keeps it for a later follow).
    const tokenSet = new Set(tokens);
    for (const address of this.tokenState.keys()) if (!tokenSet.has(address)) this.tokenState.delete(address);
    for (const address of this.written.keys()) if (!tokenSet.has(address)) this.written.delete(address);
    for (const address of this.unseen.token) if (!tokenSet.has(address)) this.unseen.token.delete(address);
    for (const address of this.firstLists.keys()) if (!tokenSet.has(address)) this.firstLists.delete(address);
    const walletSet = new Set(wallets);
    for (const address of this.walletState.keys()) if (!walletSet.has(address)) this.walletState.delete(address);
    for (const address of this.unseen.wallet) if (!walletSet.has(address)) this.unseen.wallet.delete(address);
  }

  private subscribe(stream: StreamName, target: StreamTarget, address: string): () => void {
    let hadSnapshot = false;
    let hadLive = false;
    let opening: number | undefined;
    return this.streams.subscribe(
      stream,
      target,
      (event) => {
        // Another opening of the socket than the last event's: the subscription is served again.
        const again = opening !== undefined && event.served !== undefined && event.served !== opening;
        opening = event.served ?? opening;
        if (event.snapshot) {
          // A snapshot after this subscription was already served: the socket came back.
          if ((stream === 'token-feed' && hadSnapshot) || hadLive || again) this.reconnected();
          hadSnapshot = true;
          hadLive = false;
        } else hadLive = true;
        return this.onStreamEvent(event, address, again);
      },
      { onRejected: this.onRejected },
    );
  }

  /**
   * Compares the event at once when its target is in memory; resolves only when the subscription
   * should wait (for a read of the store, or for a commit when many are detected but uncommitted).
   */
  private onStreamEvent(event: StreamEvent, address: string, again: boolean): Promise<void> | undefined {
    let input: Input;
    switch (event.kind) {
      case 'token':
        input = { type: 'token', address, token: event.token, snapshot: event.snapshot };
        break;
      case 'holder':
        input = { type: 'holder', tokenAddress: address, holder: event.holder, snapshot: event.snapshot, again };
        break;
      case 'trade':
        input = { type: 'trades', wallet: address, trades: [event.trade], snapshot: event.snapshot, again };
        break;
      default:
        return undefined;
    }
    const joined = this.accept(input);
    const pending = this.uncommitted;
    if (pending !== null && joined === pending && pending.inputs < UNCOMMITTED_LIMIT) return undefined;
    return joined.settled;
  }

  private reconnected(): void {
    if (this.reconnectTimer !== null || this.closed) return;
    const wait = Math.max(0, this.lastReconnectAt + RECONNECT_DEBOUNCE_MS - this.now());
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.lastReconnectAt = this.now();
      for (const listener of this.reconnectListeners) {
        try {
          listener();
        } catch (error) {
          this.logger.warn({ error: errorText(error) }, 'reconnect listener failed');
        }
      }
    }, wait);
    this.reconnectTimer.unref();
  }

  applyTokens(tokens: readonly Token[]): Promise<number> {
    if (tokens.length === 0) return Promise.resolve(0);
    let done: Promise<number> = Promise.resolve(0);
    for (const token of tokens) done = this.accept({ type: 'token', address: token.address, token, snapshot: false }).done;
    return done;
  }

  applyWalletTrades(wallet: string, trades: readonly Trade[]): Promise<number> {
    return this.accept({ type: 'trades', wallet, trades, snapshot: false, again: false }).done;
  }

  /**
   * Takes an input in its target's arrival order. When what it is compared with is in memory and
   * no input of its target waits before it, it is compared now, so the decoded frame is garbage at
   * once rather than state the collector copies; its result joins the next commit (one transaction
   * for what a turn of the event loop brought). Otherwise it waits, behind its target's inputs
   * already waiting, for a read; other targets' inputs go on meanwhile (a trade waiting for its
   * token's name from a slow service holds back no other alert). Settles once committed.
   */
  private accept(input: Input): Settling {
    if (this.closed) return CLOSED;
    // The key is made only while something waits: the usual input needs none.
    const key = this.waiting.size === 0 ? null : waitKey(input);
    if ((key === null || !this.waiting.has(key)) && this.inMemory(input)) {
      const into = this.pendingCommit();
      this.detect(input, into);
      return into;
    }
    const waitingKey = key ?? waitKey(input);
    let entry = this.waiting.get(waitingKey);
    if (entry === undefined) {
      entry = { ...settling(), target: targetOf(input), inputs: [] };
      this.waiting.set(waitingKey, entry);
      const read = this.readFor(waitingKey, entry);
      this.reads.add(read);
      void read.finally(() => this.reads.delete(read));
    }
    entry.inputs.push(input);
    return entry;
  }

  /**
   * Reads what a target's waiting inputs need, compares them in order, and again for the inputs
   * that came meanwhile, until none is left; they settle with the commit of the last of them.
   */
  private async readFor(key: string, entry: Waiting): Promise<void> {
    // The input that made the entry is pushed right after this call: let it (and its turn's others) in.
    await null;
    let last: Uncommitted | null = null;
    try {
      while (entry.inputs.length > 0) {
        const inputs = entry.inputs.splice(0);
        try {
          await this.prepare(entry.target, inputs);
        } catch (error) {
          this.logger.error({ error: errorText(error), inputs: inputs.length }, 'could not read the state to compare with; these inputs are dropped');
          this.forget(entry.target);
          continue;
        }
        last = this.pendingCommit();
        for (const input of inputs) this.detect(input, last);
      }
    } catch (error) {
      // A detector that throws is a bug; the target is read again from the store next time.
      this.logger.error({ error: errorText(error), key }, 'could not compare inputs; their target is read again from the store');
      entry.inputs.length = 0;
      this.forget(entry.target);
    } finally {
      this.waiting.delete(key);
    }
    if (last === null) entry.resolve(0);
    else void last.done.then(entry.resolve);
  }

  /** Whether everything the input is compared with is in memory (state, follows, traded tokens' names). */
  private inMemory(input: Input): boolean {
    if (input.type === 'token') return this.hasState('token', input.address) && this.followers.token.has(input.address);
    if (input.type === 'holder') return this.followers.token.has(input.tokenAddress);
    if (!this.hasState('wallet', input.wallet) || !this.followers.wallet.has(input.wallet)) return false;
    if (!this.deps.describeToken) return true;
    for (const trade of input.trades) {
      const traded = tradedToken(trade);
      if (!this.tokenState.has(traded) && !this.names.has(traded)) return false;
    }
    return true;
  }

  /** Whether the last-seen state of a target is in memory, or known to be absent from the store. */
  private hasState(kind: FollowKind, address: string): boolean {
    return (kind === 'token' ? this.tokenState.has(address) : this.walletState.has(address)) || this.unseen[kind].has(address);
  }

  private pendingCommit(): Uncommitted {
    if (this.uncommitted === null) {
      this.uncommitted = { ...settling(), tokens: new Map(), wallets: new Map(), inputs: 0 };
      this.schedule();
    }
    return this.uncommitted;
  }

  private schedule(): void {
    if (this.running === null) this.running = this.drain();
  }

  /** Commits what was found, a turn of the event loop at a time, until nothing waits to be committed. */
  private async drain(): Promise<void> {
    // Let the rest of this turn's frames join the commit.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.uncommitted !== null) {
      const batch = this.uncommitted;
      this.uncommitted = null;
      let rows = 0;
      try {
        rows = await this.store.state.commitMany({ tokens: [...batch.tokens.values()], wallets: [...batch.wallets.values()] }, new Date(this.now()));
        this.counts.rows += rows;
      } catch (error) {
        this.logger.error({ error: errorText(error), inputs: batch.inputs }, 'could not commit alerts; their state is read again from the store');
        for (const address of batch.tokens.keys()) this.forget({ kind: 'token', address });
        for (const address of batch.wallets.keys()) this.forget({ kind: 'wallet', address });
      }
      batch.resolve(rows);
      if (rows > 0) for (const listener of this.alertListeners) safely(() => listener(rows), this.logger);
    }
    this.running = null;
  }

  /** After a failed read or commit, memory may be ahead of the store: the targets concerned are read from it again. */
  private forget({ kind, address }: { kind: FollowKind; address: string }): void {
    this.unseen[kind].delete(address);
    if (kind === 'wallet') {
      this.walletState.delete(address);
      return;
    }
    this.tokenState.delete(address);
    this.written.delete(address);
    this.firstLists.delete(address);
  }

  /** Compares one input with the last-seen state in memory, which it advances; what changed joins `into`. */
  private detect(input: Input, into: Uncommitted): void {
    this.counts.processed += 1;
    into.inputs += 1;
    const now = this.now();
    if (input.type === 'token') {
      const address = input.address;
      const last = this.tokenState.get(address) ?? null;
      // Two paths bring a token (the stream and the reconciliation's answers), and an answer read
      // before a frame can be applied after it: what is older than the state applied is not news.
      if (last !== null && olderThanApplied(input.token, last)) {
        this.counts.stale += 1;
        return;
      }
      let next = snapshotOfToken(input.token, last, now, this.deps.solUsd?.() ?? null);
      if (this.firstLists.size > 0) next = this.firstListRead(address, next, now, false);
      const found = detectTokenChanges(last, next);
      // First sight: the baseline, from which later changes alert (a debug line, once per token).
      if (last === null) this.logger.debug({ address }, 'token baseline set');
      this.tokenState.set(address, next);
      if (last === null) this.unseen.token.delete(address);
      this.record(into.tokens, address, next, found, 'token', now);
      // Holder records that came before the token (two streams, two sockets) are read now, in their
      // order, as if the token had come first: the list's records set the baseline, and a live
      // record among them (a whale that came while the list was being read) is compared.
      const waiting = this.holdersWaiting.get(address);
      if (waiting) {
        this.holdersWaiting.delete(address);
        for (const early of waiting) if (early.type === 'holder') this.compareHolder(early, into, now);
      }
    } else if (input.type === 'holder') {
      if (!this.tokenState.has(input.tokenAddress)) {
        // The holders came before the token (two streams): they wait for it.
        const waiting = this.holdersWaiting.get(input.tokenAddress) ?? [];
        if (waiting.length < HOLDERS_WAITING) waiting.push(input);
        this.holdersWaiting.set(input.tokenAddress, waiting);
        return;
      }
      this.compareHolder(input, into, now);
    } else {
      const address = input.wallet;
      const last = this.walletState.get(address) ?? null;
      const burst = `wallet:${address}`;
      if (input.again) this.baselines.delete(burst);
      const baseline = last === null || (input.snapshot && this.baselines.has(burst));
      if (input.snapshot && baseline) this.baselines.add(burst);
      if (!input.snapshot) this.baselines.delete(burst);
      const found = baseline ? [] : detectTradeChanges(last, address, input.trades, now, (traded) => this.nameOf(traded));
      const next = snapshotOfWallet(address, last, input.trades, now);
      this.walletState.set(address, next);
      if (last === null) this.unseen.wallet.delete(address);
      this.record(into.wallets, address, next, found, 'wallet', now);
    }
  }

  /** Compares one holder record of a token whose state is in memory, and advances that state. */
  private compareHolder(input: Extract<Input, { type: 'holder' }>, into: Uncommitted, now: number): void {
    const address = input.tokenAddress;
    const stored = this.tokenState.get(address);
    if (stored === undefined) return;
    // A live record means the first list, if one was arriving, is whole: this record is compared.
    const last = this.firstListRead(address, stored, now, !input.snapshot);
    const burst = `holders:${address}`;
    // A later serving's list is not the first list's tail: it is compared once the first was read whole.
    if (input.again) this.baselines.delete(burst);
    const baseline = last.holdersSeenAt === null || last.holdersSeenAt === undefined || (input.snapshot && this.baselines.has(burst));
    if (input.snapshot && baseline) this.baselines.add(burst);
    if (!input.snapshot) this.baselines.delete(burst);
    this.beginFirstList(address, last, now);
    const found = baseline ? [] : detectHolderChanges(last, { holder: input.holder, snapshot: input.snapshot, at: now });
    const next = snapshotWithHolder(last, input.holder, now);
    this.tokenState.set(address, next);
    this.record(into.tokens, address, next, found, 'token', now);
  }

  /** A token whose holders were never read whole starts its first list now, unless one is already arriving. */
  private beginFirstList(address: string, snapshot: TokenSnapshot, now: number): void {
    if ((snapshot.holdersSeenAt === null || snapshot.holdersSeenAt === undefined) && !this.firstLists.has(address)) this.firstLists.set(address, now);
  }

  /**
   * The snapshot with its first holders list marked read (holdersSeenAt: when the list began) once
   * the list is whole: at a live holder record, or FIRST_HOLDERS_LIST_MS after it began.
   */
  private firstListRead(address: string, snapshot: TokenSnapshot, now: number, live: boolean): TokenSnapshot {
    const began = this.firstLists.get(address);
    if (began === undefined || (!live && now - began < FIRST_HOLDERS_LIST_MS)) return snapshot;
    this.firstLists.delete(address);
    return snapshot.holdersSeenAt === null || snapshot.holdersSeenAt === undefined ? { ...snapshot, holdersSeenAt: began } : snapshot;
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
    const last = token === null ? undefined : this.written.get(address);
    const unchanged = token !== null && last !== undefined && sameAsWritten(last, token);
    if (!entry) {
      if (found.length === 0 && unchanged && last !== undefined && now - last.at < STATE_WRITE_MS) return;
      into.set(address, (entry = { snapshot, alerts: [] }));
    } else entry.snapshot = snapshot;
    if (token !== null) {
      // Kept in place when unchanged: a new record per push would be more kept state to copy.
      if (unchanged && last !== undefined) last.at = now;
      else this.written.set(address, writtenToken(token, now));
    }
    if (found.length === 0) return;
    this.counts.events += found.length;
    const followers = this.followers[kind].get(address) ?? [];
    for (const event of found) {
      const to = deliveriesFor(event, followers, now);
      if (to.length > 0) entry.alerts.push({ event, to });
    }
  }

  /**
   * Before a target's waiting inputs are compared: its follows and state, and the names of the
   * tokens its trades are in, where they are not in memory yet (each loader skips what is).
   */
  private async prepare(target: { kind: FollowKind; address: string }, inputs: readonly Input[]): Promise<void> {
    await this.loadFollowers(target.kind, [target.address]);
    if (target.kind === 'token') await this.loadTokenState([target.address]);
    else await this.loadWalletState([target.address]);
    if (!this.deps.describeToken) return;
    const unnamed = new Set<string>();
    for (const input of inputs) {
      if (input.type !== 'trades') continue;
      for (const trade of input.trades) {
        const traded = tradedToken(trade);
        if (!this.tokenState.has(traded) && !this.names.has(traded)) unnamed.add(traded);
      }
    }
    await Promise.all([...unnamed].map((address) => this.describe(address)));
  }

  private async describe(address: string): Promise<void> {
    const describe = this.deps.describeToken;
    if (!describe) return;
    try {
      const found = await describe(address);
      if (!found) return;
      if (this.names.size >= NAMES_KEPT) {
        const oldest = this.names.keys().next().value;
        if (oldest !== undefined) this.names.delete(oldest);
      }
      this.names.set(address, { token: { address, symbol: found.symbol, name: found.name }, decimals: found.decimals });
    } catch (error) {
      this.logger.debug({ address, error: errorText(error) }, 'could not name a traded token; the alert shows its address');
    }
  }

  private nameOf(address: string): { token: TokenRef; decimals: number | null } {
    const known = this.tokenState.get(address);
    // A followed token's ref carries its risk status, so the trade's card is coloured by it.
    if (known) return { token: tokenRef(known), decimals: known.decimals ?? null };
    return this.names.get(address) ?? { token: { address, symbol: '', name: '' }, decimals: null };
  }

  private async loadFollowers(kind: FollowKind, addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.followers[kind].has(address));
    await Promise.all(
      missing.map(async (address) => {
        this.followers[kind].set(address, await this.store.follows.followersOf(kind, address));
      }),
    );
  }

  private async loadTokenState(addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.hasState('token', address));
    if (missing.length === 0) return;
    const found = await this.store.state.tokens(missing);
    for (const address of missing) {
      const snapshot = found.get(address);
      if (snapshot === undefined) this.unseen.token.add(address);
      else if (!this.tokenState.has(address)) this.tokenState.set(address, snapshot);
    }
  }

  private async loadWalletState(addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.hasState('wallet', address));
    await Promise.all(
      missing.map(async (address) => {
        const snapshot = await this.store.state.wallet(address);
        if (snapshot === null) this.unseen.wallet.add(address);
        else if (!this.walletState.has(address)) this.walletState.set(address, snapshot);
      }),
    );
  }

  targets(): WatchTargets {
    return { tokens: [...this.wanted.tokens], wallets: [...this.wanted.wallets] };
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  onAlerts(listener: (rows: number) => void): () => void {
    this.alertListeners.add(listener);
    return () => this.alertListeners.delete(listener);
  }

  status(): WatcherStatus {
    return {
      tokens: this.wanted.tokens.length,
      wallets: this.wanted.wallets.length,
      subscriptions: { ...this.subscriptionCounts },
      processed: this.counts.processed,
      events: this.counts.events,
      rows: this.counts.rows,
      stale: this.counts.stale,
      queued: this.waitingInputs() + (this.uncommitted?.inputs ?? 0),
    };
  }

  private waitingInputs(): number {
    let count = 0;
    for (const entry of this.waiting.values()) count += entry.inputs.length;
    return count;
  }

  async idle(): Promise<void> {
    while (this.running !== null || this.reads.size > 0) {
      if (this.reads.size > 0) await Promise.all([...this.reads]);
      if (this.running !== null) await this.running;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const open of this.open.values()) {
      open.stop();
      this.subscriptionCounts[open.stream] -= 1;
    }
    this.open.clear();
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await this.syncing;
    await this.idle();
  }
}

/** The key an input waits under: its target's kind and address (a holder record is its token's). */
function waitKey(input: Input): string {
  const { kind, address } = targetOf(input);
  return `${kind}|${address}`;
}

/** The token or wallet an input is about. */
function targetOf(input: Input): { kind: FollowKind; address: string } {
  if (input.type === 'token') return { kind: 'token', address: input.address };
  if (input.type === 'holder') return { kind: 'token', address: input.tokenAddress };
  return { kind: 'wallet', address: input.wallet };
}

function subKey(stream: StreamName, address: string): string {
  return `${stream}|${address}`;
}

function safely(run: () => void, logger: Logger): void {
  try {
    run();
  } catch (error) {
    logger.warn({ error: errorText(error) }, 'alert listener failed');
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
