/**
 * The client side of the peak-RSS measurement, run in a process of its own so that its peak is
 * the client's alone: a MarketClient with the default caps calls every endpoint of the hostile
 * server (hostileRss.ts), many calls at once, distinct keys so the cache fills, then prints its
 * peak resident set size and what the calls ended in, as one JSON line.
 *
 * Usage: node --import tsx test/market/support/hostileRssChild.ts BASE_URL ROUNDS CONCURRENCY
 */
import { MarketClient } from '../../../src/market/client';
import { ENDPOINTS, type EndpointName } from '../../../src/market/endpoints';
import { fakeAddress } from '../../support/addresses';

const [baseUrl = '', roundsText = '1', concurrencyText = '8'] = process.argv.slice(2);
const rounds = Number(roundsText);
const concurrency = Number(concurrencyText);

const address = (n: number): string => fakeAddress('Addr', n);

function call(client: MarketClient, endpoint: EndpointName, n: number): Promise<unknown> {
  const a = address(n);
  switch (endpoint) {
    case 'token-data':
      return client.token(a);
    case 'token-technicals':
      return client.technicals(a);
    case 'holders-history':
      return client.holders(a);
    case 'trades-history':
      return client.trades(a, [address(n + 1)]);
    case 'chart-history':
      return client.chart(a);
    case 'wallet-tracker':
      return client.walletTrades([a]);
  }
}

async function main(): Promise<void> {
  // The deadlines bound a call, not the measure: a loaded machine reading the biggest bodies must
  // not turn an unreadable answer into a timeout.
  const client = new MarketClient({
    baseUrl,
    apiKey: 'hostile-rss-key',
    maxRetries: 0,
    headersTimeoutMs: 90_000,
    bodyTimeoutMs: 90_000,
    attemptTimeoutMs: 90_000,
    callDeadlineMs: 90_000,
  });
  const outcomes: Record<string, number> = {};
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    for (const endpoint of ENDPOINTS) {
      const calls = Array.from({ length: concurrency }, () => call(client, endpoint, (n += 2)));
      for (const settled of await Promise.allSettled(calls)) {
        const reason: unknown = settled.status === 'rejected' ? settled.reason : null;
        const kind =
          settled.status === 'fulfilled'
            ? 'ok'
            : reason !== null && typeof reason === 'object' && 'kind' in reason
              ? String(reason.kind)
              : `error ${reason instanceof Error ? reason.message.slice(0, 80) : String(reason)}`;
        const key = `${endpoint}:${kind}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
    }
  }
  const cachedBytes = Object.values(client.stats()).reduce((sum, stats) => sum + stats.cachedBytes, 0);
  await client.close();
  // maxRSS is in kilobytes.
  process.stdout.write(`${JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024, cachedBytes, outcomes })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
