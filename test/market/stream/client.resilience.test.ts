/** Unreadable frames, slow consumers, dead links, abrupt drops and refused subscriptions, against the local fixture. */
import { afterEach, describe, expect, it } from 'vitest';
import { StreamClient, type StreamEvent, type SubscriptionRejection } from '../../../src/market/stream';
import { collect } from './support/collect';
import { StreamFixture, type FixtureOptions } from './support/fixture';
import { memoryLogger } from './support/logs';
import { token, wireToken } from './support/samples';
import { waitFor } from './support/wait';
import { ManualClock } from '../support/manualClock';

const KEY = 'fixture-key-0123456789';
/**
 * Quick reconnections, and no heartbeat due within a test that does not ask for one: a pause of a
 * loaded machine longer than a beat would cut a socket as dead, and its new snapshot would count.
 */
const FAST = { heartbeatMs: 60_000, reconnectBaseMs: 20, reconnectMaxMs: 200 } as const;
/** For the tests that wait for a heartbeat answered on the real clock. */
const REAL_HEARTBEAT = { heartbeatMs: 1_000 } as const;
/** Short enough to see several heartbeats in a test; only the heartbeat tests use it. */
const QUICK_HEARTBEAT = { heartbeatMs: 100 } as const;
let fixture: StreamFixture | null = null;
let client: StreamClient | null = null;

async function setUp(
  fixtureOptions: Partial<FixtureOptions> = {},
  clientOptions: Partial<ConstructorParameters<typeof StreamClient>[0]> = {},
) {
  fixture = await StreamFixture.start({ apiKey: KEY, ...fixtureOptions });
  client = new StreamClient({ wsUrl: fixture.wsUrl, apiKey: KEY, ...FAST, ...clientOptions });
  return { fixture, client };
}

afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = null;
  fixture = null;
});

describe('unreadable frames', () => {
  it('are counted and dropped; the socket and the subscription live on', async () => {
    const { fixture, client } = await setUp();
    const T = token(1);
    const { events } = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => events.length === 1, 'the snapshot');
    const received = client.status().counters.received;
    fixture.sendRaw('token-feed', 'this is not json');
    fixture.sendRaw('token-feed', Buffer.from([1, 2, 3]), true);
    fixture.sendRaw('token-feed', JSON.stringify({ type: 'token', tokenAddress: T, data: { address: 42 } }));
    fixture.sendRaw(
      'token-feed',
      JSON.stringify({ type: 'candle', tokenAddress: T, data: { timestamp: 1, open: 1, high: 1, low: 1, close: 1 } }),
    );
    fixture.sendRaw('token-feed', JSON.stringify([1, 2]));
    fixture.sendRaw('token-feed', '');
    fixture.change('token-feed', T);
    await waitFor(() => events.length === 2, 'the change after the garbage');
    const { counters, sockets } = client.status();
    expect(counters.received - received).toBe(7);
    expect(counters.unreadable).toBe(7);
    expect(counters.reconnects).toBe(0);
    expect(sockets).toMatchObject([{ state: 'open', subscriptions: 1, reconnects: 0 }]);
  });

  it('an error message from the server is logged in status, not counted as unreadable', async () => {
    const { fixture, client } = await setUp();
    const { events } = collect(client, 'token-feed', { tokenAddress: token(2) });
    await waitFor(() => events.length === 1, 'the snapshot');
    fixture.sendRaw('token-feed', JSON.stringify({ type: 'error', error: 'Overloaded', message: 'slow down' }));
    await waitFor(() => client.status().sockets[0]?.lastError === 'Overloaded: slow down', 'lastError');
    expect(client.status().counters.unreadable).toBe(0);
  });
});

describe('a slow consumer', () => {
  it('is awaited one event at a time, in order; beyond queueLimit the oldest are dropped and counted', async () => {
    const { fixture, client } = await setUp({}, { queueLimit: 5 });
    const T = token(3);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    let busy = 0;
    let overlapped = false;
    client.subscribe('token-feed', { tokenAddress: T }, async (event: StreamEvent) => {
      if (event.kind !== 'token') return;
      busy += 1;
      if (busy > 1) overlapped = true;
      seen.push(event.token.name);
      if (seen.length === 1) await gate;
      busy -= 1;
    });
    await waitFor(() => seen.length === 1, 'the snapshot to reach the consumer');
    for (let n = 1; n <= 20; n++)
      fixture.sendRaw('token-feed', JSON.stringify({ type: 'token', tokenAddress: T, data: wireToken(T, { name: `n${n}` }) }));
    await waitFor(() => client.status().counters.received === 22, 'every frame to arrive');
    expect(client.status().counters.dropped).toBe(15);
    release();
    await waitFor(() => seen.length === 6, 'the queue to drain');
    expect(seen).toEqual(['Fixture Token', 'n16', 'n17', 'n18', 'n19', 'n20']);
    expect(overlapped).toBe(false);
    expect(client.status().counters).toMatchObject({ delivered: 6, dropped: 15 });
  });

  it('a consumer that throws does not stop its subscription', async () => {
    const { fixture, client } = await setUp();
    const T = token(4);
    let calls = 0;
    client.subscribe('token-feed', { tokenAddress: T }, () => {
      calls += 1;
      throw new Error('consumer bug');
    });
    await waitFor(() => calls === 1, 'the snapshot');
    fixture.change('token-feed', T);
    await waitFor(() => calls === 2, 'the change');
  });
});

