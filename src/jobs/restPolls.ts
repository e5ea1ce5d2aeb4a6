/**
 * The REST polls that stand in for streams the vendor's service does not have
 * (../shared/spec/real-service.md): followed tokens' token-data (risk status, flags, pools,
 * liquidity: token-feed there is a market-wide filter feed, not a token's), batched with
 * `addresses=` up to TOKEN_DATA_MAX_ADDRESSES a request, every TOKEN_POLL_INTERVAL; and followed
 * wallets' wallet-tracker (there is no wallet stream), RECONCILE_WALLET_BATCH wallets a request,
 * every WALLET_POLL_INTERVAL. Both hand their answers to the watcher as a reconciliation does, so
 * a change seen by a poll, the streams or the reconciliation is told once.
 *
 * They run only while the service speaks the vendor's protocol (`active`); on the spec's reading
 * the streams carry all of it. They ask through the market client, so its limiter shares the REST
 * budget between them and the look-ups; each slows down by itself on 429 and 5xx (pollLoop.ts).
 */
import { silentLogger, type Logger } from '../log';
import { TOKEN_DATA_MAX_ADDRESSES, type MarketClient } from '../market/client';
import { isMarketError } from '../market/errors';
import type { Watcher } from '../watch/watcher';
import { PollLoop, type PollLoopStatus, type PollRun } from './pollLoop';
import { RECONCILE_WALLET_BATCH, chunks, tradesByWallet } from './reconcile';

export interface RestPollsDeps {
  watcher: Pick<Watcher, 'targets' | 'applyTokens' | 'applyWalletTrades' | 'mark'>;
  market: Pick<MarketClient, 'tokenBatch' | 'freshWalletTrades'>;
  tokenIntervalMs: number;
  walletIntervalMs: number;
  /** Whether the polls are needed now: the service speaks the vendor's protocol. Read at each run. */
  active: () => boolean;
  logger?: Logger;
  /** Called after each run with the outbox rows it added. */
  onRows?: (rows: number) => void;
}

export interface RestPollsStatus {
  active: boolean;
  tokens: PollLoopStatus;
  wallets: PollLoopStatus;
}

export interface RestPolls {
  status(): RestPollsStatus;
  /** Runs both polls now (tests, and after the protocol is learnt); resolves once both ended. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Reads one batch of tokens and hands them to the watcher. An answer the client refuses as
 * unreadable (past its size limit: a recorded token with 46 pools is 475 KB, so 100 such tokens
 * pass any sane limit) is asked again in two halves, down to one token, so that one token's size
 * never keeps the others of its batch unpolled.
 */
async function pollTokenBatch(
  deps: Pick<RestPollsDeps, 'watcher' | 'market'>,
  batch: string[],
  run: PollRun & { rows: number },
): Promise<void> {
  run.requests += 1;
  try {
    // Frames that come while the request is out keep their word over an answer of their second.
    const readSince = deps.watcher.mark();
    const found = await deps.market.tokenBatch(batch);
    run.rows += await deps.watcher.applyTokens([...found.values()], readSince);
  } catch (error) {
    if (batch.length > 1 && isMarketError(error) && error.kind === 'unreadable') {
      const half = Math.ceil(batch.length / 2);
      await Promise.all([pollTokenBatch(deps, batch.slice(0, half), run), pollTokenBatch(deps, batch.slice(half), run)]);
    } else run.errors.push(error);
  }
}

/** One poll of every followed token's token-data. */
export async function pollTokens(deps: Pick<RestPollsDeps, 'watcher' | 'market'>): Promise<PollRun & { rows: number }> {
  const run = { requests: 0, errors: [] as unknown[], rows: 0 };
  await Promise.all(chunks(deps.watcher.targets().tokens, TOKEN_DATA_MAX_ADDRESSES).map((batch) => pollTokenBatch(deps, batch, run)));
  return run;
}

/** One poll of every followed wallet's trades. */
export async function pollWallets(deps: Pick<RestPollsDeps, 'watcher' | 'market'>): Promise<PollRun & { rows: number }> {
  const run = { requests: 0, errors: [] as unknown[], rows: 0 };
  for (const batch of chunks(deps.watcher.targets().wallets, RECONCILE_WALLET_BATCH)) {
    run.requests += 1;
    try {
      const history = await deps.market.freshWalletTrades(batch);
      const applied = [...tradesByWallet(batch, history.tradeHistory)].map(([wallet, trades]) =>
        deps.watcher.applyWalletTrades(wallet, trades),
      );
      for (const rows of await Promise.all(applied)) run.rows += rows;
    } catch (error) {
      run.errors.push(error);
    }
  }
  return run;
}

export function startRestPolls(deps: RestPollsDeps): RestPolls {
  const logger = (deps.logger ?? silentLogger).child({ component: 'polls' });
  const loop = (name: string, intervalMs: number, poll: typeof pollTokens): PollLoop =>
    new PollLoop(
      name,
      intervalMs,
      async () => {
        if (!deps.active()) return { requests: 0, errors: [] };
        const run = await poll(deps);
        if (run.rows > 0) deps.onRows?.(run.rows);
        return run;
      },
      logger,
    );
  const tokens = loop('token-data', deps.tokenIntervalMs, pollTokens);
  const wallets = loop('wallet-tracker', deps.walletIntervalMs, pollWallets);
  tokens.start();
  wallets.start();
  return {
    status: () => ({ active: deps.active(), tokens: tokens.status(), wallets: wallets.status() }),
    runNow: async () => {
      await Promise.all([tokens.runNow(), wallets.runNow()]);
    },
    stop: async () => {
      await Promise.all([tokens.stop(), wallets.stop()]);
    },
  };
}
