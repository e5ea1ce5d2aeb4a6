/**
 * /technicals shares the bot's token-technicals budget fairly: each chat (a Discord server, every
 * channel together) has its share a minute besides each person's cooldown; the token is looked up
 * first, so an address the service does not know spends no technicals request; and a spent share,
 * the chat's or the bot's, is told as the bot's own limit with when it frees up, never as the
 * service being busy. Through the Dispatcher, on the simulator, with an injected clock.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { silentLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import type { ChatRef } from '../../src/model/chat';
import { QueryService } from '../../src/query/service';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';
import { startTestMarket, TEST_API_KEY, type TestMarket } from '../support/market';

let market: TestMarket;
let tokens: string[];
let clients: MarketClient[] = [];
let nowMs = Date.parse('2025-01-15T12:00:00Z');

const groupA: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const groupB: ChatRef = { platform: 'telegram', chatId: '-1002', threadId: null, scopeId: null };

function text(card: Card): string {
  return [card.title, plainText(card.description ?? []), ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

async function dispatcherWith(options: { perChat: number; botLimit?: number }): Promise<Dispatcher> {
  const client = new MarketClient({
    baseUrl: market.sim.baseUrl,
    apiKey: TEST_API_KEY,
    logger: silentLogger,
    limits: { 'token-technicals': { limit: options.botLimit ?? 100, windowMs: 60_000 } },
    maxRateLimitWaitMs: 0,
    cacheTtlMs: { 'token-technicals': 0, 'token-data': 0 },
  });
  clients.push(client);
  const now = () => new Date(nowMs);
  const query = new QueryService(client, now, { technicalsPerChatPerMinute: options.perChat });
  return new Dispatcher({
    commands: await loadCommands(),
    services: { query },
    actionKeys: new MemoryActionKeyStore(),
    logger: silentLogger,
    now,
  });
}

async function technicals(dispatcher: Dispatcher, chat: ChatRef, userId: string, address: string): Promise<Card> {
  const caller: CommandCaller = { chat, userId, isManager: async () => false };
  const reply = await dispatcher.runLine(`/technicals ${address}`, caller);
  if (reply === null) throw new Error('not a command');
  return reply.card;
}

beforeAll(async () => {
  market = await startTestMarket();
  const hostile = new Set(market.sim.market.hostileTokens());
  tokens = market.sim.market.tokenAddresses().filter((address) => !hostile.has(address));
});

afterAll(async () => {
  await market.close();
});

afterEach(async () => {
  for (const client of clients) await client.close();
  clients = [];
});

describe('/technicals a chat a minute', () => {
  it('gives each chat its share: past it the chat is told the bot’s limit and when it frees up, while another chat is answered', async () => {
    const dispatcher = await dispatcherWith({ perChat: 2, botLimit: 100 });
    expect((await technicals(dispatcher, groupA, 'u1', tokens[0] ?? '')).color).not.toBe('error');
    nowMs += 10_000;
    expect((await technicals(dispatcher, groupA, 'u2', tokens[1] ?? '')).color).not.toBe('error');
    nowMs += 5_000;
    const refused = await technicals(dispatcher, groupA, 'u3', tokens[2] ?? '');
    expect(refused.title).toBe('This chat’s /technicals for the minute are spent');
    expect(plainText(refused.description ?? [])).toBe(
      'The bot answers 2 /technicals a minute in each chat (of the 100 a minute it may ask in all), so that every chat gets its turn. The next one frees up in 45 s.',
    );
    expect(text(refused)).not.toMatch(/service/i);
    expect((await technicals(dispatcher, groupB, 'u4', tokens[2] ?? '')).color).not.toBe('error');
    nowMs += 45_000;
    expect((await technicals(dispatcher, groupA, 'u3', tokens[2] ?? '')).color).not.toBe('error');
  });

  it('looks the token up first: an address the service does not know spends no technicals request and no share', async () => {
    const dispatcher = await dispatcherWith({ perChat: 1 });
    const unknown = `${tokens[0]?.slice(0, -4)}zzzz`;
    const asked = market.sim.stats.requests('token-technicals').length;
    const notFound = await technicals(dispatcher, groupA, 'u1', unknown);
    expect(notFound.title).toBe('Not found');
    expect(market.sim.stats.requests('token-technicals').length).toBe(asked);
    expect((await technicals(dispatcher, groupA, 'u2', tokens[3] ?? '')).color).not.toBe('error');
  });

  it('tells the bot-wide budget spent as the bot’s own limit, not the service being busy', async () => {
    const dispatcher = await dispatcherWith({ perChat: 20, botLimit: 1 });
    expect((await technicals(dispatcher, groupA, 'u1', tokens[4] ?? '')).color).not.toBe('error');
    const refused = await technicals(dispatcher, groupB, 'u2', tokens[5] ?? '');
    expect(refused.title).toBe('The bot is at its limit');
    expect(plainText(refused.description ?? [])).toMatch(
      /^The bot asks for this at most 1 time a minute, for every chat together, and that is spent for now\. The next one frees up in \d+ s\.$/,
    );
    expect(text(refused)).not.toMatch(/busy/i);
  });
});
