/**
 * One channel flooding the bot delays no other, on Discord: 2,000 commands from one channel, then
 * /token from another, through the real discord.js against the local fake Discord, the real
 * Dispatcher, the simulator and a SQLite store. The flooding channel's commands are held (a test
 * command that waits until the test lets it go), so the order of events is exact: the other
 * channel is answered while the flooding channel's first command still runs and 20 wait; the
 * 1,979 past the cap are each answered ephemerally, "Too many commands at once…"; those
 * waiting are deferred within Discord's three seconds though their turn has not come.
 *
 * The time to answer the other channel and the process's memory are printed, not asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, type Card } from '../../../src/cards/card';
import { DEFAULT_SKIPPED_REPLIES } from '../../../src/chats/discord/skippedReplies';
import { startDiscordChat, type DiscordChat } from '../../../src/chats/discord/start';
import { DEFAULT_CHAT_QUEUE, SKIPPED_NOTICE } from '../../../src/dispatch/chatQueue';
import { defineCommand } from '../../../src/dispatch/command';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { loadCommands } from '../../../src/dispatch/registry';
import { silentLogger } from '../../../src/log';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { FakeDiscord, nextSnowflake, type SentInteraction } from '../../support/discord/fakeDiscord';
import { startTestMarket, type TestMarket } from '../../support/market';

const FLOOD = 2_000;
const TOKEN = 'FAKE.flood-token.1234567890abcdefghij';
const APP_ID = nextSnowflake();
const GUILD = nextSnowflake();
const FLOODED = nextSnowflake();
const OTHER = nextSnowflake();

/** Lets the held commands finish. */
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
const hold = defineCommand({
  name: 'hold',
  description: 'Answers once the test lets it',
  help: 'Waits for the test.',
  options: [],
  run: async (): Promise<Card> => {
    await released;
    return { title: 'Held', color: 'info', fields: [field('Waited', 'for the test')], actions: [] };
  },
});

let market: TestMarket;
let store: SqliteStore;
let fake: FakeDiscord;
let chat: DiscordChat;
let dir: string;

beforeAll(async () => {
  market = await startTestMarket({ client: { cacheTtlMs: { 'token-data': 0 } } });
  dir = mkdtempSync(join(tmpdir(), 'tokenwatch-discord-flood-'));
  store = openSqliteStore(join(dir, 'tokenwatch.db'));
  const dispatcher = new Dispatcher({
    commands: [...(await loadCommands()), hold],
    services: { query: market.query },
    actionKeys: store.actionKeys,
    logger: silentLogger,
  });
  fake = await FakeDiscord.start({
    appId: APP_ID,
    token: TOKEN,
    guilds: [
      {
        id: GUILD,
        name: 'Busy server',
        channels: [
          { id: FLOODED, name: 'flooded' },
          { id: OTHER, name: 'other' },
        ],
      },
    ],
  });
  // Deferral soon after arrival, so that the waiting commands are seen deferred while they are held;
  // every skipped one answered however loaded the machine (Discord itself would refuse the late ones).
  chat = await startDiscordChat({
    token: TOKEN,
    appId: APP_ID,
    restApi: fake.restApi,
    dispatcher,
    store,
    logger: silentLogger,
    deferAfterMs: 200,
    skippedReplies: { ...DEFAULT_SKIPPED_REPLIES, giveUpAfterMs: 120_000 },
  });
});

afterAll(async () => {
  release();
  await chat?.stop();
  await fake?.close();
  await store?.close();
  await market?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The type of each interaction's first callback (4 answered, 5 deferred), by interaction token. */
function firstCallbacks(): Map<string, { type: unknown; content: unknown; flags: unknown }> {
  const first = new Map<string, { type: unknown; content: unknown; flags: unknown }>();
  for (const request of fake.requests) {
    const match = /^\/interactions\/\d+\/([^/]+)\/callback$/.exec(request.path);
    if (match === null || first.has(match[1] ?? '')) continue;
    const body = request.body as { type?: unknown; data?: { content?: unknown; flags?: unknown } } | null;
    first.set(match[1] ?? '', { type: body?.type, content: body?.data?.content, flags: body?.data?.flags });
  }
  return first;
}

describe('a Discord channel that floods the bot', () => {
  it('delays no other channel; past 20 waiting, each command is told it was skipped', async () => {
    const address = market.listing.tokens[0]?.address ?? '';
    const floodKey = `discord:${FLOODED}`;
    const rssBefore = process.memoryUsage().rss;
    const flood: SentInteraction[] = [];
    for (let i = 0; i < FLOOD; i++)
      flood.push(
        fake.slashCommand('hold', {}, { guildId: GUILD, channelId: FLOODED, userId: String(300_000_000_000_000_000n + BigInt(i)) }),
      );
    const asked = performance.now();
    const other = fake.slashCommand('token', { address }, { guildId: GUILD, channelId: OTHER });

    const answer = await fake.answerTo(other, 30_000);
    const answerMs = performance.now() - asked;
    // The flooding channel's first command still runs and 20 wait: the other channel did not wait for them.
    expect(chat.queue.pending(floodKey)).toBe(DEFAULT_CHAT_QUEUE.maxWaiting + 1);
    expect(answer.ephemeral).toBe(false);
    expect(JSON.stringify(answer.body.embeds)).toContain(address);

    // Every interaction of the burst has been handed over: 21 taken, the rest skipped.
    await fake.until(() => chat.queue.counts().accepted + chat.queue.counts().dropped === FLOOD + 1, 60_000, 'the whole burst handed over');
    const counts = chat.queue.counts();
    expect(counts.accepted).toBe(DEFAULT_CHAT_QUEUE.maxWaiting + 2);
    expect(counts.dropped).toBe(FLOOD - DEFAULT_CHAT_QUEUE.maxWaiting - 1);
    const queued = flood.slice(0, DEFAULT_CHAT_QUEUE.maxWaiting + 1);
    const skipped = flood.slice(DEFAULT_CHAT_QUEUE.maxWaiting + 1);
    // Each skipped one answered, to its sender alone; each queued one deferred though still held.
    let seen = 0;
    let callbacks = 0;
    await fake.until(
      () => {
        for (; seen < fake.requests.length; seen++) if (fake.requests[seen]?.path.endsWith('/callback') === true) callbacks += 1;
        return callbacks >= FLOOD + 1;
      },
      60_000,
      'a first answer to every interaction of the burst',
    );
    const first = firstCallbacks();
    for (const interaction of skipped) expect(first.get(interaction.token)).toEqual({ type: 4, content: SKIPPED_NOTICE, flags: 64 });
    for (const interaction of queued) expect(first.get(interaction.token)?.type).toBe(5);
    expect(fake.channelMessages(FLOODED)).toEqual([]);

    release();
    for (const interaction of queued) expect(JSON.stringify((await fake.answerTo(interaction, 30_000)).body.embeds)).toContain('Held');
    expect(chat.queue.pending(floodKey)).toBe(0);
    const rssAfter = process.memoryUsage().rss;

    console.log(
      `Discord flood: ${FLOOD} commands from one channel; /token from another answered in ${Math.round(answerMs)} ms, ` +
        `while the flooding channel had ${DEFAULT_CHAT_QUEUE.maxWaiting + 1} in its queue; ${counts.dropped} skipped, each told so ephemerally; ` +
        `RSS ${mb(rssBefore)} MB before, ${mb(rssAfter)} MB after`,
    );
  }, 120_000);
});
