/** A refused key: reported once per outage, retried slowly, never exposed. Against the local fixture. */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamClient, type AuthFailureInfo } from '../../../src/market/stream';
import { collect } from './support/collect';
import { StreamFixture } from './support/fixture';
import { memoryLogger } from './support/logs';
import { token } from './support/samples';
import { waitFor } from './support/wait';
import { ManualClock } from '../support/manualClock';

const RIGHT_KEY = 'right-key-5f2c9a71';
const WRONG_KEY = 'wrong-key-8d41e0b3';
let fixture: StreamFixture | null = null;
let client: StreamClient | null = null;

afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = null;
  fixture = null;
});

describe('a wrong key', () => {
  it('is reported once for all sockets, retried every authRetryMs, and never shown', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY });
    const logs = memoryLogger();
    const clock = new ManualClock(Date.now(), [0.5]);
    client = new StreamClient({
      wsUrl: fixture.wsUrl,
      apiKey: WRONG_KEY,
      logger: logs.logger,
      authRetryMs: 1_000,
      reconnectBaseMs: 10,
      reconnectMaxMs: 50,
      clock,
    });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    const feeds = [token(1), token(2), token(3)].map((T) => collect(client!, 'token-feed', { tokenAddress: T }));
    for (let round = 1; round <= 3; round++) {
      await waitFor(
        () =>
          fixture!.totalAttempts() === 3 * round &&
          client!.status().sockets.every((socket) => socket.state === 'auth-failed') &&
          clock.pending().length === 3,
        `every socket refused, round ${round}`,
      );
      // Each socket waits authRetryMs (0.5 drawn: no spread), never the fast reconnection backoff.
      expect(clock.pending()).toEqual([1_000, 1_000, 1_000]);
      if (round < 3) clock.advance(1_000);
    }

    expect(fixture.totalAttempts()).toBe(9);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ stream: 'token-feed', reason: expect.stringMatching(/4001.*invalid api key/) });
    const status = client.status();
    expect(status.counters.authFailures).toBe(fixture.totalAttempts());
    expect(status.sockets.every((socket) => socket.state === 'auth-failed')).toBe(true);
    expect(feeds.every((feed) => feed.events.length === 0)).toBe(true);

    const everything = JSON.stringify(status) + JSON.stringify(reports) + logs.text();
    expect(everything).not.toContain(WRONG_KEY);
    expect(logs.lines().filter((line) => line.level === 50)).toHaveLength(1);
  });

  it('ends when the key is accepted again; a later refusal is a new outage, reported again', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY });
    const clock = new ManualClock(Date.now(), [0.5]);
    client = new StreamClient({
      wsUrl: fixture.wsUrl,
      apiKey: WRONG_KEY,
      authRetryMs: 100,
      reconnectBaseMs: 10,
      reconnectMaxMs: 50,
      clock,
    });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    const feed = collect(client, 'token-feed', { tokenAddress: token(4) });
    /** Fires the one pending retry once the socket has failed `failures` times. */
    const retryAfter = async (failures: number) => {
      await waitFor(() => client!.status().counters.authFailures === failures && clock.pending().length === 1, `refusal ${failures}`);
      clock.advance(clock.pending()[0] ?? 0);
    };
    await retryAfter(1);
    await retryAfter(2);
    await waitFor(() => client!.status().counters.authFailures === 3 && clock.pending().length === 1, 'refusal 3');
    expect(reports).toHaveLength(1);

    fixture.apiKey = WRONG_KEY;
    clock.advance(clock.pending()[0] ?? 0);
    await waitFor(() => feed.events.length === 1, 'the snapshot once the key is accepted');
    expect(client.status().sockets[0]?.state).toBe('open');

    fixture.apiKey = RIGHT_KEY;
    fixture.dropAll();
    await waitFor(() => client!.status().sockets[0]?.state === 'backoff' && clock.pending().includes(5), 'the reconnection armed');
    clock.advance(5);
    await waitFor(() => reports.length === 2, 'the second outage to be reported');
    await retryAfter(4);
    await retryAfter(5);
    await waitFor(() => client!.status().counters.authFailures === 6, 'refusal 6');
    expect(reports).toHaveLength(2);
  });

  it('refused sockets retry apart: each after authRetryMs ± 20%, drawn from the clock', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY });
    const RETRY_MS = 1_000;
    const SOCKETS = 5;
    const clock = new ManualClock(Date.now(), [0, 0.25, 0.5, 0.75, 0.999]);
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: WRONG_KEY, authRetryMs: RETRY_MS, clock });
    for (let n = 0; n < SOCKETS; n++) collect(client, 'token-feed', { tokenAddress: token(50 + n) });
    await waitFor(
      () => client!.status().sockets.every((socket) => socket.state === 'auth-failed') && clock.pending().length === SOCKETS,
      'every socket refused',
    );
    // Spread over [800, 1,200): sockets refused together do not come back together.
    expect([...clock.pending()].sort((a, b) => a - b)).toEqual([800, 900, 1_000, 1_100, 1_199]);
    clock.advance(1_200);
    await waitFor(() => fixture!.totalAttempts() === 2 * SOCKETS, 'one retry of every socket');
  });

  it('an HTTP 401 on upgrade is a refused key too', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY, refuseUpgrade: 401 });
    const clock = new ManualClock(Date.now(), [0.5]);
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: RIGHT_KEY, authRetryMs: 60_000, clock });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    collect(client, 'holders-live', { tokenAddress: token(5) });
    await waitFor(() => reports.length === 1 && clock.pending().length === 1, 'the report');
    expect(reports[0]).toMatchObject({ stream: 'holders-live', reason: expect.stringMatching(/401/) });
    expect(clock.pending()).toEqual([60_000]);
    expect(fixture.totalAttempts()).toBe(1);
    expect(client.status().sockets).toMatchObject([{ state: 'auth-failed', subscriptions: 1 }]);
  });

  it('does not leak the key through the socket URL or errors when the server echoes it', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY });
    const logs = memoryLogger();
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: RIGHT_KEY, logger: logs.logger });
    const feed = collect(client, 'token-feed', { tokenAddress: token(6) });
    await waitFor(() => feed.events.length === 1, 'the snapshot');
    fixture.sendRaw('token-feed', JSON.stringify({ type: 'error', error: 'Bad', message: `key ${RIGHT_KEY} is rate limited` }));
    await waitFor(() => (client!.status().sockets[0]?.lastError ?? '').includes('rate limited'), 'the error in status');
    const everything = JSON.stringify(client.status()) + logs.text();
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(RIGHT_KEY);
  });
});
