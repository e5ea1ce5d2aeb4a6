/**
 * The reconciliation job: every tracked token read again over REST (token-data, at most 100
 * addresses a request, so ceil(N / 100) requests for N tokens) and every tracked wallet
 * (wallet-tracker, 50 wallets a request), handed to the watcher, which compares them with the
 * last-seen state like pushed data. A change missed while a socket was down thus still raises its
 * alert, once: the watcher processes stream and reconciliation in one queue, and an event's key
 * keeps a repeat out of the outbox.
 *
 * Wiring (src/app.ts):
 *
 *   const job = startReconcileJob({ watcher, market, cron: config.reconcileCron, logger });
 *   ...
 *   await job.stop();
 *
 * It runs at start, on the schedule (node-cron, UTC, `RECONCILE_CRON`, default every minute), and
 * after every stream reconnection (`watcher.onReconnect`). Runs never overlap: a run asked for
 * while one is going happens once, right after it.
 */
import cron, { type ScheduledTask } from 'node-cron';
import { errorText, silentLogger, type Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { Trade } from '../market/schemas';
import type { Watcher } from '../watch/watcher';

export const RECONCILE_TOKEN_BATCH = 100;
export const RECONCILE_WALLET_BATCH = 50;
export const DEFAULT_RECONCILE_CRON = '* * * * *';

export interface ReconcileDeps {
  watcher: Pick<Watcher, 'targets' | 'applyTokens' | 'applyWalletTrades' | 'onReconnect' | 'mark'>;
  market: Pick<MarketClient, 'tokenBatch' | 'walletTrades'>;
  /** A node-cron expression (5 or 6 fields), in UTC; default every minute. */
  cron?: string;
  logger?: Logger;
  /** Run once at start (default true). */
  runAtStart?: boolean;
  /** Called after each run with how long it took: the operators' reconciliation-time histogram. */
  onRun?: (seconds: number) => void;
}

export interface ReconcileResult {
  tokens: number;
  wallets: number;
  /** Upstream requests made. */
  requests: number;
  /** Requests that failed (their targets wait for the next run). */
  failures: number;
  /** Outbox rows the run added. */
  rows: number;
}

export interface ReconcileJob {
  /** Runs now (or right after the run in progress); resolves with that run's result. */
  runNow(): Promise<ReconcileResult>;
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
  /** Runs finished since start, and the outbox rows they added: changes the streams had not brought. */
  status(): { runs: number; rows: number };
}

/** One reconciliation: reads every target in batches and hands the answers to the watcher. */
export async function reconcileOnce(deps: Pick<ReconcileDeps, 'watcher' | 'market' | 'logger'>): Promise<ReconcileResult> {
  const logger = deps.logger ?? silentLogger;
  const { tokens, wallets } = deps.watcher.targets();
  const result: ReconcileResult = { tokens: tokens.length, wallets: wallets.length, requests: 0, failures: 0, rows: 0 };
  const applied: Array<Promise<number>> = [];

  const tokenBatches = chunks(tokens, RECONCILE_TOKEN_BATCH);
  await Promise.all(
    tokenBatches.map(async (batch) => {
      result.requests += 1;
      try {
        // Frames that come while the request is out keep their word over an answer of their second.
        const readSince = deps.watcher.mark();
        const found = await deps.market.tokenBatch(batch);
        applied.push(deps.watcher.applyTokens([...found.values()], readSince));
      } catch (error) {
        result.failures += 1;
        logger.warn({ tokens: batch.length, error: errorText(error) }, 'reconciliation could not read tokens; they wait for the next run');
      }
    }),
  );

  for (const batch of chunks(wallets, RECONCILE_WALLET_BATCH)) {
    result.requests += 1;
    try {
      const history = await deps.market.walletTrades(batch);
      for (const [wallet, trades] of tradesByWallet(batch, history.tradeHistory))
        applied.push(deps.watcher.applyWalletTrades(wallet, trades));
    } catch (error) {
      result.failures += 1;
      logger.warn({ wallets: batch.length, error: errorText(error) }, 'reconciliation could not read wallets; they wait for the next run');
    }
  }
  for (const rows of await Promise.all(applied)) result.rows += rows;
  return result;
}

/**
 * The trades of each asked wallet, by the trade's maker. With one wallet asked every trade is its
 * own; a trade naming no maker among several wallets cannot be placed and is left out.
 */
export function tradesByWallet(wallets: readonly string[], trades: readonly Trade[]): Map<string, Trade[]> {
  const out = new Map<string, Trade[]>();
  for (const wallet of wallets) out.set(wallet, []);
  for (const trade of trades) {
    const maker = wallets.length === 1 ? wallets[0] : trade.makerData?.address;
    if (maker === undefined) continue;
    out.get(maker)?.push(trade);
  }
  return out;
}

export function startReconcileJob(deps: ReconcileDeps): ReconcileJob {
  const logger = (deps.logger ?? silentLogger).child({ component: 'reconcile' });
  const expression = deps.cron ?? DEFAULT_RECONCILE_CRON;
  if (!cron.validate(expression)) throw new Error(`RECONCILE_CRON: "${expression}" is not a cron expression`);

  let current: Promise<ReconcileResult> | null = null;
  let again: Promise<ReconcileResult> | null = null;
  let stopped = false;
  const totals = { runs: 0, rows: 0 };

  const runOne = async (reason: string): Promise<ReconcileResult> => {
    const started = Date.now();
    const result = await reconcileOnce({ ...deps, logger });
    const ms = Date.now() - started;
    totals.runs += 1;
    totals.rows += result.rows;
    deps.onRun?.(ms / 1000);
    logger.info({ reason, ...result, ms }, 'reconciliation done');
    return result;
  };

  // No overlap: one run at a time; asks during a run fold into one run after it.
  const request = (reason: string): Promise<ReconcileResult> => {
    if (stopped) return Promise.resolve({ tokens: 0, wallets: 0, requests: 0, failures: 0, rows: 0 });
    if (current === null) {
      current = runOne(reason).finally(() => {
        current = null;
      });
      return current;
    }
    if (again === null) {
      again = current
        .catch(() => undefined)
        .then(() => {
          again = null;
          return request(reason);
        });
    }
    return again;
  };

  const fire = (reason: string): void => {
    request(reason).catch((error: unknown) => logger.error({ reason, error: errorText(error) }, 'reconciliation failed'));
  };

  const task: ScheduledTask = cron.schedule(expression, () => fire('schedule'), { timezone: 'UTC', noOverlap: true, name: 'reconcile' });
  const offReconnect = deps.watcher.onReconnect(() => fire('reconnect'));
  if (deps.runAtStart ?? true) fire('start');

  return {
    runNow: () => request('asked'),
    status: () => ({ ...totals }),
    async stop() {
      stopped = true;
      offReconnect();
      await task.stop();
      await task.destroy();
      await (again ?? current)?.catch(() => undefined);
    },
  };
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
