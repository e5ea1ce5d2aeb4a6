import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, slowRetryDelay } from '../../../src/market/stream/backoff';
import { classifyClose, isAuthError } from '../../../src/market/stream/closeReason';
import { Fifo } from '../../../src/market/stream/fifo';
import { DeliveryQueue } from '../../../src/market/stream/queue';
import { checkTarget, publicTarget, subscribeMessage, unsubscribeMessage } from '../../../src/market/stream/target';
import { token, wallet } from './support/samples';
import { waitFor } from './support/wait';

describe('backoffDelay', () => {
  it('is uniform under base·2ⁿ, capped at the maximum', () => {
    expect(backoffDelay(0, 500, 30_000, () => 0.999)).toBe(499);
    expect(backoffDelay(3, 500, 30_000, () => 0.5)).toBe(2_000);
    expect(backoffDelay(20, 500, 30_000, () => 0.999)).toBe(29_970);
    expect(backoffDelay(5_000, 500, 30_000, () => 0)).toBe(0);
  });
});

describe('slowRetryDelay', () => {
  it('spreads the pause over ±20%, never near zero', () => {
    expect(slowRetryDelay(300_000, () => 0)).toBe(240_000);
    expect(slowRetryDelay(300_000, () => 0.5)).toBe(300_000);
    expect(slowRetryDelay(300_000, () => 0.999_999)).toBe(359_999);
    expect(slowRetryDelay(1, () => 0)).toBe(0);
  });
});

describe('classifyClose', () => {
  it('reads refused keys from the code, the reason or the upgrade status', () => {
    expect(classifyClose(4001, '')).toBe('auth');
    expect(classifyClose(1008, 'Unauthorized')).toBe('auth');
    expect(classifyClose(4003, 'Invalid API key')).toBe('auth');
    expect(isAuthError('Unexpected server response: 401')).toBe(true);
    expect(isAuthError('Unexpected server response: 403')).toBe(true);
    expect(isAuthError('Unexpected server response: 502')).toBe(false);
  });

  it('tells refused subscriptions from lost links', () => {
    expect(classifyClose(4004, 'unknown token')).toBe('rejected');
    expect(classifyClose(4000, 'malformed subscription')).toBe('rejected');
    expect(classifyClose(1006, '')).toBe('lost');
    expect(classifyClose(1001, 'going away')).toBe('lost');
  });
});

