/**
 * The metrics page, read back by a Prometheus text parser: every metric the README lists, named
 * `tokenwatch_…` with its labels, read from the counters the parts keep (here, given as they would
 * report them); a kind the bot does not know is `other`; a store that fails leaves its gauges
 * without samples and the page still answers.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../src/market/endpoints';
import { emptyEndpointStats, type EndpointStats } from '../../src/market/client';
import type { StreamStatus } from '../../src/market/stream';
import { Metrics, type MetricSources } from '../../src/ops/metrics';
import type { WatcherStatus } from '../../src/watch/watcher';
import { histogramCount, labelSets, parseMetrics, sampleValue } from '../support/prometheus';

/** The bot's metrics and their labels, as the README lists them. */
const LISTED: Record<string, string[]> = {
  tokenwatch_alerts_detected_total: ['kind'],
  tokenwatch_alerts_delivered_total: ['platform', 'kind'],
  tokenwatch_alerts_failed_total: ['platform', 'reason'],
  tokenwatch_alert_delivery_seconds: [],
  tokenwatch_outbox_pending: ['platform'],
  tokenwatch_outbox_oldest_pending_seconds: ['platform'],
  tokenwatch_chats_paused: ['platform'],
  tokenwatch_stream_sockets: ['state'],
  tokenwatch_stream_subscriptions: [],
  tokenwatch_stream_reconnects_total: [],
  tokenwatch_stream_frames_total: ['result'],
  tokenwatch_service_requests_total: ['endpoint', 'status'],
  tokenwatch_service_request_seconds: ['endpoint'],
  tokenwatch_service_cache_hits_total: ['endpoint'],
  tokenwatch_service_rate_limited_total: ['endpoint'],
  tokenwatch_commands_total: ['command', 'platform', 'result'],
  tokenwatch_command_seconds: ['command'],
  tokenwatch_platform_requests_total: ['platform', 'status'],
  tokenwatch_follows: ['kind'],
  tokenwatch_reconcile_seconds: [],
  tokenwatch_reconcile_changes_total: [],
};

const NOW = 1_800_000_000_000;

function stats(): Record<EndpointName, EndpointStats> {
  const all = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, emptyEndpointStats()])) as Record<EndpointName, EndpointStats>;
  all['token-data'] = { ...emptyEndpointStats(), requests: 7, cacheHits: 3, rateLimited: 2, answers: { '200': 5, '429': 2 } };
  return all;
}

function sources(overrides: Partial<MetricSources> = {}): MetricSources {
  const watcher: WatcherStatus = {
    tokens: 1,
    wallets: 0,
    subscriptions: { 'token-feed': 1, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 },
    processed: 10,
    events: 4,
    eventsByKind: { 'risk-status': 2, price: 1, 'made-up-kind': 1 },
    rows: 4,
    stale: 0,
    pricesSkipped: 0,
    queued: 0,
  };
  const streams: StreamStatus = {
    sockets: [
      {
        url: 'ws://x/ws/token-feed',
        state: 'open',
        subscriptions: 3,
        reconnects: 1,
        failures: 0,
        lastMessageAt: null,
        lastPongAt: null,
        lastError: null,
      },
      {
        url: 'ws://x/ws/token-feed',
        state: 'backoff',
        subscriptions: 2,
        reconnects: 4,
        failures: 2,
        lastMessageAt: null,
        lastPongAt: null,
        lastError: null,
      },
    ],
    counters: { received: 100, delivered: 90, unreadable: 3, unknown: 2, dropped: 5, reconnects: 5, authFailures: 0, oversized: 1 },
    queuedEvents: 0,
    queuedBytes: 0,
    packing: { setting: 'auto', perSocket: 500, state: 'accepted', evidence: null },
    maxSockets: null,
    waitingForRoom: 0,
    protocol: 'spec',
    unconfirmed: 0,
  };
  return {
    watcher: () => watcher,
    streams: () => streams,
    market: stats,
    delivery: (platform) =>
      platform === 'telegram'
        ? {
            sent: 3,
            digested: 0,
            digests: 0,
            retried: 1,
            paused: 1,
            sentByKind: { 'risk-status': 2, price: 1 },
            failures: { throttled: 1, error: 0, gone: 1 },
          }
        : null,
    commands: () => [
      { command: 'token', platform: 'telegram', result: 'ok', count: 4 },
      { command: 'unknown', platform: 'discord', result: 'usage', count: 1 },
    ],
    reconcile: () => ({ runs: 2, rows: 1 }),
    store: {
      outbox: {
        waiting: async (platform) => (platform === 'telegram' ? { count: 3, oldest: new Date(NOW - 90_000) } : { count: 0, oldest: null }),
      },
      chats: { pausedCount: async (platform) => (platform === 'telegram' ? 1 : 0) },
      follows: { countByKind: async () => ({ token: 12, wallet: 5 }) },
    },
    platforms: () => ['telegram', 'discord'],
    platformRequests: () => [{ platform: 'telegram', statuses: { '200': 9, '429': 1, '403': 1 } }],
    now: () => NOW,
    ...overrides,
  };
}

