/**
 * /mute with 6h, 1d, 7d and forever, /unmute and /mutes, through the one Dispatcher on a real
 * SQLite file and the simulator, with the clock fixed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import { FollowService } from '../../src/follows/followService';
import { createStatusSource } from '../../src/follows/status';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';
import { startTestMarket, type TestMarket } from '../support/market';

let market: TestMarket;
let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let dispatcher: Dispatcher;
let resynced: Array<string | null>;
let token: string;
let token2: string;
let wallet: string;

const group: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const NOW = new Date('2025-01-15T12:00:00Z');

function caller(chat: ChatRef, manager = true): CommandCaller {
  return { chat, userId: manager ? 'admin' : 'member', isManager: async () => manager };
}

async function say(line: string, chat = group, manager = true) {
  const reply = await dispatcher.runLine(line, caller(chat, manager));
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply;
}

function text(card: Card): string {
  return [
    card.title,
    plainText(card.description ?? []),
    ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`),
    card.footer ?? '',
  ].join('\n');
}

beforeAll(async () => {
  market = await startTestMarket({ simulator: { tradesPerSecond: 0 } });
  const hostile = new Set(market.sim.market.hostileTokens());
  [token, token2] = market.sim.market.tokenAddresses().filter((t) => !hostile.has(t)) as [string, string];
  wallet = market.sim.market.wallets()[0] as string;
});

afterAll(async () => {
  await market.close();
});

beforeEach(async () => {
  db = tempDb();
  store = openSqliteStore(db.path);
  resynced = [];
  const follows = new FollowService({ store, logger: silentLogger, resync: async (address) => void resynced.push(address) });
  const status = createStatusSource({
    store,
    streams: () => ({
      sockets: [],
      counters: { received: 0, delivered: 0, unreadable: 0, dropped: 0, reconnects: 0, authFailures: 0, oversized: 0 },
      queuedEvents: 0,
      queuedBytes: 0,
      packing: { setting: 1, perSocket: 1, state: 'fixed', evidence: null },
      maxSockets: null,
      waitingForRoom: 0,
    }),
    startedAt: NOW.getTime() - 3_600_000,
  });
  dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query: market.query, follows, status },
    actionKeys: store.actionKeys,
    logger: silentLogger,
    now: () => NOW,
  });
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

const HOUR = 3_600_000;

describe('/mute, /unmute, /mutes', () => {
  it('mutes for 6h, 1d, 7d or forever, lists what is muted, and unmutes', async () => {
    await say(`/track token ${token}`);
    await say(`/track token ${token2}`);
    await say(`/track wallet ${wallet} <b>@everyone</b>`);
    expect(text((await say('/mutes')).card)).toContain('Nothing is muted');

    for (const [given, hours] of [
      ['6h', 6],
      ['1d', 24],
      ['7d', 168],
    ] as const) {
      expect((await say(`/mute ${token} ${given}`)).card.title).toBe('Muted');
      expect((await store.follows.get(group, token))?.mutedUntil?.getTime()).toBe(NOW.getTime() + hours * HOUR);
    }
    const forever = await say(`/mute ${wallet} forever`);
    expect(text(forever.card)).toContain('until /unmute');
    expect((await store.follows.get(group, wallet))?.mutedUntil?.getTime()).toBeGreaterThan(NOW.getTime() + 100 * 365 * 24 * HOUR);

    const listed = text((await say('/mutes')).card);
    expect(listed).toContain('2 muted');
    expect(listed).toContain(`${token} muted, for 7d`);
    expect(listed).toContain(`${wallet} muted until /unmute`);
    expect(listed).not.toContain(token2);
    // A label is strangers' text: its mention is made inert (markup is each renderer's to escape).
    expect(listed).not.toContain('@everyone');
    expect(text((await say('/following')).card)).toContain('muted until /unmute');

    expect((await say(`/unmute ${wallet}`)).card.title).toBe('Alerts resumed');
    expect((await store.follows.get(group, wallet))?.mutedUntil).toBeNull();
    expect(text((await say('/mutes')).card)).toContain('1 muted');
  });

  it('refuses a duration out of bounds or not a duration, and mutes nothing', async () => {
    await say(`/track token ${token}`);
    for (const bad of ['10s', '31d', 'always']) {
      const reply = await say(`/mute ${token} ${bad}`);
      expect(reply.card.color).toBe('error');
      expect(text(reply.card)).toContain('forever');
    }
    expect((await store.follows.get(group, token))?.mutedUntil).toBeNull();
  });
});
