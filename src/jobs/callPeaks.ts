/**
 * The peak job (docs/calls.md): reads each call's peak since it was made from chart-history candle
 * highs, young calls often and old ones rarely (every 5 minutes in the first day, hourly to 7 days,
 * daily to 30 days, then never), and tells a chat when a call first reaches a milestone.
 *
 * - Batched: the due calls of one token (in any number of chats) share one request, from the
 *   earliest point any of them still needs; each run makes at most its share of requests, the
 *   longest overdue first, so the look-ups keep the rest of the service's capacity.
 * - A candle counts only when it starts at or after the call: a candle that holds the call holds
 *   prices from before it too. Its high counts, never a close or one trade.
 * - A peak and the milestone alerts it makes are written in one transaction (recordPeaks), so a
 *   milestone is told once through restarts; the event key names the calls and milestones too.
 * - A token the service no longer knows (or that stopped trading) keeps its call and its peak.
 * - Several processes: the job runs where the `calls:peaks` lease is held (`active`), and its
 *   writes are fenced by that lease (`fence`): a process that stalled past its lease writes nothing,
 *   so a milestone the next holder tells is not told twice under two different groupings.
 */
import { createHash } from 'node:crypto';
import { errorText, silentLogger, type Logger } from '../log';
import { isLeaseLost, type CommitFence } from '../store/leaseLost';
import type { ChartOptions } from '../market/client';
import type { Candle } from '../market/schemas';
import type { CallMilestone, CallMilestoneEvent } from '../alerts/kinds/callMilestone';
import type { Call, CallRepository, PeakUpdate } from '../store/calls';
import { chatKey } from '../model/chat';
import type { TokenSnapshot } from '../model/snapshot';
import { intervalFor } from '../cards/callWindow';

export { intervalFor };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The schedule: [age below, check every]. Past the last age a call is no longer read. */
export const CHECK_SCHEDULE: ReadonlyArray<readonly [number, number]> = [
  [DAY_MS, 5 * MINUTE_MS],
  [7 * DAY_MS, HOUR_MS],
  [30 * DAY_MS, DAY_MS],
];

export const DEFAULT_MILESTONES: readonly number[] = [2, 5, 10, 25, 50, 100];
/**
 * chart-history requests a minute: a third of the 100 a minute the service allows on its limited
 * endpoint, as a share for work nobody waits on.
 */
export const DEFAULT_PEAK_REQUESTS_PER_MINUTE = 30;
/** Active calls looked at for a live price past their next milestone, the soonest due first. */
const LIVE_SCAN = 5_000;
/** A call hurried by a live price is read at most this often: its candle may not be out yet. */
const HURRY_AGAIN_MS = MINUTE_MS;
/** How often the job wakes. */
export const PEAK_TICK_MS = 20_000;

/** When a call made at `calledAt` is read next after a read at `now`; null: never again. */
export function nextCheck(calledAt: Date, now: Date): Date | null {
  const ageMs = now.getTime() - calledAt.getTime();
  for (const [below, every] of CHECK_SCHEDULE) if (ageMs < below) return new Date(now.getTime() + every);
  return null;
}

/** The highest milestone at or below `multiple`, if above `told`; null when none is new. */
export function newMilestone(multiple: number, told: number, milestones: readonly number[]): number | null {
  let reached: number | null = null;
  for (const milestone of milestones)
    if (milestone <= multiple && milestone > told && (reached === null || milestone > reached)) reached = milestone;
  return reached;
}

/**
 * A call's state after reading `candles` (oldest first) at `now`: the peak from the closes of
 * candles that start at or after the call and traded (volume above 0). A close is where a candle's
 * trading ended: one buy and sell on a thin pool leaves a wick in the high, not in the close, so a
 * peak cannot be bought with a round trip (docs/calls.md).
 */
export function peakAfter(call: Call, candles: readonly Candle[], now: Date): Omit<PeakUpdate, 'toldMultiple'> {
  const callSecs = Math.ceil(call.calledAt.getTime() / 1000);
  let { peakSol, peakAt, lastSol, lastAt, checkedTo } = call;
  for (const candle of candles) {
    const start = Math.floor(candle.timestamp / 1000);
    if (start < callSecs) continue;
    if (Number.isFinite(candle.close) && candle.volume > 0 && candle.close > peakSol) {
      peakSol = candle.close;
      peakAt = new Date(candle.timestamp);
    }
    if (Number.isFinite(candle.close) && candle.timestamp >= lastAt.getTime()) {
      lastSol = candle.close;
      lastAt = new Date(candle.timestamp);
    }
    // The newest candle may be still open: it is read again next time.
    checkedTo = Math.max(checkedTo, start);
  }
  return { id: call.id, peakSol, peakAt, lastSol, lastAt, checkedTo, nextCheckAt: nextCheck(call.calledAt, now) };
}

