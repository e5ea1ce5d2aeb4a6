/** The footer's timing line: from a trade's or a record's own time, sent per chat; nothing for an event without one. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timingLine, withTiming } from '../../src/delivery/timingFooter';
import type { AlertEvent, WalletTradeEvent } from '../../src/model/events';
import { detectWhale } from '../../src/alerts/kinds/whale';
import { tokenSnapshot } from '../store/helpers';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { Clock, RecordingSender, chat, priceEvent, simpleAlertCard, tempDb, testDelivery } from './helpers';

const TRADE_S = 1_700_000_000;

function trade(seenAt: number): WalletTradeEvent {
  return {
    key: 'trade:1',
    kind: 'wallet-trade',
    at: seenAt,
    token: { address: 'TokenAddress1111111111111111111111111111111', symbol: 'TOK', name: 'Token' },
    wallet: 'Wallet111',
    side: 'buy',
    tokenAmount: '1000',
    decimals: 0,
    nativeAmount: null,
    amountUsd: null,
    price: null,
    transactionHash: 'tx1',
    timestamp: TRADE_S,
  };
}

describe('timingLine', () => {
  it('says how long after the trade it was seen and how long after that it was sent', () => {
    expect(timingLine(trade(TRADE_S * 1000 + 2_000), new Date(TRADE_S * 1000 + 3_000))).toBe('seen 2s after the trade · sent 1s later');
    expect(timingLine(trade(TRADE_S * 1000 + 2_000), new Date(TRADE_S * 1000 + 302_000))).toBe('seen 2s after the trade · sent 5m later');
  });

  it('times a holder alert from its record’s syncedAt, and an unreadable one not at all', () => {
    const last = { ...tokenSnapshot('Tok1111'), totalSupply: '1000', whales: {}, holdersSeenAt: 1 };
    const whaleFrom = (syncedAt: string | undefined) =>
      detectWhale(last, { holder: { address: 'W1', currentlyHoldingAmount: 50n, syncedAt }, snapshot: false, at: TRADE_S * 1000 + 4_000 });
    const [timed] = whaleFrom(new Date(TRADE_S * 1000).toISOString());
    expect(timed?.kind).toBe('whale');
    expect(timingLine(timed as AlertEvent, new Date(TRADE_S * 1000 + 5_000))).toBe('seen 4s after the update · sent 1s later');
    for (const syncedAt of [undefined, 'not a time']) {
      const [untimed] = whaleFrom(syncedAt);
      expect(timingLine(untimed as AlertEvent, new Date())).toBeNull();
    }
  });

  it('says nothing for an event with no time of its own', () => {
    const card = simpleAlertCard({ key: 'p' }, null);
    expect(timingLine(priceEvent('p'), new Date())).toBeNull();
    expect(withTiming(card, priceEvent('p'), new Date())).toBe(card);
  });
});

let db: { path: string; cleanup: () => void };
let store: SqliteStore;
beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
});
afterEach(async () => {
  await store.close();
  db.cleanup();
});

describe('a delivered trade alert', () => {
  it('carries the timing line in its footer, after the card’s own', async () => {
    const clock = new Clock(TRADE_S * 1000 + 2_000);
    await store.outbox.add([{ event: trade(clock.ms), to: [{ chat: chat('c'), label: null }] }], clock.now());
    clock.advance(1_000);
    const sender = new RecordingSender('telegram');
    const delivery = testDelivery(store, [sender], clock, {
      alertCard: (event, label) => ({ ...simpleAlertCard(event, label), footer: 'Wallet111' }),
    });
    await delivery.drain();
    await delivery.stop();
    expect(sender.sent[0]?.card.footer).toBe('Wallet111 · seen 2s after the trade · sent 1s later');
  });
});