describe('heartbeat, on a manual clock', () => {
  it('terminates a socket whose server stops answering pings, then reconnects and resubscribes once', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture, client } = await setUp({ autoPong: false }, { ...QUICK_HEARTBEAT, clock });
    const T = token(5);
    const { events } = collect(client, 'token-feed', { tokenAddress: T });
    await waitFor(() => events.length === 1 && clock.pending().includes(100), 'the snapshot and the first heartbeat armed');
    clock.advance(100); // ping
    clock.advance(100); // no pong: terminated
    // The loss is backed off by 0.5 × reconnectBaseMs (20 ms), on the clock.
    await waitFor(() => clock.pending().includes(10), 'the reconnection armed');
    expect(client.status().sockets[0]?.lastError ?? '').toMatch(/pong/);
    clock.advance(10);
    await waitFor(
      () =>
        fixture.openSockets().length === 1 &&
        fixture.liveSubscriptions().length === 1 &&
        events.filter((event) => event.snapshot).length >= 2,
      'the new socket and its snapshot',
    );
    expect(fixture.attempts['token-feed']).toBe(2);
    expect(fixture.openSockets()[0]?.received).toEqual([{ tokenAddress: T, apiKey: KEY }]);
    expect(client.status().counters.reconnects).toBe(1);
  });

  it('keeps a socket whose server answers pings', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture, client } = await setUp({}, { ...QUICK_HEARTBEAT, clock });
    const { events } = collect(client, 'token-feed', { tokenAddress: token(6) });
    await waitFor(() => events.length === 1 && clock.pending().includes(100), 'the snapshot and the first heartbeat armed');
    for (let beat = 1; beat <= 5; beat++) {
      clock.advance(100);
      const pongAt = clock.now();
      await waitFor(() => client.status().sockets[0]?.lastPongAt === pongAt, `pong ${beat}`);
    }
    expect(fixture.attempts['token-feed']).toBe(1);
    expect(client.status().sockets).toMatchObject([{ state: 'open', reconnects: 0, lastError: null }]);
  });
});

describe('after an abrupt drop', () => {
  it.each([1, 4])('every subscription is back, subscribed exactly once (%i per socket)', async (perSocket) => {
    const { fixture, client } = await setUp({}, { ...REAL_HEARTBEAT, subscriptionsPerSocket: perSocket });
    const tokens = Array.from({ length: 8 }, (_, n) => token(100 + n));
    const collected = tokens.map((T) => collect(client, 'token-feed', { tokenAddress: T }));
    await waitFor(() => collected.every((c) => c.events.length === 1), 'the snapshots');
    expect(fixture.openSockets()).toHaveLength(8 / perSocket);
    const droppedAt = Date.now();
    fixture.dropAll();
    // Settled: every socket open again on both sides, every subscription served anew, and every
    // socket's heartbeat answered since: the server read the ping after everything the client sent
    // before it, so a subscription sent twice is in `received` by then.
    await waitFor(
      () =>
        client.status().counters.reconnects >= 8 / perSocket &&
        client.status().sockets.length === 8 / perSocket &&
        client.status().sockets.every((socket) => socket.state === 'open' && (socket.lastPongAt ?? 0) > droppedAt) &&
        fixture.openSockets().length === 8 / perSocket &&
        collected.every((c) => c.events.filter((event) => event.snapshot).length === 2),
      'every subscription back and its socket’s heartbeat answered',
    );
    expect(fixture.liveSubscriptions()).toHaveLength(8);
    for (const socket of fixture.openSockets()) {
      const sent = socket.received.map((message) => message.tokenAddress);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent).toHaveLength(perSocket);
    }
    for (const T of tokens) fixture.change('token-feed', T);
    await waitFor(() => collected.every((c) => c.events.filter((event) => !event.snapshot).length === 1), 'a change on every subscription');
  });

  it('a subscription added while the socket is down is sent once the socket is back', async () => {
    const { fixture, client } = await setUp({}, { subscriptionsPerSocket: 4, reconnectBaseMs: 200, reconnectMaxMs: 200 });
    const first = collect(client, 'token-feed', { tokenAddress: token(200) });
    await waitFor(() => first.events.length === 1, 'the snapshot');
    fixture.unavailable = true;
    fixture.dropAll();
    await waitFor(() => client.status().counters.reconnects >= 1 && fixture.openSockets().length === 0, 'the socket down');
    const second = collect(client, 'token-feed', { tokenAddress: token(201) });
    fixture.unavailable = false;
    await waitFor(() => second.events.length === 1 && fixture.liveSubscriptions().length === 2, 'both subscriptions back');
    expect(fixture.openSockets()[0]?.received.map((message) => message.tokenAddress)).toEqual([token(200), token(201)]);
  });
});

