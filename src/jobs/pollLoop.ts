/**
 * One REST poll on its own pace: `run` every `intervalMs` (from the start of one run to the next,
 * never two at once), slowed down by itself while the service says it is overwhelmed (429) or
 * failing (5xx, timeouts, unreachable): each such run doubles the pause, up to SLOWEST times the
 * interval, and the first good run brings it back. Slowing down and coming back are one log line
 * each, not one a run; `status()` says whether the poll is slowed (for /status).
 */
import { errorText, type Logger } from '../log';
import { isMarketError } from '../market/errors';

/** Failures that are not the service's load are logged at most once in this long. */
const FAILURE_LOG_MS = 60_000;

/** The most the pause grows to, as a multiple of the interval. */
export const SLOWEST = 8;

/** What a run reports: how many requests it made, and the errors of those that failed. */
export interface PollRun {
  requests: number;
  errors: unknown[];
}

export interface PollLoopStatus {
  intervalMs: number;
  /** The pause now: the interval, or more while slowed. */
  pauseMs: number;
  slowed: boolean;
  runs: number;
  requests: number;
  failures: number;
  /** Epoch ms of the last run's end; 0 before the first. */
  lastRunAt: number;
}

/** Errors that say the service is overwhelmed or failing, not that one target is wrong. */
function isBackPressure(error: unknown): boolean {
  if (!isMarketError(error)) return false;
  return error.kind === 'rate-limited' || error.kind === 'upstream' || error.kind === 'timeout' || error.kind === 'unreachable';
}

export class PollLoop {
  private factor = 1;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly counts: { runs: number; requests: number; failures: number; lastRunAt: number } = {
    runs: 0,
    requests: 0,
    failures: 0,
    lastRunAt: 0,
  };
  private failureLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<PollRun>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs now unless a run is under way; resolves when the run now (or under way) ends. */
  runNow(): Promise<void> {
    if (this.running !== null) return this.running;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.once().finally(() => {
      this.running = null;
      this.schedule(this.pauseMs());
    });
    return this.running;
  }

  status(): PollLoopStatus {
    return { intervalMs: this.intervalMs, pauseMs: this.pauseMs(), slowed: this.factor > 1, ...this.counts };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private pauseMs(): number {
    return this.intervalMs * this.factor;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runNow();
    }, delayMs);
    this.timer.unref();
  }

  private async once(): Promise<void> {
    let result: PollRun;
    try {
      result = await this.run();
    } catch (error) {
      result = { requests: 0, errors: [error] };
    }
    this.counts.runs += 1;
    this.counts.requests += result.requests;
    this.counts.failures += result.errors.length;
    this.counts.lastRunAt = this.now();
    const pressed = result.errors.find(isBackPressure);
    if (pressed !== undefined) {
      const wasSlowed = this.factor > 1;
      this.factor = Math.min(SLOWEST, this.factor * 2);
      if (!wasSlowed)
        this.logger.warn(
          { poll: this.name, pauseMs: this.pauseMs(), error: errorText(pressed) },
          'the market data service is overwhelmed or failing; this poll slows down until it answers again',
        );
    } else if (result.errors.length === 0 && this.factor > 1) {
      this.factor = 1;
      this.logger.info(
        { poll: this.name, pauseMs: this.pauseMs() },
        'the market data service answers again; this poll is back at its pace',
      );
    }
    const failed = result.errors.filter((error) => !isBackPressure(error));
    // A target the service keeps refusing fails every run: said at most once a minute, counted always.
    if (failed.length > 0 && this.counts.lastRunAt - this.failureLoggedAt >= FAILURE_LOG_MS) {
      this.failureLoggedAt = this.counts.lastRunAt;
      this.logger.warn(
        { poll: this.name, failed: failed.length, error: errorText(failed[0]) },
        'poll requests failed; retried next run (logged at most once a minute)',
      );
    }
  }
}
