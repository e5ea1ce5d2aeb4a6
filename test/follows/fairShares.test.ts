/**
 * The follow limits are fair shares: the follows cap counts a whole chat (every forum topic of a
 * group together) and a Discord server (every channel together); the live streams' budget is
 * shared so that no chat or server holds more than its share of it, told as its own share being
 * full; and a wallet is read from the service before it is followed. Through the Dispatcher, on
 * a real SQLite file and the simulator.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plainText, type Card } from '../../src/cards/card';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { FollowService, type FollowLimits } from '../../src/follows/followService';
import { silentLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import type { ChatRef } from '../../src/model/chat';
import { QueryService } from '../../src/query/service';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { tempDb } from '../delivery/helpers';
import { startTestMarket, type TestMarket } from '../support/market';

let market: TestMarket;
let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let tokens: string[];
let wallets: string[];

const NOW = new Date('2025-01-15T12:00:00Z');

function topic(threadId: string | null, chatId = '-1001'): ChatRef {
  return { platform: 'telegram', chatId, threadId, scopeId: null };
}

function channel(chatId: string, server: string): ChatRef {
  return { platform: 'discord', chatId, threadId: null, scopeId: server };
}

function text(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

async function dispatcherWith(limits: Partial<FollowLimits>, query: QueryService = market.query): Promise<Dispatcher> {
  const follows = new FollowService({ store, logger: silentLogger, resync: async () => undefined, limits });
  return new Dispatcher({
    commands: await loadCommands(),
    services: { query, follows },
    actionKeys: store.actionKeys,
    logger: silentLogger,
    now: () => NOW,
  });
}

async function say(dispatcher: Dispatcher, line: string, chat: ChatRef): Promise<Card> {
  const caller: CommandCaller = { chat, userId: 'admin', isManager: async () => true };
  const reply = await dispatcher.runLine(line, caller);
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply.card;
}

beforeAll(async () => {
  market = await startTestMarket({ simulator: { tradesPerSecond: 0 } });
  const hostile = new Set(market.sim.market.hostileTokens());
  tokens = market.sim.market.tokenAddresses().filter((address) => !hostile.has(address));
  wallets = market.sim.market.wallets();
});

afterAll(async () => {
  await market.close();
});

beforeEach(() => {
  db = tempDb();
  store = openSqliteStore(db.path);
  market.sim.faults.clear();
});

afterEach(async () => {
  market.sim.faults.clear();
  await store.close();
  db.cleanup();
});

describe('the follows cap', () => {
  it('counts every forum topic of a group together', async () => {
    const dispatcher = await dispatcherWith({ perChat: 3 });
    expect((await say(dispatcher, `/track token ${tokens[0]}`, topic('1'))).color).not.toBe('error');
    expect((await say(dispatcher, `/track token ${tokens[1]}`, topic('2'))).color).not.toBe('error');
    expect((await say(dispatcher, `/track wallet ${wallets[0]}`, topic(null))).color).not.toBe('error');
    for (const where of [topic('1'), topic('3'), topic(null)]) {
      const refused = await say(dispatcher, `/track token ${tokens[2]}`, where);
      expect(refused.title).toBe('This chat follows all it may');
      expect(plainText(refused.description ?? [])).toBe(
        'This chat already follows 3 tokens, wallets and targets (all its topics together), the most one chat may. /untrack or /untarget one first (see /following).',
      );
    }
    const target = await say(dispatcher, `/target ${tokens[2]} mcap above 1000B`, topic('3'));
    expect(target.title).toBe('This chat follows all it may');
    // Changing a follow it has is not a new one.
    expect((await say(dispatcher, `/track token ${tokens[0]} price 25`, topic('1'))).color).not.toBe('error');
    // Another group has a cap of its own.
    expect((await say(dispatcher, `/track token ${tokens[2]}`, topic(null, '-1002'))).color).not.toBe('error');
    expect((await store.follows.totals()).follows).toBe(4);
  });

  it('counts every channel of a Discord server together, besides each channel’s own cap', async () => {
    const dispatcher = await dispatcherWith({ perChat: 2, perServer: 3 });
    await say(dispatcher, `/track token ${tokens[0]}`, channel('11', 'S1'));
    await say(dispatcher, `/track token ${tokens[1]}`, channel('11', 'S1'));
    const perChannel = await say(dispatcher, `/track token ${tokens[2]}`, channel('11', 'S1'));
    expect(perChannel.title).toBe('This chat follows all it may');
    expect((await say(dispatcher, `/track token ${tokens[2]}`, channel('12', 'S1'))).color).not.toBe('error');
    const refused = await say(dispatcher, `/track token ${tokens[3]}`, channel('13', 'S1'));
    expect(refused.title).toBe('This server follows all it may');
    expect(plainText(refused.description ?? [])).toBe(
      'This server already follows 3 tokens, wallets and targets over its channels, the most one server may. /untrack or /untarget one here or in another of its channels first.',
    );
    expect((await say(dispatcher, `/track token ${tokens[3]}`, channel('21', 'S2'))).color).not.toBe('error');
  });

  it('is never overshot by changes sent together from several topics and channels', async () => {
    // Each topic and channel has its own queue: these run at once, each reading the room before writing.
    const dispatcher = await dispatcherWith({ perChat: 3, perServer: 3 });
    const group = await Promise.all(
      tokens.slice(0, 8).map((token, index) => say(dispatcher, `/track token ${token}`, topic(String(index)))),
    );
    expect(group.filter((card) => card.color !== 'error')).toHaveLength(3);
    const server = await Promise.all(
      tokens.slice(0, 8).map((token, index) => say(dispatcher, `/target ${token} mcap above ${index + 1}B`, channel(`3${index}`, 'S3'))),
    );
    expect(server.filter((card) => card.title === 'This server follows all it may')).toHaveLength(5);
    expect((await store.follows.totals()).follows).toBe(6);
  });
});

describe('the stream share', () => {
  it('refuses a chat past its share, saying it is this chat’s share that is full, while another chat still follows', async () => {
    const dispatcher = await dispatcherWith({ perChat: 100, streamShare: 2 });
    const groupA = topic(null, '-1001');
    const groupB = topic(null, '-1002');
    expect((await say(dispatcher, `/track wallet ${wallets[0]}`, groupA)).color).not.toBe('error');
    expect((await say(dispatcher, `/track wallet ${wallets[1]}`, topic('5', '-1001'))).color).not.toBe('error');
    const refused = await say(dispatcher, `/track wallet ${wallets[2]}`, groupA);
    expect(refused.title).toBe('This chat’s share of the live streams is full');
    expect(plainText(refused.description ?? [])).toBe(
      'This chat already watches 2 tokens and wallets live: its share of what the bot watches at once, kept so that every chat gets its turn. /untrack one to make room (see /following).',
    );
    expect(text(refused)).not.toMatch(/open-files|service/i);
    expect(await store.follows.get(groupA, wallets[2] ?? '')).toBeNull();
    // A target it watches already costs nothing more: a label changed, a target on a token it follows.
    expect((await say(dispatcher, `/track wallet ${wallets[0]} dev`, groupA)).color).not.toBe('error');
    // The same wallets count for another chat too, though they cost one subscription.
    expect((await say(dispatcher, `/track wallet ${wallets[0]}`, groupB)).color).not.toBe('error');
    expect((await say(dispatcher, `/track wallet ${wallets[1]}`, groupB)).color).not.toBe('error');
    expect((await say(dispatcher, `/track wallet ${wallets[2]}`, groupB)).title).toBe('This chat’s share of the live streams is full');
    expect((await say(dispatcher, `/track wallet ${wallets[2]}`, topic(null, '-1003'))).color).not.toBe('error');
  });

  it('counts a Discord server’s channels together', async () => {
    const dispatcher = await dispatcherWith({ perChat: 100, streamShare: 1 });
    expect((await say(dispatcher, `/track token ${tokens[0]}`, channel('11', 'S1'))).color).not.toBe('error');
    expect((await say(dispatcher, `/track token ${tokens[0]}`, channel('12', 'S1'))).color).not.toBe('error');
    const refused = await say(dispatcher, `/track token ${tokens[1]}`, channel('12', 'S1'));
    expect(refused.title).toBe('This server’s share of the live streams is full');
    expect(plainText(refused.description ?? [])).toBe(
      'This server already watches 1 token or wallet live over its channels: its share of what the bot watches at once, kept so that every server gets its turn. /untrack one to make room (see /following).',
    );
  });
});

describe('a wallet is read before it is followed', () => {
  it('is not followed when the service’s answer about it cannot be read', async () => {
    const dispatcher = await dispatcherWith({});
    market.sim.faults.set({ 'wallet-tracker': { script: ['malformed'] } });
    // A wallet no other case asked about: the client keeps answers for a few seconds.
    const refused = await say(dispatcher, `/track wallet ${wallets[4]}`, topic(null));
    expect(refused.color).toBe('error');
    expect(refused.title).toBe('Unreadable answer');
    expect(await store.follows.get(topic(null), wallets[4] ?? '')).toBeNull();
    expect(market.sim.stats.requests('wallet-tracker').length).toBeGreaterThan(0);
  });

  it('follows an address with no trades yet, counted against the chat’s share', async () => {
    const dispatcher = await dispatcherWith({ streamShare: 1 });
    const fresh = `${wallets[0]?.slice(0, -4)}zzzz`;
    expect((await say(dispatcher, `/track wallet ${fresh}`, topic(null))).color).not.toBe('error');
    expect((await say(dispatcher, `/track wallet ${wallets[1]}`, topic(null))).title).toBe('This chat’s share of the live streams is full');
  });

  describe('an address the service refuses', () => {
    let server: Server;
    let query: QueryService;
    beforeAll(async () => {
      server = createServer((request, response) => {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'Invalid address', message: 'Invalid wallet address' }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      query = new QueryService(
        new MarketClient({
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          apiKey: 'k',
          logger: silentLogger,
          maxRetries: 0,
        }),
      );
    });
    afterAll(async () => {
      await query.client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('is refused with a clear message and not followed', async () => {
      const dispatcher = await dispatcherWith({}, query);
      const address = wallets[0] ?? '';
      const refused = await say(dispatcher, `/track wallet ${address}`, topic(null));
      expect(refused.title).toBe('/track: the market data service does not know this wallet address');
      expect(plainText(refused.description ?? [])).toContain(
        `It refused ${address} as a wallet address, so nothing was followed. Check that it is the whole address of a Solana wallet.`,
      );
      expect(await store.follows.get(topic(null), address)).toBeNull();
    });
  });
});
