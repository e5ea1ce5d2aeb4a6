/**
 * Makes the market move by itself at a pace (pace.ts): ordinary trades at a steady rate, and each
 * token's surprises (surprises.ts) at its own times. Everything is scheduled on the driver's own
 * clock, simulated milliseconds since it started, and every choice comes from its own seeded
 * generator: for a seed, the same things happen at the same simulated times however fast the
 * clock runs or however late the machine's timers fire. The static market stays the same for a
 * seed whatever the driver does.
 *
 * `advance(ms)` moves the clock by hand (tests, and the time-to-first-alert measure); `start()`
 * moves it with a timer, `speed` simulated milliseconds per real one.
 */
import { Market, MarketMutationError } from './market';
import { tradesOnly, type Pace } from './pace';
import { Prng, mixSeed } from './random';
import { rememberToken, surprise, type SurpriseKind, type TokenMemory } from './surprises';

/** Ticks at most this often; higher rates make several trades per tick. */
const MIN_TICK_MS = 20;
/** And at least this often, so surprises land within a quarter of a second of their time. */
const MAX_TICK_MS = 250;
/**
 * Seconds between two launches of a new token in the vendor protocol (launches.ts), drawn evenly:
 * a token-feed subscriber hears of a new token every minute or two. Only a market that moves by
 * itself launches; a still one launches when the `launch` control says.
 */
export const LAUNCH_GAP_SECS: readonly [number, number] = [45, 120];

/** A surprise as it happened, for whoever watches the driver (tests, the measure). */
export interface DriverEvent {
  atMs: number;
  tokenAddress: string;
  kind: SurpriseKind;
}

export class MarketDriver {
  private timer: NodeJS.Timeout | null = null;
  private readonly rng: Prng;
  private readonly pace: Pace;
  private speedFactor = 1;
  /** Simulated milliseconds since the start. */
  private clockMs = 0;
  private nextTradeAtMs: number;
  /** When the next token launches (vendor protocol), from its own generator so that trades and surprises stay as they were. */
  private nextLaunchAtMs: number;
  private readonly launchRng: Prng;
  /** When each token's next surprise is due, in listing order. */
  private readonly surpriseAtMs: number[];
  private readonly memory = new Map<string, TokenMemory>();
  private readonly listeners = new Set<(event: DriverEvent) => void>();

  constructor(
    private readonly market: Market,
    pace: Pace | number,
    seed: number,
  ) {
    this.pace = typeof pace === 'number' ? tradesOnly(pace) : pace;
    this.rng = new Prng(seed);
    this.nextTradeAtMs = this.tradeGapMs();
    this.launchRng = new Prng(mixSeed(seed, 1));
    const moves = this.pace.tradesPerSecond > 0 || this.pace.surprises !== null;
    this.nextLaunchAtMs = market.protocol === 'vendor' && moves ? this.launchGapMs() : Infinity;
    const surprises = this.pace.surprises;
    // Drawn up front, in listing order: a token's first time does not depend on what others did.
    this.surpriseAtMs = market
      .tokenAddresses()
      .map(() =>
        surprises === null ? Infinity : this.rng.range(surprises.firstMinSecs, Math.max(surprises.firstMinSecs, surprises.maxSecs)) * 1000,
      );
  }

  /** Simulated milliseconds since the start. */
  elapsedMs(): number {
    return this.clockMs;
  }

  /** Simulated milliseconds per real one for the timer; tests run the clock faster to see minutes in seconds. */
  setSpeed(factor: number): void {
    if (!(Number.isFinite(factor) && factor > 0)) throw new RangeError('speed must be a positive number');
    this.speedFactor = factor;
  }