describe('the backoff after a loss, on a manual clock', () => {
  // No pong within the test: only being served, and staying up, can reset the backoff.
  const NO_PONG_YET = { heartbeatMs: 60_000, reconnectBaseMs: 20, reconnectMaxMs: 60_000, stableMs: 5_000 } as const;
  /** The reconnection wait armed after a loss: the one pending timer below the heartbeat. */
  const reconnectWait = (clock: ManualClock) => clock.pending().find((delay) => delay < 60_000);

  it('starts afresh after a loss once the served socket stayed up for stableMs', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture, client } = await setUp({}, { ...NO_PONG_YET, clock });
    const { events } = collect(client, 'token-feed', { tokenAddress: token(400) });
    const waits: number[] = [];
    for (let cut = 1; cut <= 4; cut++) {
      await waitFor(() => events.filter((event) => event.snapshot).length === cut, `snapshot ${cut}`);
      clock.advance(5_000);
      fixture.dropAll();
      await waitFor(() => reconnectWait(clock) !== undefined, `the wait after cut ${cut}`);
      const wait = reconnectWait(clock) ?? 0;
      waits.push(wait);
      clock.advance(wait);
    }
    // 0.5 × 20 ms each time: step 0 after every loss.
    expect(waits).toEqual([10, 10, 10, 10]);
  });

  it('keeps growing when a served socket dies again within seconds, as after every frame over the limit', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture, client } = await setUp({}, { ...NO_PONG_YET, clock });
    const { events } = collect(client, 'token-feed', { tokenAddress: token(402) });
    const waits: number[] = [];
    for (let cut = 1; cut <= 4; cut++) {
      await waitFor(() => events.filter((event) => event.snapshot).length === cut, `snapshot ${cut}`);
      clock.advance(1_000);
      fixture.dropAll();
      await waitFor(() => reconnectWait(clock) !== undefined, `the wait after cut ${cut}`);
      const wait = reconnectWait(clock) ?? 0;
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits).toEqual([10, 20, 40, 80]);
  });

  it('keeps growing while the server closes every socket before serving it', async () => {
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture } = await setUp({ closeOnSubscribe: 1001 }, { ...NO_PONG_YET, clock });
    collect(client!, 'token-feed', { tokenAddress: token(401) });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(() => fixture.attempts['token-feed'] === attempt && reconnectWait(clock) !== undefined, `attempt ${attempt} lost`);
      const wait = reconnectWait(clock) ?? 0;
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits).toEqual([10, 20, 40, 80]);
  });
});

