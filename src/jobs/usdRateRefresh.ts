/**
 * Keeps the SOL→USD rate fresh while the bot watches tokens: the watcher prices every snapshot in
 * USD with it (alerts show USD, and `/target` values are USD), and look-ups alone would leave it
 * stale on a bot nobody asks anything. Every minute (node-cron, UTC) and at start, when the rate is
 * no longer fresh, it is derived again from a followed token (two requests: its holders and their
 * trades, src/query/usdRate.ts). Runs never overlap; a failure leaves the last rate until it is stale.
 */
import cron, { type ScheduledTask } from 'node-cron';
import { errorText, silentLogger, type Logger } from '../log';
import type { MarketClient } from '../market/client';
import { freshSolUsdRate, solUsdRate } from '../query/usdRate';

export interface UsdRateRefreshDeps {
  market: MarketClient;
  /** The followed tokens (the watcher's targets): the rate is read from the first of them. */
  tokens: () => readonly string[];
  logger?: Logger;
  /** A node-cron expression, in UTC; default every minute. */
  cron?: string;
}

export interface UsdRateRefresh {
  /** Refreshes now unless the rate is fresh (or a refresh is under way, which it waits for). */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startUsdRateRefresh(deps: UsdRateRefreshDeps): UsdRateRefresh {
  const logger = deps.logger ?? silentLogger;
  let running: Promise<void> | null = null;
  const refresh = async (): Promise<void> => {
    try {
      const [token] = deps.tokens();
      if (token === undefined || freshSolUsdRate(deps.market) !== null) return;
      if ((await solUsdRate(deps.market, token)) === null)
        logger.debug({ token }, 'no SOL→USD rate could be derived; USD figures wait for one');
    } catch (error) {
      logger.warn({ error: errorText(error) }, 'could not refresh the SOL→USD rate');
    }
  };
  const runNow = (): Promise<void> => {
    if (running !== null) return running;
    const run = refresh();
    running = run;
    void run.finally(() => {
      if (running === run) running = null;
    });
    return run;
  };
  const task: ScheduledTask = cron.schedule(deps.cron ?? '* * * * *', () => void runNow(), {
    timezone: 'UTC',
    noOverlap: true,
    name: 'usd-rate',
  });
  void runNow();
  return {
    runNow,
    async stop() {
      await task.stop();
      await task.destroy();
      await running;
    },
  };
}