  onSurprise(listener: (event: DriverEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer || (!(this.pace.tradesPerSecond > 0) && this.pace.surprises === null)) return;
    const tickMs = Math.min(
      MAX_TICK_MS,
      Math.max(MIN_TICK_MS, this.pace.tradesPerSecond > 0 ? 1000 / this.pace.tradesPerSecond : MAX_TICK_MS),
    );
    this.timer = setInterval(() => {
      try {
        // One tick is tickMs of real time: counted, not read from a clock, so fake timers drive it exactly.
        this.advance(tickMs * this.speedFactor);
      } catch (error) {
        // A bug in one simulated change must not take the simulator down.
        process.emitWarning(`simulated market change failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, tickMs);
    // A moving market alone must not keep the process alive.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Moves the driver's clock by `ms` simulated milliseconds, doing everything due on the way, in time order. */
  advance(ms: number): void {
    const until = this.clockMs + Math.max(0, ms);
    for (;;) {
      const [token, surpriseAt] = this.nextSurprise();
      const at = Math.min(this.nextTradeAtMs, surpriseAt, this.nextLaunchAtMs);
      if (at > until) break;
      this.clockMs = at;
      if (this.nextTradeAtMs <= surpriseAt && this.nextTradeAtMs <= this.nextLaunchAtMs) {
        this.nextTradeAtMs += this.tradeGapMs();
        this.tradeOnce();
      } else if (surpriseAt <= this.nextLaunchAtMs) {
        this.surpriseAtMs[token] = at + this.surpriseGapMs();
        this.surprise(token, at);
      } else {
        this.nextLaunchAtMs += this.launchGapMs();
        this.market.launchToken();
      }
    }
    this.clockMs = until;
  }

  tradeOnce(): void {
    const tokenAddress = this.rng.pick(this.market.tokenAddresses());
    const churn = this.pace.holderChurn;
    // Without churn, exactly the draws the standalone simulator always made: its trades stay the same for a seed.
    const fresh = churn > 0 && this.rng.chance(churn);
    const wallet = fresh ? this.rng.address() : this.rng.pick(this.market.wallets());
    const amountUSD = Math.round(this.rng.logRange(10, 2000) * 100) / 100;
    const side = fresh ? 'buy' : this.rng.chance(0.5) ? 'sell' : 'buy';
    // A holder that goes sells everything: an amount far above what it holds is capped at its holding.
    const goes = side === 'sell' && churn > 0 && this.rng.chance(churn);
    try {
      this.market.executeTrade({ wallet, tokenAddress, side, amountUSD: goes ? 1e9 : amountUSD });
    } catch (error) {
      if (!(error instanceof MarketMutationError)) throw error;
      // A wallet with nothing to sell buys instead; a trade no pool can fill is skipped.
      if (error.code === 'nothing-to-sell') {
        try {
          this.market.executeTrade({ wallet, tokenAddress, side: 'buy', amountUSD });
        } catch (retry) {
          if (!(retry instanceof MarketMutationError)) throw retry;
        }
      }
    }
  }

  private surprise(index: number, atMs: number): void {
    const tokenAddress = this.market.tokenAddresses()[index];
    if (tokenAddress === undefined) return;
    let memory = this.memory.get(tokenAddress);
    if (memory === undefined) {
      const token = this.market.token(tokenAddress);
      if (token === null) return;
      memory = rememberToken(token);
      this.memory.set(tokenAddress, memory);
    }
    const kind = surprise(this.market, this.rng, tokenAddress, memory);
    if (kind === null) return;
    for (const listener of this.listeners) listener({ atMs, tokenAddress, kind });
  }

  /** The token whose surprise is due first (the lowest index among equals) and when. */
  private nextSurprise(): [number, number] {
    let best = -1;
    let at = Infinity;
    for (let i = 0; i < this.surpriseAtMs.length; i++) {
      const due = this.surpriseAtMs[i] ?? Infinity;
      if (due < at) {
        at = due;
        best = i;
      }
    }
    return [best, at];
  }

  private launchGapMs(): number {
    return this.launchRng.range(LAUNCH_GAP_SECS[0], LAUNCH_GAP_SECS[1]) * 1000;
  }

  private tradeGapMs(): number {
    return this.pace.tradesPerSecond > 0 ? 1000 / this.pace.tradesPerSecond : Infinity;
  }

  private surpriseGapMs(): number {
    const surprises = this.pace.surprises;
    return surprises === null ? Infinity : this.rng.range(surprises.minSecs, surprises.maxSecs) * 1000;
  }
}