export interface CallPeaksDeps {
  calls: CallRepository;
  market: { chart(base: string, options?: ChartOptions): Promise<Candle[]> };
  now: () => Date;
  logger?: Logger;
  /** Ascending multiples (CALL_MILESTONES). */
  milestones?: readonly number[];
  /** chart-history requests a minute at most (CALL_PEAK_REQUESTS_PER_MINUTE). */
  requestsPerMinute?: number;
  /** Milestone rows were written: delivery drains. */
  onWritten?: () => void;
  /** Whether this process runs the job now (several processes: its lease); absent, always. */
  active?: () => boolean;
  /** The lease a run's writes must still hold when they commit, taken when the run begins; absent, none. */
  fence?: () => CommitFence;
  /**
   * The watcher's last-seen state of followed tokens (the live streams'): a call whose token's live
   * price reached its next milestone is read at once instead of at its slot. Candles still decide.
   */
  live?: { tokens(addresses: string[]): Promise<Map<string, Pick<TokenSnapshot, 'priceNative'>>> };
}

export interface RunFigures {
  calls: number;
  requests: number;
  milestones: number;
}

export class CallPeaks {
  private readonly milestones: readonly number[];
  private readonly perRun: number;
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RunFigures> | null = null;
  /** chart-history requests made, for the bench and /metrics. */
  requests = 0;

