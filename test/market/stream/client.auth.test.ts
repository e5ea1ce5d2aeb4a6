/** A refused key: reported once per outage, retried slowly, never exposed. Against the local fixture. */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamClient, type AuthFailureInfo } from '../../../src/market/stream';
import { collect } from './support/collect';
import { StreamFixture } from './support/fixture';
import { memoryLogger } from './support/logs';
import { token } from './support/samples';
import { sleep, waitFor } from './support/wait';

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
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: WRONG_KEY, logger: logs.logger, authRetryMs: 1_000, reconnectBaseMs: 10, reconnectMaxMs: 50 });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    const feeds = [token(1), token(2), token(3)].map((T) => collect(client!, 'token-feed', { tokenAddress: T }));
    await waitFor(() => client!.status().sockets.every((socket) => socket.state === 'auth-failed'), 'every socket to fail');
    await sleep(2_200);

    // Three sockets, each: the first attempt and one or two retries in 2.2 s at one per 0.8 to 1.2 s.
    expect(fixture.totalAttempts()).toBeGreaterThanOrEqual(3 * 2);
    expect(fixture.totalAttempts()).toBeLessThanOrEqual(3 * 3);
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
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: WRONG_KEY, authRetryMs: 100, reconnectBaseMs: 10, reconnectMaxMs: 50 });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    const feed = collect(client, 'token-feed', { tokenAddress: token(4) });
    await waitFor(() => client!.status().counters.authFailures >= 3, 'a few refused retries');
    expect(reports).toHaveLength(1);

    fixture.apiKey = WRONG_KEY;
    await waitFor(() => feed.events.length === 1, 'the snapshot once the key is accepted');
    expect(client.status().sockets[0]?.state).toBe('open');

    fixture.apiKey = RIGHT_KEY;
    fixture.dropAll();
    await waitFor(() => reports.length === 2, 'the second outage to be reported');
    await sleep(350);
    expect(reports).toHaveLength(2);
  });

  it('refused sockets retry apart: each after authRetryMs ± 20%, not all at one instant', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY });
    const RETRY_MS = 1_000;
    const SOCKETS = 20;
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: WRONG_KEY, authRetryMs: RETRY_MS });
    for (let n = 0; n < SOCKETS; n++) collect(client, 'token-feed', { tokenAddress: token(50 + n) });
    await waitFor(() => fixture!.totalAttempts() >= 2 * SOCKETS, 'one retry of every socket');
    const times = [...fixture.attemptTimes].sort((a, b) => a - b);
    const firsts = times.slice(0, SOCKETS);
    const retries = times.slice(SOCKETS, 2 * SOCKETS);
    const firstAttempt = Math.min(...firsts);
    // Slow: no retry before 0.8 × authRetryMs.
    expect(Math.min(...retries) - firstAttempt).toBeGreaterThanOrEqual(0.8 * RETRY_MS - 5);
    // Apart: without jitter the twenty retries would come within a few ms of each other, as the
    // refusals did; spread uniformly over 400 ms, all twenty within 150 ms has odds near 1 in 10⁷.
    expect(Math.max(...firsts) - firstAttempt).toBeLessThan(150);
    expect(Math.max(...retries) - Math.min(...retries)).toBeGreaterThanOrEqual(150);
  });

  it('an HTTP 401 on upgrade is a refused key too', async () => {
    fixture = await StreamFixture.start({ apiKey: RIGHT_KEY, refuseUpgrade: 401 });
    client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: RIGHT_KEY, authRetryMs: 60_000 });
    const reports: AuthFailureInfo[] = [];
    client.onAuthFailure((info) => reports.push(info));
    collect(client, 'holders-live', { tokenAddress: token(5) });
    await waitFor(() => reports.length === 1, 'the report');
    expect(reports[0]).toMatchObject({ stream: 'holders-live', reason: expect.stringMatching(/401/) });
    await sleep(200);
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