describe('checkTarget', () => {
  it('accepts tokens on every stream, an interval on chart-live, wallets on trades-live', () => {
    expect(checkTarget('token-feed', { tokenAddress: token(1) })).toEqual({ kind: 'token', tokenAddress: token(1), intervalSecs: null });
    expect(checkTarget('chart-live', { tokenAddress: token(1), intervalSecs: 60 })).toMatchObject({ intervalSecs: 60 });
    expect(checkTarget('trades-live', { wallets: [wallet(1), wallet(1), wallet(2)] })).toEqual({
      kind: 'wallets',
      wallets: [wallet(1), wallet(2)],
    });
  });

  it.each([
    ['token-feed', { tokenAddress: 'not-an-address' }, /not a token address/],
    ['token-feed', { tokenAddress: '' }, /not a token address/],
    ['holders-live', { wallets: [wallet(1)] }, /only trades-live follows wallets/],
    ['trades-live', { wallets: [] }, /non-empty/],
    ['trades-live', { wallets: [wallet(1), 'nope'] }, /"nope" is not a wallet address/],
    ['token-feed', { tokenAddress: token(1), intervalSecs: 60 }, /chart-live only/],
    ['chart-live', { tokenAddress: token(1), intervalSecs: 0 }, /at least 1/],
    ['chart-live', { tokenAddress: token(1), intervalSecs: 1e300 }, /whole number/],
    ['chart-live', { tokenAddress: token(1), intervalSecs: '60' }, /whole number/],
    ['trades-live', { tokenAddress: token(1), wallets: [wallet(1)] }, /either tokenAddress or wallets, not both/],
    ['trades-live', { wallets: [wallet(1)], intervalSecs: 60 }, /intervalSecs applies to chart-live/],
    ['trades-live', { wallets: wallet(1) }, /non-empty list/],
    ['trades-live', { wallets: [` ${wallet(1)}`] }, /is not a wallet address/],
    ['trades-live', { wallets: [42] }, /"42" is not a wallet address/],
    ['token-feed', { tokenAddress: 'x'.repeat(100) }, /"x{64}…" is not a token address/],
    ['token-feed', null, /needs \{tokenAddress\} or \{wallets\}/],
    ['token-feed', [token(1)], /needs \{tokenAddress\} or \{wallets\}/],
  ] as const)('%s %j throws a clear error', (stream, target, message) => {
    expect(() => checkTarget(stream, target as never)).toThrow(message);
  });

  it('merges wallets that differ only in the case of an EVM address, keeping the first spelling', () => {
    const upper = `0x${'AB'.repeat(20)}`;
    expect(checkTarget('trades-live', { wallets: [upper, upper.toLowerCase(), wallet(1)] })).toEqual({
      kind: 'wallets',
      wallets: [upper, wallet(1)],
    });
  });

  it('gives a checked target back in the shape callers give', () => {
    expect(publicTarget(checkTarget('chart-live', { tokenAddress: token(1), intervalSecs: 60 }))).toEqual({
      tokenAddress: token(1),
      intervalSecs: 60,
    });
    expect(publicTarget(checkTarget('token-feed', { tokenAddress: token(1) }))).toEqual({ tokenAddress: token(1) });
    expect(publicTarget(checkTarget('trades-live', { wallets: [wallet(1)] }))).toEqual({ wallets: [wallet(1)] });
  });

  it('builds the wire messages of docs/streams.md', () => {
    expect(JSON.parse(subscribeMessage(checkTarget('chart-live', { tokenAddress: token(1), intervalSecs: 60 }), 'k'))).toEqual({
      tokenAddress: token(1),
      intervalSecs: 60,
      apiKey: 'k',
    });
    expect(JSON.parse(subscribeMessage(checkTarget('trades-live', { wallets: [wallet(1)] }), 'k'))).toEqual({
      wallets: [wallet(1)],
      apiKey: 'k',
    });
    expect(JSON.parse(unsubscribeMessage(checkTarget('token-feed', { tokenAddress: token(1) })))).toEqual({
      action: 'unsubscribe',
      tokenAddress: token(1),
    });
  });
});

describe('Fifo', () => {
  it('gives items back in the order they came, whatever the mix of pushes and takes', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('take' as const), fc.integer())), (steps) => {
        const fifo = new Fifo<{ n: number }>();
        const model: Array<{ n: number }> = [];
        for (const step of steps) {
          if (step === 'take') expect(fifo.take()).toBe(model.shift());
          else {
            const item = { n: step };
            fifo.push(item);
            model.push(item);
          }
          expect(fifo.size).toBe(model.length);
        }
      }),
    );
  });

  it('stays correct across many compactions, and empty after clear', () => {
    const fifo = new Fifo<{ n: number }>();
    for (let n = 0; n < 10_000; n++) {
      fifo.push({ n });
      if (n % 3 !== 0) fifo.take();
    }
    expect(fifo.size).toBe(3_334);
    expect(fifo.take()).toEqual({ n: 6_666 });
    fifo.clear();
    expect(fifo.size).toBe(0);
    expect(fifo.take()).toBeUndefined();
  });
});