  constructor(private readonly deps: CallPeaksDeps) {
    this.milestones = [...(deps.milestones ?? DEFAULT_MILESTONES)].sort((a, b) => a - b);
    // The minute's share spread over the ticks in it, so that no tick spends the minute at once.
    this.perRun = Math.max(1, Math.floor(((deps.requestsPerMinute ?? DEFAULT_PEAK_REQUESTS_PER_MINUTE) * PEAK_TICK_MS) / MINUTE_MS));
    this.logger = (deps.logger ?? silentLogger).child({ component: 'call-peaks' });
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      if (this.deps.active === undefined || this.deps.active())
        void this.runOnce().catch((error: unknown) => {
          // The lease moved on during the run: the new holder reads the same calls; nothing was written.
          if (isLeaseLost(error))
            this.logger.info({ error: errorText(error) }, 'call peaks run dropped: the lease moved to another process');
          else this.logger.warn({ error: errorText(error) }, 'call peaks run failed');
        });
    }, PEAK_TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /**
   * One run: the due calls, their tokens' candles (within the run's share of requests), peaks and
   * milestones written. Runs never overlap.
   */
  runOnce(): Promise<RunFigures> {
    if (this.running !== null) return this.running;
    const run = this.run().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async run(): Promise<RunFigures> {
    const now = this.deps.now();
    // Taken before anything is read: a lease lost and taken back during the run has a new epoch.
    const fence = this.deps.fence?.();
    // Several calls of a token share a request: more calls than requests are read per run.
    const due = [...(await this.hurried(now)), ...(await this.deps.calls.due(now, this.perRun * 20))];
    const byToken = new Map<string, Call[]>();
    const seen = new Set<number>();
    for (const call of due) {
      if (seen.has(call.id)) continue;
      seen.add(call.id);
      const group = byToken.get(call.address);
      if (group !== undefined) group.push(call);
      else if (byToken.size < this.perRun) byToken.set(call.address, [call]);
    }
    const updates: PeakUpdate[] = [];
    const reached: Array<{ call: Call; milestone: number; multiple: number }> = [];
    let requests = 0;
    for (const [address, calls] of byToken) {
      const candles = await this.candles(address, calls, now);
      requests += 1;
      for (const call of calls) {
        if (candles === null) {
          // Unreadable now: the call keeps its peak and is tried at its next slot, not at every tick.
          updates.push({
            id: call.id,
            peakSol: call.peakSol,
            peakAt: call.peakAt,
            lastSol: call.lastSol,
            lastAt: call.lastAt,
            checkedTo: call.checkedTo,
            nextCheckAt: nextCheck(call.calledAt, now),
            toldMultiple: call.toldMultiple,
          });
          continue;
        }
        const peak = peakAfter(call, candles, now);
        const multiple = peak.peakSol / call.priceSol;
        const milestone = newMilestone(multiple, call.toldMultiple, this.milestones);
        updates.push({ ...peak, toldMultiple: milestone ?? call.toldMultiple });
        if (milestone !== null) reached.push({ call, milestone, multiple });
      }
    }
    this.requests += requests;
    const alerts = milestoneAlerts(reached, now);
    const added = updates.length === 0 ? 0 : await this.deps.calls.recordPeaks(updates, alerts, now, fence);
    if (added > 0) this.deps.onWritten?.();
    if (updates.length > 0) this.logger.debug({ calls: updates.length, requests, milestones: reached.length }, 'call peaks read');
    return { calls: updates.length, requests, milestones: reached.length };
  }

  /** Calls not due yet whose token's live price reached their next milestone: read now, first. */
  private async hurried(now: Date): Promise<Call[]> {
    if (this.deps.live === undefined) return [];
    const active = (await this.deps.calls.active(LIVE_SCAN)).filter(
      (call) => call.nextCheckAt !== null && call.nextCheckAt > now && now.getTime() - call.checkedTo * 1000 >= HURRY_AGAIN_MS,
    );
    if (active.length === 0) return [];
    const live = await this.deps.live.tokens([...new Set(active.map((call) => call.address))]);
    return active.filter((call) => {
      const priceNow = live.get(call.address)?.priceNative ?? null;
      const next = this.milestones.find((milestone) => milestone > call.toldMultiple);
      return priceNow !== null && next !== undefined && priceNow >= next * call.priceSol;
    });
  }

  /** The token's candles covering every call of it still to read; null when they cannot be read now. */
  private async candles(address: string, calls: readonly Call[], now: Date): Promise<Candle[] | null> {
    const nowSecs = Math.floor(now.getTime() / 1000);
    const from = Math.min(...calls.map((call) => Math.max(call.checkedTo, Math.floor(call.calledAt.getTime() / 1000))));
    const intervalSecs = intervalFor(Math.max(1, nowSecs - from));
    try {
      return await this.deps.market.chart(address, { from: Math.floor(from / intervalSecs) * intervalSecs, to: nowSecs, intervalSecs });
    } catch (error) {
      // A dead token (unknown now) or a passing failure: its calls keep their peaks.
      this.logger.debug({ address, error: errorText(error) }, 'call candles not read');
      return null;
    }
  }
}

/** The milestones of one run, one event per chat, highest multiple first; keyed by the calls and milestones it tells. */
export function milestoneAlerts(
  reached: ReadonlyArray<{ call: Call; milestone: number; multiple: number }>,
  now: Date,
): Array<{ event: CallMilestoneEvent; to: Array<{ chat: Call['chat']; label: null }> }> {
  const byChat = new Map<string, Array<{ call: Call; milestone: number; multiple: number }>>();
  for (const entry of reached) {
    const key = chatKey({ ...entry.call.chat, threadId: null });
    byChat.set(key, [...(byChat.get(key) ?? []), entry]);
  }
  const alerts: Array<{ event: CallMilestoneEvent; to: Array<{ chat: Call['chat']; label: null }> }> = [];
  for (const entries of byChat.values()) {
    entries.sort((a, b) => b.multiple - a.multiple);
    const [first] = entries;
    if (first === undefined) continue;
    const told = entries.map(({ call, milestone }) => `${call.id}x${milestone}`).join(',');
    const calls: CallMilestone[] = entries.map(({ call, milestone, multiple }) => ({
      callId: call.id,
      address: call.address,
      symbol: call.symbol,
      name: call.name,
      userName: call.userName,
      calledAt: call.calledAt.getTime(),
      milestone,
      multiple,
      entryMcapUsd: call.mcapUsd,
      entryMcapSol: call.mcapSol,
      messageId: call.messageId,
    }));
    const event: CallMilestoneEvent = {
      kind: 'call-milestone',
      key: `call-milestone:${createHash('sha256').update(told).digest('hex').slice(0, 32)}`,
      at: now.getTime(),
      token: { address: first.call.address, symbol: first.call.symbol, name: first.call.name },
      calls,
    };
    // To the thread of the call replied to: the reply lands beside its message.
    alerts.push({ event, to: [{ chat: first.call.chat, label: null }] });
  }
  return alerts;
}
