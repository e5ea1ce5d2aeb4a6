/**
 * A send that failed after the platform may have taken it (a timeout, a lost answer) goes out again
 * as the same message, on both stores: the same rows under the same send key, first, and the
 * alerts written since after it, whatever their number. A platform that posts a key once (Discord's
 * nonce) then shows every alert once; merged with the newer alerts into a digest, it would show
 * the first ones twice.
 */
import { describe, expect, it } from 'vitest';
import type { AlertSender } from '../../src/delivery/sender';
import { Clock, chat, commitAlerts, testDelivery } from '../delivery/helpers';
import { KeyedPlatform } from '../delivery/keyedPlatform';
import { STORE_KINDS, eachStore, type ContractStore } from './support/stores';

/** A sender whose first send reaches the platform and whose answer is lost; every later one is answered. */
function answerLostOnce(platform: KeyedPlatform): AlertSender {
  let sends = 0;
  return {
    platform: 'discord',
    async send(_chat, card, _buttons, key) {
      platform.post(card, key);
      sends += 1;
      return sends === 1 ? { status: 'retry', afterMs: null, reason: 'socket hang up' } : { status: 'sent' };
    },
  };
}

const channel = chat('channel-1', 'discord');
const keys = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`);

describe.each(STORE_KINDS)('a send whose answer was lost, on %s', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => {
    store = opened.store;
  });

  async function lostThenDrained(first: string[], then: string[]): Promise<KeyedPlatform> {
    const platform = new KeyedPlatform();
    const clock = new Clock();
    const delivery = testDelivery(store, [answerLostOnce(platform)], clock);
    try {
      await commitAlerts(store, first, [channel], clock.now());
      await delivery.drain();
      expect(platform.handed).toHaveLength(1);
      await commitAlerts(store, then, [channel], clock.now());
      clock.advance(60_000);
      await delivery.drain();
    } finally {
      await delivery.stop();
    }
    expect(platform.shown()).toEqual([...first, ...then].map((key) => `alert ${key}`).sort());
    expect(platform.handed[1]?.key).toBe(platform.handed[0]?.key);
    expect((await store.outbox.pending()).count).toBe(0);
    return platform;
  }

  it('sends an alert again alone, though more than a digest’s worth wait behind it now', async () => {
    const platform = await lostThenDrained(['first'], keys('then', 5));
    expect(platform.handed.map((message) => message.alerts.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('sends a digest again as that digest, and the alerts written since after it', async () => {
    const platform = await lostThenDrained(keys('first', 6), keys('then', 2));
    expect(platform.handed.map((message) => message.alerts.length)).toEqual([6, 6, 1, 1]);
  });
});
