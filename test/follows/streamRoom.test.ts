/**
 * /track against live streams with room for two sockets: the real stream client and watcher over
 * the simulator, the real store, the Dispatcher. A follow that needs a socket the limit does not
 * leave is refused with the reason and not stored; one that needs none still goes through; /status
 * shows the limit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { FollowService } from '../../src/follows/followService';
import { createStatusSource } from '../../src/follows/status';
import { streamRoom } from '../../src/follows/streamRoom';
import { createLogger } from '../../src/log';
import { StreamClient } from '../../src/market/stream';
import type { ChatRef } from '../../src/model/chat';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { createWatcher, type Watcher } from '../../src/watch/watcher';
import { tempDb } from '../delivery/helpers';
import { startTestMarket, TEST_API_KEY, type TestMarket } from '../support/market';

const chat: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const caller: CommandCaller = { chat, userId: 'admin', isManager: async () => true };

let market: TestMarket;
let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let streams: StreamClient;
let watcher: Watcher;
let dispatcher: Dispatcher;
let logLines: string[];
let tokens: string[];

function text(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

async function say(line: string) {
  const reply = await dispatcher.runLine(line, caller);
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply;
}

beforeAll(async () => {
  market = await startTestMarket();
  const hostile = new Set(market.sim.market.hostileTokens());
  tokens = market.sim.market.tokenAddresses().filter((address) => !hostile.has(address));
});

afterAll(async () => {
  await market.close();
});

beforeEach(async () => {
  db = tempDb();
  store = openSqliteStore(db.path);
  logLines = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  streams = new StreamClient({ wsUrl: market.sim.wsUrl, apiKey: TEST_API_KEY, subscriptionsPerSocket: 1, maxSockets: 2 });
  watcher = createWatcher({ store, streams });
  const openFiles = { soft: 130, hard: 130, raisedFrom: null, notRaised: null };
  const follows = new FollowService({
    store,
    logger,
    resync: (address) => watcher.resync(address ?? undefined),
    room: streamRoom({ store, streams, openFiles }),
  });
  const status = createStatusSource({ store, streams: () => streams.status(), startedAt: Date.now(), openFiles });
  dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query: market.query, follows, status },
    actionKeys: store.actionKeys,
    logger,
  });
});

afterEach(async () => {
  await watcher.close();
  await streams.close();
  await store.close();
  db.cleanup();
});

describe('a follow that needs a socket the limit does not leave', () => {
  it('is refused with the reason, logged and not stored; one that needs no new socket goes through', async () => {
    const [first = '', second = ''] = tokens;
    // Price alerts only: token-feed alone, one socket.
    expect((await say(`/track token ${first} price`)).errorId).toBeNull();
    expect(streams.status().sockets).toHaveLength(1);
    // Whales too: holders-live, the second and last socket.
    expect((await say(`/track token ${first} price,whale`)).errorId).toBeNull();
    expect(streams.status().sockets).toHaveLength(2);

    const refused = await say(`/track token ${second}`);
    expect(refused.errorId).toBeNull();
    expect(refused.card.title).toBe('/track: the bot already watches as much as its open-files limit (130 files) allows');
    expect(text(refused.card)).toContain('All 2 live stream sockets it allows are in use, so this follow was not added.');
    expect(text(refused.card)).toContain('ulimit -n');
    expect(await store.follows.get(chat, second)).toBeNull();
    const wallet = market.sim.market.wallets()[0] ?? '';
    expect((await say(`/track wallet ${wallet}`)).card.title).toMatch(/^\/track: the bot already watches/);
    expect(await store.follows.get(chat, wallet)).toBeNull();
    const warnings = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'follow refused: the live streams are at the open-files limit');
    expect(warnings.map((line) => line.address)).toEqual([second, wallet]);

    // Changing what the first token alerts on needs no new socket.
    const changed = await say(`/track token ${first} risk,whale`);
    expect(changed.errorId).toBeNull();
    expect((await store.follows.get(chat, first))?.options.events).toEqual(['risk-status', 'risk-flag', 'whale']);

    const status = text((await say('/status')).card);
    expect(status).toContain(
      'At the open-files limit: 2 stream sockets, all that 130 open files allow, are in use: new follows that need one are refused.',
    );
    expect(status).toContain('Stream sockets: one subscription a socket (set)');

    // /untrack frees room.
    expect((await say(`/untrack ${first}`)).errorId).toBeNull();
    expect(streams.status().sockets).toHaveLength(0);
    expect((await say(`/track token ${second}`)).errorId).toBeNull();
    expect(text((await say('/status')).card)).not.toContain('At the open-files limit');
  });
});
