/**
 * A sender lease taken over on PostgreSQL (two stores on one database, as two processes are): the
 * sender that died had handed a message to its platform and not yet marked its rows delivered.
 * The new holder (src/cluster/parts.ts → src/delivery/ → the outbox's takeOverClaims) sends those
 * rows again as the very message they went out as, with the same send key, whatever came in since:
 * a platform that posts a key once (Discord's nonce) shows every alert once, digests included.
 * Merged with newer rows into another digest, they would show twice.
 */
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { memberParts } from '../../src/cluster/parts';
import type { Delivery } from '../../src/delivery/delivery';
import type { AlertSender, SendOutcome } from '../../src/delivery/sender';
import { silentLogger } from '../../src/log';
import type { ChatRef } from '../../src/model/chat';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';
import { Clock, chat, commitAlerts, testDelivery } from '../delivery/helpers';
import { KeyedPlatform } from '../delivery/keyedPlatform';

const shared = inject('postgres');

/** A sender that hands its first `marked` messages over and hears back, then hands one over and dies before it hears back. */
function dyingSender(platform: KeyedPlatform, marked: number): AlertSender {
  let sent = 0;
  return {
    platform: 'discord',
    send(_chat, card, _buttons, key): Promise<SendOutcome> {
      platform.post(card, key);
      sent += 1;
      return sent <= marked ? Promise.resolve({ status: 'sent' }) : new Promise(() => undefined);
    },
  };
}

function liveSender(platform: KeyedPlatform): AlertSender {
  return {
    platform: 'discord',
    async send(_chat, card, _buttons, key) {
      platform.post(card, key);
      return { status: 'sent' };
    },
  };
}

describe.runIf(shared.adminUrl !== null)('a sender lease taken over from a sender that died between a send and its mark', () => {
  let drop: () => Promise<void>;
  let stores: PostgresStore[] = [];
  let deliveries: Delivery[] = [];
  let dead: PostgresStore;
  let taker: PostgresStore;
  const channel: ChatRef = chat('channel-1', 'discord');
  const clock = new Clock();

  beforeEach(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    drop = database.drop;
    dead = await openPostgresStore(database.url);
    taker = await openPostgresStore(database.url);
    stores = [dead, taker];
  });

  afterEach(async () => {
    for (const delivery of deliveries.splice(0)) await delivery.stop();
    for (const store of stores.splice(0)) await store.close();
    await drop?.();
  });

  /** The dead sender's delivery: left running, its last send never answered, as a killed process leaves it. */
  async function dieSending(platform: KeyedPlatform, marked: number, handed: number): Promise<void> {
    const dying = testDelivery(dead, [dyingSender(platform, marked)], clock);
    void dying.drain();
    await vi.waitFor(() => expect(platform.handed).toHaveLength(handed), { timeout: 10_000 });
  }

  /** The standby takes the lease (its part as src/cluster/ calls it) and drains. */
  async function takeOver(platform: KeyedPlatform): Promise<void> {
    clock.advance(10_000);
    const delivery = testDelivery(taker, [liveSender(platform)], clock);
    deliveries.push(delivery);
    const parts = memberParts({
      roles: new Set(['sender']),
      store: taker,
      watcher: {
        forgetWhere: () => undefined,
        letGoOutOfScope: () => undefined,
        resync: async () => undefined,
        sync: async () => undefined,
      },
      reconcile: { runNow: async () => ({ tokens: 0, wallets: 0, requests: 0, failures: 0, rows: 0 }) },
      delivery,
      digests: { changed: async () => undefined },
      leased: [],
      logger: silentLogger,
    });
    await parts.leaseChanged('sender:discord', true);
    await delivery.drain();
  }

  it('sends a digest the dead sender had handed over again as that digest, and the newer alerts after it', async () => {
    const platform = new KeyedPlatform();
    const round1 = ['r1-a', 'r1-b', 'r1-c', 'r1-d', 'r1-e', 'r1-f'];
    await commitAlerts(dead, round1, [channel], clock.now());
    await dieSending(platform, 0, 1);
    expect(platform.handed[0]?.alerts).toHaveLength(6);
    // Two alerts of the next round are written before the standby takes over.
    await commitAlerts(taker, ['r2-a', 'r2-b'], [channel], clock.now());
    await takeOver(platform);

    expect(platform.shown()).toEqual([...round1, 'r2-a', 'r2-b'].map((key) => `alert ${key}`).sort());
    // The same message again (the same rows, the same key), then the newer alerts on their own.
    expect(platform.handed.slice(1).map((message) => message.key)).toEqual([
      platform.handed[0]?.key,
      expect.not.stringMatching(/\./),
      expect.not.stringMatching(/\./),
    ]);
    expect((await taker.outbox.pending()).count).toBe(0);
  });

  it('sends alerts the dead sender was sending one by one again one by one, though more than a digest’s worth wait now', async () => {
    const platform = new KeyedPlatform();
    const round1 = ['r1-a', 'r1-b', 'r1-c'];
    await commitAlerts(dead, round1, [channel], clock.now());
    // The first goes and is marked; the second is handed over as the process dies.
    await dieSending(platform, 1, 2);
    const round2 = ['r2-a', 'r2-b', 'r2-c', 'r2-d'];
    await commitAlerts(taker, round2, [channel], clock.now());
    await takeOver(platform);

    expect(platform.shown()).toEqual([...round1, ...round2].map((key) => `alert ${key}`).sort());
    expect(platform.handed[2]?.key).toBe(platform.handed[1]?.key);
    expect((await taker.outbox.pending()).count).toBe(0);
  });
});