describe('DeliveryQueue', () => {
  it('delivers one at a time in order, dropping the oldest beyond the limit', async () => {
    const seen: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let dropped = 0;
    let delivered = 0;
    const queue = new DeliveryQueue<{ n: number }>(
      { events: 3, bytes: Number.POSITIVE_INFINITY },
      {
        deliver: async ({ n }) => {
          seen.push(n);
          if (n === 0) await gate;
        },
        delivered: () => void delivered++,
        dropped: () => void dropped++,
        failed: () => {},
      },
    );
    for (let n = 0; n < 10; n++) queue.push({ n });
    expect(seen).toEqual([0]);
    expect(queue.size).toBe(3);
    release();
    // Every item pushed is settled one way or the other before anything is judged.
    await waitFor(() => delivered + dropped === 10, 'every item delivered or dropped');
    expect(seen).toEqual([0, 7, 8, 9]);
    expect(dropped).toBe(6);
    expect(delivered).toBe(4);
  });

  it('releases every owned item exactly once: delivered, dropped or discarded at stop', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const released: string[] = [];
    let delivered = 0;
    const queue = new DeliveryQueue<{ n: number }, string>(
      { events: 2, bytes: Number.POSITIVE_INFINITY },
      {
        deliver: async ({ n }) => {
          if (n === 0) await gate;
        },
        delivered: () => void delivered++,
        dropped: () => {},
        failed: () => {},
        released: (owner) => void released.push(owner),
      },
    );
    for (let n = 0; n < 5; n++) queue.push({ n }, 0, `s${n}`);
    // 0 is with the consumer, 3 and 4 wait, 1 and 2 were dropped.
    expect(released).toEqual(['s1', 's2']);
    queue.stop();
    expect(released).toEqual(['s1', 's2', 's3', 's4']);
    queue.push({ n: 9 }, 0, 's9');
    expect(released).toEqual(['s1', 's2', 's3', 's4', 's9']);
    release();
    // The consumer's item is the last one out; its settling is counted before it is released.
    await waitFor(() => delivered === 1, 'the item with the consumer settled');
    expect(released).toEqual(['s1', 's2', 's3', 's4', 's9', 's0']);
  });

  it('keeps the newest items and counts every drop while the consumer is stalled for long', async () => {
    const seen: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let dropped = 0;
    let delivered = 0;
    const queue = new DeliveryQueue<{ n: number }>(
      { events: 1_000, bytes: Number.POSITIVE_INFINITY },
      {
        deliver: async ({ n }) => {
          seen.push(n);
          if (n === 0) await gate;
        },
        delivered: () => void delivered++,
        dropped: () => void dropped++,
        failed: () => {},
      },
    );
    for (let n = 0; n <= 100_000; n++) queue.push({ n });
    expect(queue.size).toBe(1_000);
    expect(dropped).toBe(99_000);
    release();
    await waitFor(() => delivered + dropped === 100_001, 'every item delivered or dropped');
    expect(seen).toHaveLength(1_001);
    expect(seen.slice(0, 2)).toEqual([0, 99_001]);
    expect(seen.at(-1)).toBe(100_000);
  });

  it('hands a consumer that returns nothing each item in the same turn, in order, pushes made while it runs included', () => {
    const seen: number[] = [];
    let delivered = 0;
    const released: string[] = [];
    const queue: DeliveryQueue<{ n: number }, string> = new DeliveryQueue<{ n: number }, string>(
      { events: 10, bytes: Number.POSITIVE_INFINITY },
      {
        deliver: ({ n }) => {
          seen.push(n);
          // A consumer that causes another event at once: it waits its turn, after this one.
          if (n === 1) queue.push({ n: 10 }, 0, 'p10');
        },
        delivered: () => void delivered++,
        dropped: () => {},
        failed: () => {},
        released: (owner) => void released.push(owner),
      },
    );
    for (let n = 0; n < 3; n++) queue.push({ n }, 0, `p${n}`);
    // No await: everything was delivered and released synchronously.
    expect(seen).toEqual([0, 1, 10, 2]);
    expect(delivered).toBe(4);
    expect(released).toEqual(['p0', 'p1', 'p10', 'p2']);
    expect(queue.size).toBe(0);
  });

  it('goes on after a consumer failure and delivers nothing after stop', async () => {
    const seen: number[] = [];
    const failures: unknown[] = [];
    const released: string[] = [];
    const queue = new DeliveryQueue<{ n: number }, string>(
      { events: 10, bytes: Number.POSITIVE_INFINITY },
      {
        deliver: ({ n }) => {
          seen.push(n);
          if (n === 1) throw new Error('boom');
        },
        delivered: () => {},
        dropped: () => {},
        failed: (error) => void failures.push(error),
        released: (owner) => void released.push(owner),
      },
    );
    queue.push({ n: 1 }, 0, 'p1');
    queue.push({ n: 2 }, 0, 'p2');
    await waitFor(() => released.includes('p2'), 'the item after the failure settled');
    queue.stop();
    queue.push({ n: 3 }, 0, 'p3');
    // The queue is done with the item pushed after stop once it has released it: only then is "not delivered" a finding.
    await waitFor(() => released.includes('p3'), 'the item pushed after stop let go');
    expect(seen).toEqual([1, 2]);
    expect(failures).toHaveLength(1);
  });
});
