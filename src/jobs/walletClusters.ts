/**
 * Wallets moving together: after the watcher writes alerts, each chat with a cluster setting
 * (`/track cluster N WINDOW`) has the trades it was told of within its window read back from the
 * outbox and checked (findClusters, src/alerts/walletCluster.ts); a cluster found is written to the
 * outbox for that chat, where its key makes it one alert however often it is found again. Reading
 * what the outbox holds, rather than keeping trades in memory, is what lets a restart forget
 * nothing. Runs never overlap: alerts written during a run bring one more run after it.
 */
import { findClusters, type TradeTold } from '../alerts/walletCluster';
import { errorText, silentLogger, type Logger } from '../log';
import type { WalletTradeEvent } from '../model/events';
import type { AlertDelivery } from '../model/follow';
import type { AlertTold, Store } from '../store/store';

/** Trades read per chat and run: far more than a window of a chat's followed wallets tells. */
const TRADES_READ = 2_000;

export interface WalletClustersDeps {
  store: Pick<Store, 'chats' | 'outbox'>;
  now: () => Date;
  logger?: Logger;
  /** Rows were written: delivery wakes. */
  onWritten?: () => void;
}

export interface WalletClusters {
  /** Checks every chat with a setting now (or after the run under way); resolves with the rows written. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

function isTrade(told: AlertTold): told is AlertTold & { event: WalletTradeEvent } {
  return told.event.kind === 'wallet-trade';
}

export function createWalletClusters(deps: WalletClustersDeps): WalletClusters {
  const logger = deps.logger ?? silentLogger;
  let running: Promise<number> | null = null;
  let again: Promise<number> | null = null;
  let stopped = false;

  const check = async (): Promise<number> => {
    let written = 0;
    const now = deps.now();
    for (const { chat, cluster } of await deps.store.chats.clusters()) {
      if (stopped) break;
      const trades = (
        await deps.store.outbox.toldSince(chat, 'wallet-trade', new Date(now.getTime() - cluster.windowSecs * 1000), TRADES_READ)
      ).filter(isTrade);
      const found = findClusters(
        trades.map((trade): TradeTold => ({ event: trade.event, label: trade.label })),
        cluster,
        now.getTime(),
      );
      if (found.length === 0) continue;
      // Each cluster goes where the chat was last told of that token's trades on that side (its thread).
      const whereTold = new Map<string, AlertDelivery>();
      for (const trade of trades) whereTold.set(`${trade.event.side}:${trade.event.token.address}`, { chat: trade.chat, label: null });
      const alerts = found.flatMap((event) => {
        const to = whereTold.get(`${event.side}:${event.token.address}`);
        return to === undefined ? [] : [{ event, to: [to] }];
      });
      written += await deps.store.outbox.add(alerts, now);
    }
    if (written > 0) deps.onWritten?.();
    return written;
  };

  const guarded = async (): Promise<number> => {
    try {
      return await check();
    } catch (error) {
      logger.warn({ error: errorText(error) }, 'could not check for wallets moving together');
      return 0;
    }
  };

  const runNow = (): Promise<number> => {
    if (running === null) {
      const run = guarded();
      running = run;
      void run.finally(() => {
        if (running === run) running = null;
      });
      return run;
    }
    // One more run after the one under way covers every alert written meanwhile.
    if (again === null) {
      const after = running.then(() => {
        again = null;
        return runNow();
      });
      again = after;
    }
    return again;
  };

  return {
    runNow,
    async stop() {
      stopped = true;
      await running;
      await again;
    },
  };
}
