/**
 * A client-side rate limiter for one endpoint, so that the bot itself never draws a 429.
 *
 * It is a sliding window in which a permit occupies its slot from the moment it is granted until
 * `windowMs` (plus a safety margin) after its response arrived. The service stamps a request
 * somewhere between those two moments, however long it waited in the connection pool, so no
 * window of the service's can ever hold more than `limit` of our requests. Waiters are served
 * strictly first come, first served, and sleep on a single timer set for the moment the oldest
 * slot frees (or on the release of an in-flight permit): there is no polling.
 *
 * The service's own word is taken too. `observe` takes its rate-limit headers: with `remaining`
 * calls left until its window resets, the limiter grants at most `remaining` minus the requests
 * still in flight (which the service may not have counted yet) before the reset, so other users
 * of the same key are accounted for, and `remaining: 0` holds everything until the reset.
 * `holdFor` (a Retry-After) stops every grant for a while. A caller whose estimated wait exceeds
 * `maxWaitMs` is refused at once with a rate-limited error that carries the wait, rather than
 * kept hanging.
 */
import { systemClock, type Clock, type Timer } from './clock';
import type { EndpointName } from './endpoints';
import { MarketError } from './errors';

/** A request budget: at most `limit` requests in any `windowMs`. The one definition, also read by src/config.ts. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface LimiterOptions {
  /** Null: no request budget, only the service's pauses are honoured. */
  rate: RateLimit | null;
  maxWaitMs: number;
  /** Extra time a slot stays occupied, for clock skew and the service's own rounding. */
  marginMs?: number;
  now?: () => number;
  /** Timers (and the time, unless `now` is given); the system's by default. */
  clock?: Clock;
}

/** Releases a permit; call once, when the response (or the failure) arrived. */
export type Release = () => void;

interface Waiter {
  resolve: (release: Release) => void;
  reject: (error: MarketError) => void;
}

/** Reset times closer than this are taken as the same window of the service's (its resets are whole seconds). */
const SAME_WINDOW_MS = 1_000;

/** A margin of 2 % of the window, at least 25 ms and at most 1 s. */
export function defaultMarginMs(windowMs: number): number {
  return Math.min(1000, Math.max(25, Math.round(windowMs * 0.02)));
}

export class Limiter {
  /** The budget this limiter keeps, as given; null when it keeps none. */
  readonly rate: RateLimit | null;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly marginMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly clock: Clock;
  private inFlight = 0;
  /** When each released slot frees, ascending (slots are released in time order). */
  private readonly freesAt: number[] = [];
  private readonly queue: Waiter[] = [];
  private heldUntil = 0;
  /** What the service said is left of its window, less the grants made since. */
  private serverBudget: { left: number; until: number } | null = null;
  private timer: Timer | null = null;
  private closed = false;

  constructor(
    readonly endpoint: EndpointName,
    options: LimiterOptions,
  ) {
    this.rate = options.rate;
    this.limit = options.rate?.limit ?? Number.POSITIVE_INFINITY;
    this.windowMs = options.rate?.windowMs ?? 0;
    this.marginMs = options.marginMs ?? defaultMarginMs(options.rate?.windowMs ?? 0);
    this.maxWaitMs = options.maxWaitMs;
    this.clock = options.clock ?? systemClock;
    this.now = options.now ?? (options.clock ? () => this.clock.now() : () => performance.now());
  }

