import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/market/stream/backoff';
import { classifyClose, isAuthError } from '../../../src/market/stream/closeReason';
import { DeliveryQueue } from '../../../src/market/stream/queue';
import { checkTarget, subscribeMessage, unsubscribeMessage } from '../../../src/market/stream/target';
import { token, wallet } from './support/samples';

describe('backoffDelay', () => {
  it('is uniform under base·2ⁿ, capped at the maximum', () => {
    expect(backoffDelay(0, 500, 30_000, () => 0.999)).toBe(499);
    expect(backoffDelay(3, 500, 30_000, () => 0.5)).toBe(2_000);
    expect(backoffDelay(20, 500, 30_000, () => 0.999)).toBe(29_970);
    expect(backoffDelay(5_000, 500, 30_000, () => 0)).toBe(0);
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
    expect(checkTarget('trades-live', { wallets: [wallet(1), wallet(1), wallet(2)] })).toEqual({ kind: 'wallets', wallets: [wallet(1), wallet(2)] });
  });

  it.each([
    ['token-feed', { tokenAddress: 'not-an-address' }, /not a token address/],
    ['token-feed', { tokenAddress: '' }, /not a token address/],
    ['holders-live', { wallets: [wallet(1)] }, /only trades-live follows wallets/],
    ['trades-live', { wallets: [] }, /non-empty/],
    ['trades-live', { wallets: [wallet(1), 'nope'] }, /"nope" is not a wallet address/],
    ['token-feed', { tokenAddress: token(1), intervalSecs: 60 }, /chart-live only/],
    ['chart-live', { tokenAddress: token(1), intervalSecs: 0 }, /at least 1/],
  ] as const)('%s %j throws a clear error', (stream, target, message) => {
    expect(() => checkTarget(stream, target as never)).toThrow(message);
  });

  it('builds the wire messages of docs/streams.md', () => {
    expect(JSON.parse(subscribeMessage(checkTarget('chart-live', { tokenAddress: token(1), intervalSecs: 60 }), 'k'))).toEqual({
      tokenAddress: token(1),
      intervalSecs: 60,
      apiKey: 'k',
    });
    expect(JSON.parse(subscribeMessage(checkTarget('trades-live', { wallets: [wallet(1)] }), 'k'))).toEqual({ wallets: [wallet(1)], apiKey: 'k' });
    expect(JSON.parse(unsubscribeMessage(checkTarget('token-feed', { tokenAddress: token(1) })))).toEqual({ action: 'unsubscribe', tokenAddress: token(1) });
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
    const queue = new DeliveryQueue<{ n: number }>(3, {
      deliver: async ({ n }) => {
        seen.push(n);
        if (n === 0) await gate;
      },
      delivered: () => void delivered++,
      dropped: () => void dropped++,
      failed: () => {},
    });
    for (let n = 0; n < 10; n++) queue.push({ n });
    expect(seen).toEqual([0]);
    expect(queue.size).toBe(3);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([0, 7, 8, 9]);
    expect(dropped).toBe(6);
    expect(delivered).toBe(4);
  });

  it('goes on after a consumer failure and delivers nothing after stop', async () => {
    const seen: number[] = [];
    const failures: unknown[] = [];
    const queue = new DeliveryQueue<{ n: number }>(10, {
      deliver: ({ n }) => {
        seen.push(n);
        if (n === 1) throw new Error('boom');
      },
      delivered: () => {},
      dropped: () => {},
      failed: (error) => void failures.push(error),
    });
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    queue.stop();
    queue.push({ n: 3 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([1, 2]);
    expect(failures).toHaveLength(1);
  });
});