describe('a refused subscription', () => {
  it('on a shared socket is moved to its own socket; the others keep receiving', async () => {
    const unknown = token(301);
    const { fixture, client } = await setUp({ unknownTokens: [unknown] }, { subscriptionsPerSocket: 10 });
    const a = collect(client, 'token-feed', { tokenAddress: token(300) });
    const rejections: SubscriptionRejection[] = [];
    const b = client.subscribe('token-feed', { tokenAddress: unknown }, () => {}, {
      onRejected: (rejection) => rejections.push(rejection),
    });
    const c = collect(client, 'token-feed', { tokenAddress: token(302) });
    await waitFor(() => a.events.length >= 1 && c.events.length >= 1, 'the known tokens');
    await waitFor(() => client.status().sockets.length === 3, 'the refused subscriptions to move out');
    const live = () => fixture.liveSubscriptions().map((subscription) => subscription.tokenAddress);
    await waitFor(() => live().includes(token(300)) && live().includes(token(302)), 'the known tokens subscribed again');
    fixture.change('token-feed', token(300));
    fixture.change('token-feed', token(302));
    await waitFor(() => a.events.some((e) => !e.snapshot) && c.events.some((e) => !e.snapshot), 'changes on the known tokens');
    // Only the culprit, alone on its socket, is reported: never a subscription that was cut with it.
    await waitFor(() => rejections.length === 1, 'the report');
    expect(rejections).toEqual([{ stream: 'token-feed', target: { tokenAddress: unknown }, code: 4004, reason: 'unknown token' }]);
    expect(client.status().sockets.filter((socket) => socket.state === 'rejected')).toMatchObject([
      { subscriptions: 1, lastError: 'closed 4004: unknown token' },
    ]);
    expect(
      fixture
        .liveSubscriptions()
        .map((subscription) => subscription.tokenAddress)
        .sort(),
    ).toEqual([token(300), token(302)].sort());
    b();
  });

  it.each([
    ['an unknown token', 4004, { unknownTokens: [token(310)] }, 'unknown token'],
    ['a malformed subscription', 4000, { malformedTokens: [token(310)] }, 'malformed subscription'],
  ] as const)('%s (%i) is reported once and retried only slowly', async (_what, code, fixtureOptions, reason) => {
    const RETRY_MS = 400;
    const clock = new ManualClock(Date.now(), [0, 0.5, 0.999]);
    const { fixture, client } = await setUp(fixtureOptions, { rejectedRetryMs: RETRY_MS, clock });
    const rejections: SubscriptionRejection[] = [];
    client.subscribe('token-feed', { tokenAddress: token(310) }, () => {}, { onRejected: (rejection) => rejections.push(rejection) });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await waitFor(
        () => fixture.attempts['token-feed'] === attempt && client.status().sockets[0]?.state === 'rejected',
        `refusal ${attempt}`,
      );
      const [wait = 0] = clock.pending();
      waits.push(wait);
      clock.advance(wait);
    }
    // rejectedRetryMs ± 20%, drawn from the clock: never the fast backoff (reconnectBaseMs is 20 here).
    expect(waits).toEqual([320, 400, 479]);
    expect(rejections).toEqual([{ stream: 'token-feed', target: { tokenAddress: token(310) }, code, reason }]);
    // The last attempt may be between the server's error message and its close: either names the reason.
    expect(client.status().sockets).toMatchObject([{ subscriptions: 1, lastError: expect.stringContaining(reason) }]);
  });

  it('is reported again only after the server accepted the target in between', async () => {
    const T = token(320);
    const { fixture, client } = await setUp({ unknownTokens: [T] }, { rejectedRetryMs: 100 });
    const rejections: SubscriptionRejection[] = [];
    const events: StreamEvent[] = [];
    client.subscribe('token-feed', { tokenAddress: T }, (event) => void events.push(event), {
      onRejected: (rejection) => rejections.push(rejection),
    });
    await waitFor(() => fixture.attempts['token-feed'] >= 3, 'two retries');
    expect(rejections).toHaveLength(1);

    fixture.unknownTokens.delete(T);
    await waitFor(() => events.length === 1, 'the snapshot once the token is known');
    expect(client.status().sockets).toMatchObject([{ state: 'open', subscriptions: 1 }]);

    fixture.unknownTokens.add(T);
    fixture.dropAll();
    await waitFor(() => rejections.length === 2, 'the second report');
    const attempts = fixture.attempts['token-feed'];
    await waitFor(() => fixture.attempts['token-feed'] >= attempts + 2, 'two more retries');
    expect(rejections).toHaveLength(2);
  });

  it('a subscriber without onRejected still has its target retried slowly; a throwing callback is logged', async () => {
    const logs = memoryLogger();
    const clock = new ManualClock(Date.now(), [0.5]);
    const { fixture, client } = await setUp(
      { unknownTokens: [token(330), token(331)] },
      { rejectedRetryMs: 60_000, logger: logs.logger, clock },
    );
    collect(client, 'token-feed', { tokenAddress: token(330) });
    client.subscribe('token-feed', { tokenAddress: token(331) }, () => {}, {
      onRejected: () => {
        throw new Error('callback bug');
      },
    });
    await waitFor(() => client.status().sockets.every((socket) => socket.state === 'rejected'), 'both refused');
    // Both wait rejectedRetryMs, on the clock, whatever became of the callbacks.
    expect(clock.pending()).toEqual([60_000, 60_000]);
    expect(fixture.attempts['token-feed']).toBe(2);
    expect(logs.lines().some((line) => line.msg === 'onRejected callback failed')).toBe(true);
  });
});