  /** Callers queued behind the budget or a pause. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a permit in arrival order; rejects at once when the wait would exceed maxWaitMs. */
  acquire(): Promise<Release> {
    if (this.closed) return Promise.reject(this.closedError());
    const now = this.now();
    this.prune(now);
    if (this.queue.length === 0 && this.canGrant(now)) return Promise.resolve(this.grant());
    const wait = this.estimateWait(now, this.queue.length);
    if (wait > this.maxWaitMs) return Promise.reject(this.busyError(wait));
    return new Promise<Release>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.schedule(now);
    });
  }

  /** Grants nothing until `ms` from now (the service asked for a pause). */
  holdFor(ms: number): void {
    if (this.closed || ms <= 0) return;
    this.heldUntil = Math.max(this.heldUntil, this.now() + ms + this.marginMs);
    this.pauseChanged();
  }

  /**
   * Takes the service's rate-limit headers: `remaining` calls left in a window that resets in
   * `resetInMs`. Answers arrive out of order, so within one window the lowest count wins; a
   * reset clearly later than the known one opens a new window.
   */
  observe(remaining: number, resetInMs: number): void {
    if (this.closed || resetInMs <= 0) return;
    const now = this.now();
    const until = now + resetInMs + this.marginMs;
    const left = remaining - this.inFlight;
    const known = this.serverBudget;
    if (known !== null && now < known.until && until < known.until + SAME_WINDOW_MS) {
      known.left = Math.min(known.left, left);
      known.until = Math.max(known.until, until);
    } else {
      this.serverBudget = { left, until };
    }
    this.pauseChanged();
  }

  private pauseChanged(): void {
    const now = this.now();
    const wait = this.pausedUntil(now) - now;
    if (wait > this.maxWaitMs) {
      // Nobody should wait that long: the queued callers are answered now, with the wait.
      for (const waiter of this.queue.splice(0)) waiter.reject(this.busyError(wait));
    }
    this.pump();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.queue.splice(0)) waiter.reject(this.closedError());
  }

  private canGrant(now: number): boolean {
    return now >= this.pausedUntil(now) && this.inFlight + this.freesAt.length < this.limit;
  }

  /** The end of a pause asked by the service (Retry-After, or its window spent); 0 when none. */
  private pausedUntil(now: number): number {
    const budget = this.serverBudget;
    if (budget !== null && now >= budget.until) this.serverBudget = null;
    else if (budget !== null && budget.left <= 0) return Math.max(this.heldUntil, budget.until);
    return this.heldUntil;
  }

  private grant(): Release {
    this.inFlight += 1;
    if (this.serverBudget !== null) this.serverBudget.left -= 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      if (Number.isFinite(this.limit)) this.freesAt.push(this.now() + this.windowMs + this.marginMs);
      this.pump();
    };
  }

  private prune(now: number): void {
    while (this.freesAt.length > 0 && (this.freesAt[0] ?? 0) <= now) this.freesAt.shift();
  }

  private pump(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    const now = this.now();
    this.prune(now);
    while (this.queue.length > 0 && this.canGrant(now)) {
      const waiter = this.queue.shift();
      waiter?.resolve(this.grant());
    }
    this.schedule(now);
  }

  /** Sets the one timer for the next moment a queued caller could be served. */
  private schedule(now: number): void {
    if (this.queue.length === 0 || this.timer !== null) return;
    let at: number | null = null;
    const paused = this.pausedUntil(now);
    if (now < paused) at = paused;
    else if (this.freesAt.length > 0 && this.inFlight + this.freesAt.length >= this.limit) at = this.freesAt[0] ?? null;
    // Otherwise every slot is held by an in-flight request, whose release calls pump().
    if (at === null) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }

  /**
   * How long the caller at `position` in the queue would wait: in-flight permits are assumed to
   * complete now, and a caller beyond the whole budget waits whole windows more.
   */
  private estimateWait(now: number, position: number): number {
    const hold = Math.max(0, this.pausedUntil(now) - now);
    if (!Number.isFinite(this.limit)) return hold;
    const free = this.limit - this.inFlight - this.freesAt.length;
    const beyond = position - free;
    if (beyond < 0) return hold;
    const slotMs = this.windowMs + this.marginMs;
    const round = Math.floor(beyond / this.limit);
    const index = beyond % this.limit;
    const firstFree = index < this.freesAt.length ? (this.freesAt[index] ?? now) - now : slotMs;
    return Math.max(hold, firstFree + round * slotMs);
  }

  private busyError(waitMs: number): MarketError {
    const retryAfterMs = Math.ceil(waitMs);
    return new MarketError({
      kind: 'rate-limited',
      endpoint: this.endpoint,
      retryAfterMs,
      message: `the client-side limit would make this call wait ${retryAfterMs} ms`,
      // The bot's own budget, named so that the answer says it is the bot's limit, not the service's.
      details: {
        source: 'client-limiter',
        waitMs: retryAfterMs,
        queued: this.queue.length,
        ...(this.rate === null ? {} : { limit: this.rate.limit, windowMs: this.rate.windowMs }),
      },
    });
  }

  private closedError(): MarketError {
    return new MarketError({ kind: 'unreachable', endpoint: this.endpoint, message: 'the client was closed', details: { closed: true } });
  }
}
