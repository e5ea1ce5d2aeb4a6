/**
 * The app's stops in one list. Each part registers its stop once, under its name in LAYERS; the
 * stop runs LAYERS from the top down, whatever order the parts started in. The order is fixed here
 * rather than by when each part happens to start, because some parts start before the ones they
 * must outlive: the chats take commands before the reconciliation exists, yet stop first (no new
 * commands), and delivery starts after the watcher yet stops after it (the watcher's last alerts
 * reach the outbox and are kept for the next start).
 */
import type { Logger } from '../log';

/** From the bottom up: each layer is stopped after every layer above it. */
export const LAYERS = [
  'simulator',
  'store',
  'marketClient',
  'streams',
  // Sends under way finish and are recorded; one cut short by the timeout goes out again at the next start.
  'delivery',
  'walletClusters',
  'alertHook',
  // The watcher commits what it holds; delivery, below it, stops after it.
  'watcher',
  'callPeaks',
  'digests',
  'usdRate',
  'reconciliation',
  // The vendor protocol's REST polls, beside the reconciliation: both hand answers to the watcher.
  'polls',
  // No new commands; answers under way finish.
  'chats',
  // The leases given back first: the other processes take this one's share at once.
  'cluster',
  'ops',
] as const;

export type Layer = (typeof LAYERS)[number];

/**
 * How long a stop may take. `drains` (work under way finishing) share one deadline, SHUTDOWN_TIMEOUT
 * after the stop began; a close has SHUTDOWN_TIMEOUT of its own, so the closes run even when the
 * draining used all the time.
 */
export type StopBound = 'drains' | 'closes';

interface Stop {
  run: () => Promise<unknown> | undefined;
  bound: StopBound;
}

/** Runs `steps` in order, each even when one before it failed; the first failure is thrown at the end. */
async function closeAll(steps: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  let first: unknown = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== null) throw first;
}

/** Whether `work` ended before `deadline` (epoch ms), or throws its failure; past the deadline it goes on unawaited. */
async function settledBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export class Lifecycle {
  private readonly stops = new Map<Layer, Stop>();

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Registers the stop of the part at `layer`; a second registration of one layer is a wiring mistake. */
  onStop(layer: Layer, run: () => Promise<unknown> | undefined, bound: StopBound = 'closes'): void {
    if (this.stops.has(layer)) throw new Error(`the stop of ${layer} is registered twice`);
    this.stops.set(layer, { run, bound });
  }

  /** Stops every registered part from the top layer down; a stop past its bound is logged and left running. */
  async stop(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    const steps = [...LAYERS].reverse().flatMap((layer) => {
      const stop = this.stops.get(layer);
      return stop === undefined ? [] : [() => this.bounded(layer, stop, deadline)];
    });
    await closeAll(steps);
  }

  private async bounded(layer: Layer, stop: Stop, deadline: number): Promise<void> {
    const by = stop.bound === 'drains' ? deadline : Date.now() + this.timeoutMs;
    if (!(await settledBy(Promise.resolve(stop.run()), by))) {
      this.logger.warn({ step: layer, timeoutMs: this.timeoutMs }, 'shutdown timeout reached; closing the rest anyway');
    }
  }
}
