/**
 * The vendor protocol's REST polls (src/jobs/restPolls.ts) at their default pace, 15 s, over
 * 1,000 followed tokens and 1,000 followed wallets, against the replay of the vendor's service
 * (test/support/vendorService.ts) on 127.0.0.1, with the bot's own parts as it composes them: the
 * market client, the stream client on the vendor's protocol, the watcher, a SQLite store.
 *
 * - `poll_requests_per_hour`: the requests one run of each poll makes, counted at the replay,
 *   times the runs an hour holds at the default intervals.
 * - `poll_alert_latency_s`: risk changes made only on REST (token-data; no stream says them), at
 *   random moments over two minutes, each timed from the change at the replay to its outbox row
 *   (the row's creation time): median and p95. The poll's interval bounds it (a change waits for
 *   the next run, 0–15 s, 7.5 s on average), plus one request and one commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECONCILE_WALLET_BATCH } from '../src/jobs/reconcile';
import { startRestPolls } from '../src/jobs/restPolls';
import { silentLogger } from '../src/log';
import { MarketClient, TOKEN_DATA_MAX_ADDRESSES } from '../src/market/client';
import { StreamClient } from '../src/market/stream';
import type { ChatRef } from '../src/model/chat';
import { openSqliteStore } from '../src/store/sqliteStore';
import { createWatcher } from '../src/watch/watcher';
import { addressFor, makeToken, startVendorService } from '../test/support/vendorService';
import { recordResult } from './results';
import type { Row } from './section';

const KEY = 'bench-polls-key';
const TOKENS = 1_000;
const WALLETS = 1_000;
const INTERVAL_MS = 15_000;
const CHANGES = 40;
const SPREAD_MS = 120_000;
const HOUR_MS = 3_600_000;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function benchPolls(): Promise<Row[]> {
  const service = await startVendorService({ apiKey: KEY });
  const tokens = Array.from({ length: TOKENS }, (_, index) => addressFor(`bench-polls:token:${index}`));
  const wallets = Array.from({ length: WALLETS }, (_, index) => addressFor(`bench-polls:wallet:${index}`));
  for (const [index, address] of tokens.entries())
    service.addToken(makeToken({ address, symbol: `P${index}`, priceSol: 0.001, riskStatus: 'WARNING' }));
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-bench-polls-'));
  const store = openSqliteStore(join(dir, 'polls.db'));
  const market = new MarketClient({ baseUrl: service.baseUrl, apiKey: KEY, logger: silentLogger, cacheTtlMs: { 'token-data': 0 } });
  const streams = new StreamClient({ wsUrl: service.wsUrl, apiKey: KEY, protocol: 'vendor', subscriptionsPerSocket: 'auto' });
  const chat: ChatRef = { platform: 'telegram', chatId: '-100500', threadId: null, scopeId: null };
  const now = new Date();
  const options = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' as const };
  for (const address of tokens) await store.follows.upsert({ chat, kind: 'token', address, label: null, options, addedBy: 'u', now });
  for (const address of wallets) await store.follows.upsert({ chat, kind: 'wallet', address, label: null, options, addedBy: 'u', now });
  const watcher = createWatcher({ store, streams, logger: silentLogger, protocol: () => 'vendor' });
  await watcher.start();
  const polls = startRestPolls({
    watcher,
    market,
    tokenIntervalMs: INTERVAL_MS,
    walletIntervalMs: INTERVAL_MS,
    active: () => true,
    logger: silentLogger,
  });
  try {
    // The first run of each poll is every target's baseline; its requests are one run's worth.
    const before = service.requests.length;
    await until(async () => (await store.state.tokens(tokens)).size === TOKENS, 120_000);
    await until(() => polls.status().wallets.runs >= 1 && polls.status().tokens.runs >= 1, 120_000);
    const firstRun = service.requests.slice(before);
    const tokenRequests = firstRun.filter((request) => request.path === '/api/token-data').length;
    const walletRequests = firstRun.filter((request) => request.path === '/api/wallet-tracker').length;
    const perHour = (tokenRequests + walletRequests) * (HOUR_MS / INTERVAL_MS);

    // Risk changes only REST shows, at random moments over SPREAD_MS.
    const changedAt = new Map<string, number>();
    const picked = [...tokens].sort(() => Math.random() - 0.5).slice(0, CHANGES);
    await Promise.all(
      picked.map(
        (address) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              changedAt.set(address, Date.now());
              service.setRisk(address, 'DANGER');
              resolve();
            }, Math.random() * SPREAD_MS),
          ),
      ),
    );
    const rows = async () => store.outbox.due('telegram', new Date(Date.now() + HOUR_MS), 10_000);
    await until(async () => (await rows()).length >= CHANGES, INTERVAL_MS * 4);
    const latencies = (await rows())
      .map((row) => {
        const address = 'token' in row.event ? row.event.token.address : '';
        const at = changedAt.get(address);
        return at === undefined ? null : (row.createdAt.getTime() - at) / 1000;
      })
      .filter((value): value is number => value !== null)
      .sort((a, b) => a - b);
    const median = quantile(latencies, 0.5);
    const p95 = quantile(latencies, 0.95);
    const perMinute = { tokens: tokenRequests * (60_000 / INTERVAL_MS), wallets: walletRequests * (60_000 / INTERVAL_MS) };
    recordResult('poll_requests_per_hour', perHour, 'requests/h');
    recordResult('poll_alert_latency_s', median, 's');
    recordResult('poll_alert_latency_s_p95', p95, 's');
    recordResult('poll_token_data_requests_per_min', perMinute.tokens, 'requests/min');
    recordResult('poll_wallet_tracker_requests_per_min', perMinute.wallets, 'requests/min');
    return [
      {
        what: `poll requests an hour, ${TOKENS} tokens + ${WALLETS} wallets at ${INTERVAL_MS / 1000}s`,
        figure: `${perHour} (token-data ${tokenRequests} a run of ≤${TOKEN_DATA_MAX_ADDRESSES}, wallet-tracker ${walletRequests} a run of ≤${RECONCILE_WALLET_BATCH})`,
      },
      {
        what: 'poll requests a minute, by endpoint',
        figure: `token-data ${perMinute.tokens}, wallet-tracker ${perMinute.wallets}; token-technicals 0 of its 100 (left to look-ups)`,
      },
      {
        what: `REST-only risk change → outbox row (${latencies.length} changes)`,
        figure: `median ${median.toFixed(1)} s, p95 ${p95.toFixed(1)} s`,
      },
    ];
  } finally {
    await polls.stop();
    await watcher.close();
    await streams.close();
    await market.close();
    store.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