function histogramLabelSets(text: string, name: string): Array<Record<string, string>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}_count`))
    .map((line) => Object.fromEntries([.../(\w+)="[^"]*"/g[Symbol.matchAll](line)].map((pair) => [pair[1] ?? '', ''])));
}

async function page(metrics: Metrics): Promise<string> {
  return (await metrics.scrape()).text;
}

describe('the metrics page', () => {
  it('lists every metric with its labels, read from the parts when scraped', async () => {
    const metrics = new Metrics();
    metrics.watch(sources());
    metrics.delivered('telegram', [{ event: { at: NOW - 2_000 } } as never], new Date(NOW));
    metrics.requested('token-data', 0.02);
    metrics.answered('token', 0.004);
    metrics.reconciled(0.3);
    const text = await page(metrics);
    const families = parseMetrics(text);
    for (const [name, labels] of Object.entries(LISTED)) {
      expect(families.has(name), name).toBe(true);
      // The parser keeps no labels of a histogram's series: those are read off its `_count` lines.
      const sets = families.get(name)?.type === 'HISTOGRAM' ? histogramLabelSets(text, name) : labelSets(families, name);
      for (const set of sets) expect(Object.keys(set).sort(), name).toEqual([...labels].sort());
    }
    expect(sampleValue(families, 'tokenwatch_alerts_detected_total', { kind: 'risk-status' })).toBe(2);
    expect(sampleValue(families, 'tokenwatch_alerts_detected_total', { kind: 'other' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_alerts_delivered_total', { platform: 'telegram', kind: 'price' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_alerts_failed_total', { platform: 'telegram', reason: 'throttled' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_alerts_failed_total', { platform: 'telegram', reason: 'gone' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_outbox_pending', { platform: 'telegram' })).toBe(3);
    expect(sampleValue(families, 'tokenwatch_outbox_oldest_pending_seconds', { platform: 'telegram' })).toBe(90);
    expect(sampleValue(families, 'tokenwatch_outbox_oldest_pending_seconds', { platform: 'discord' })).toBe(0);
    expect(sampleValue(families, 'tokenwatch_chats_paused', { platform: 'telegram' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_stream_sockets', { state: 'backoff' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_stream_sockets', { state: 'auth-failed' })).toBe(0);
    expect(sampleValue(families, 'tokenwatch_stream_subscriptions')).toBe(5);
    expect(sampleValue(families, 'tokenwatch_stream_frames_total', { result: 'read' })).toBe(100);
    expect(sampleValue(families, 'tokenwatch_stream_frames_total', { result: 'oversized' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_service_requests_total', { endpoint: 'token-data', status: '429' })).toBe(2);
    expect(sampleValue(families, 'tokenwatch_service_rate_limited_total', { endpoint: 'token-data' })).toBe(2);
    expect(sampleValue(families, 'tokenwatch_commands_total', { command: 'token', platform: 'telegram', result: 'ok' })).toBe(4);
    expect(sampleValue(families, 'tokenwatch_platform_requests_total', { platform: 'telegram', status: '429' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_follows', { kind: 'wallet' })).toBe(5);
    expect(sampleValue(families, 'tokenwatch_reconcile_changes_total')).toBe(1);
    expect(histogramCount(text, 'tokenwatch_alert_delivery_seconds')).toBe(1);
    expect(histogramCount(text, 'tokenwatch_service_request_seconds', { endpoint: 'token-data' })).toBe(1);
    expect(histogramCount(text, 'tokenwatch_command_seconds', { command: 'token' })).toBe(1);
    expect(histogramCount(text, 'tokenwatch_reconcile_seconds')).toBe(1);
  });

  it('with several processes, shows this one’s partitions and named leases, and the live processes', async () => {
    const metrics = new Metrics({ defaults: false });
    metrics.watch(sources({ cluster: { partitions: () => 128, holds: (lease) => lease === 'sender:telegram', processes: async () => 3 } }));
    const families = parseMetrics(await page(metrics));
    expect(sampleValue(families, 'tokenwatch_cluster_partitions')).toBe(128);
    expect(sampleValue(families, 'tokenwatch_cluster_lease_held', { lease: 'sender:telegram' })).toBe(1);
    expect(sampleValue(families, 'tokenwatch_cluster_lease_held', { lease: 'sender:discord' })).toBe(0);
    expect(sampleValue(families, 'tokenwatch_cluster_processes')).toBe(3);
    // One process alone has none of them.
    const alone = new Metrics({ defaults: false });
    alone.watch(sources());
    expect(parseMetrics(await page(alone)).has('tokenwatch_cluster_partitions')).toBe(false);
  });

  it('follows the parts between scrapes: a counter read again is the part’s new figure', async () => {
    let events = 1;
    const metrics = new Metrics({ defaults: false });
    metrics.watch(sources({ watcher: () => ({ ...sources().watcher(), eventsByKind: { 'risk-status': events } }) }));
    expect(sampleValue(parseMetrics(await page(metrics)), 'tokenwatch_alerts_detected_total', { kind: 'risk-status' })).toBe(1);
    events = 5;
    expect(sampleValue(parseMetrics(await page(metrics)), 'tokenwatch_alerts_detected_total', { kind: 'risk-status' })).toBe(5);
  });

  it('still answers when the store fails: its gauges have no samples for that scrape', async () => {
    const metrics = new Metrics({ defaults: false });
    const failing = async (): Promise<never> => {
      throw new Error('database away');
    };
    metrics.watch(sources({ store: { outbox: { waiting: failing }, chats: { pausedCount: failing }, follows: { countByKind: failing } } }));
    const families = parseMetrics(await page(metrics));
    expect(families.get('tokenwatch_outbox_pending')?.metrics ?? []).toEqual([]);
    expect(sampleValue(families, 'tokenwatch_alerts_detected_total', { kind: 'risk-status' })).toBe(2);
  });
});
