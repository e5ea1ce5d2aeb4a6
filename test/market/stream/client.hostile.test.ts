/**
 * The stream client against a server that misbehaves on purpose (the local fixture): frames over
 * the size limit, a flood of heavy events for a slow consumer, frames of a hundred thousand
 * elements that are no payload, and error texts carrying control and bidi characters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HolderSchema } from '../../../src/market/schemas';
import { StreamClient, type StreamClientOptions } from '../../../src/market/stream';
import { ManualClock } from '../support/manualClock';
import { collect } from './support/collect';
import { StreamFixture } from './support/fixture';
import { memoryLogger } from './support/logs';
import { token, wireToken } from './support/samples';
import { waitFor } from './support/wait';

const KEY = 'hostile-stream-key-31f0a2';
let fixture: StreamFixture | null = null;
let client: StreamClient | null = null;

async function setUp(options: Partial<StreamClientOptions> = {}) {
  fixture = await StreamFixture.start({ apiKey: KEY });
  client = new StreamClient({
    wsUrl: fixture.wsUrl,
    apiKey: KEY,
    heartbeatMs: 60_000,
    reconnectBaseMs: 20,
    reconnectMaxMs: 60_000,
    ...options,
  });
  return { fixture, client };
}

afterEach(async () => {
  vi.restoreAllMocks();
  await client?.close();
  await fixture?.close();
  client = null;
  fixture = null;
});

describe('5. frames over the size limit', () => {
  it('close the socket, are counted, warned once, and met with a backoff that keeps growing despite the acknowledgements', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const logs = memoryLogger();
    const { fixture, client } = await setUp({ maxFrameBytes: 64 * 1024, clock, logger: logs.logger });
    const T = token(700);
    const { events } = collect(client, 'token-feed', { tokenAddress: T });
    const big = JSON.stringify({ type: 'token', tokenAddress: T, data: wireToken(T, { description: 'x'.repeat(100 * 1024) }) });
    const waits: number[] = [];
    for (let round = 1; round <= 4; round++) {
      // The server acknowledges and serves the socket (its snapshot), then sends a frame over the limit.
      await waitFor(() => events.filter((event) => event.snapshot).length === round, `snapshot ${round}`);
      fixture.sendRaw('token-feed', big);
      await waitFor(
        () => client.status().counters.oversized === round && clock.pending().some((delay) => delay < 60_000),
        `close ${round}`,
      );
      const wait = clock.pending().find((delay) => delay < 60_000) ?? 0;
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits).toEqual([10, 20, 40, 80]);
    expect(events.some((event) => event.kind === 'token' && (event.token.description ?? '').length > 1_000)).toBe(false);
    expect(client.status().sockets[0]?.lastError).toMatch(/larger than 65536 bytes/);
    const warnings = logs
      .lines()
      .filter((line) => line.msg === 'stream frame over the size limit; the socket closes and backs off' && line.level === 40);
    expect(warnings).toHaveLength(1);
  });

  it('the limit is a setting: the same frame passes a larger one', async () => {
    const { fixture, client } = await setUp({ maxFrameBytes: 256 * 1024 });
    const T = token(701);
    const { events } = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => events.length === 1, 'the snapshot');
    fixture.sendRaw(
      'token-feed',
      JSON.stringify({ type: 'token', tokenAddress: T, data: wireToken(T, { description: 'x'.repeat(100 * 1024) }) }),
    );
    await waitFor(() => events.length === 2, 'the big event');
    expect(client.status().counters.oversized).toBe(0);
  });
});

describe('5. a slow consumer under heavy events', () => {
  it('holds at most queueMaxBytes of waiting events; the oldest go first, counted', async () => {
    const LIMIT = 256 * 1024;
    const { fixture, client } = await setUp({ queueMaxBytes: LIMIT, queueLimit: 1_000 });
    const T = token(702);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    client.subscribe('token-feed', { tokenAddress: T }, async (event) => {
      if (event.kind !== 'token') return;
      seen.push(event.token.name);
      if (seen.length === 1) await gate;
    });
    await waitFor(() => seen.length === 1, 'the snapshot, held by the consumer');
    const received = client.status().counters.received;
    for (let n = 1; n <= 20; n++) {
      fixture.sendRaw(
        'token-feed',
        JSON.stringify({ type: 'token', tokenAddress: T, data: wireToken(T, { name: `n${n}`, description: 'y'.repeat(60 * 1024) }) }),
      );
    }
    await waitFor(() => client.status().counters.received === received + 20, 'every frame');
    const status = client.status();
    expect(status.queuedBytes).toBeLessThanOrEqual(LIMIT);
    expect(status.queuedEvents).toBeLessThan(20);
    expect(status.counters.dropped).toBe(20 - status.queuedEvents);
    release();
    await waitFor(() => seen.length === 1 + status.queuedEvents, 'the queue to drain');
    expect(seen.at(-1)).toBe('n20');
  });
});

describe('big frames of what is no payload', () => {
  it('are counted in bulk without one schema run per element', async () => {
    const { fixture, client } = await setUp();
    const T = token(703);
    const { events } = collect(client, 'holders-live', { tokenAddress: T });
    await waitFor(() => events.length >= 1, 'the snapshot');
    const unreadable = client.status().counters.unreadable;
    const parse = vi.spyOn(HolderSchema, 'safeParse');
    fixture.sendRaw('holders-live', JSON.stringify({ type: 'holder', tokenAddress: T, data: Array.from({ length: 100_000 }, () => 0) }));
    fixture.sendRaw('holders-live', JSON.stringify(Array.from({ length: 50_000 }, () => ({}))));
    await waitFor(() => client.status().counters.unreadable === unreadable + 150_000, 'both frames counted');
    expect(parse).not.toHaveBeenCalled();
    expect(client.status().sockets).toMatchObject([{ state: 'open' }]);
  });
});

describe("7. the server's texts", () => {
  it('reach the status and the log without control or bidi characters', async () => {
    const logs = memoryLogger();
    const { fixture, client } = await setUp({ logger: logs.logger });
    const { events } = collect(client, 'token-feed', { tokenAddress: token(704) });
    await waitFor(() => events.length === 1, 'the snapshot');
    fixture.sendRaw(
      'token-feed',
      JSON.stringify({ type: 'error', error: 'Over\u202Eloaded\u0007', message: 'slow\u2028down\u0085now\u001b[2J' }),
    );
    await waitFor(() => (client.status().sockets[0]?.lastError ?? '').includes('down'), 'lastError');
    const raw = /[\u202E\u2028\u0085\u001b\u0007]/;
    expect(client.status().sockets[0]?.lastError).toBe('Overloaded: slow down now');
    expect(logs.text()).not.toMatch(raw);
  });
});
