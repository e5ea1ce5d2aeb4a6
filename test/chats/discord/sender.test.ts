/**
 * The alert sender's decisions, against the fake Discord's REST over a real socket (through
 * discord.js's own REST client): what is sent, at what pace, and which failures pause a channel.
 * The pacer runs on a manual clock, so no test waits for real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAPIError, HTTPError, REST } from 'discord.js';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { field, type Card } from '../../../src/cards/card';
import type { ChatRef } from '../../../src/model/chat';
import { ChannelPacer, type PacerClock } from '../../../src/chats/discord/pacer';
import { discordRestOptions } from '../../../src/chats/discord/restOptions';
import { DiscordAlertSender, outcomeOfError } from '../../../src/chats/discord/sender';
import { silentLogger } from '../../../src/log';
import { DISCORD_ERRORS, FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';

class ManualClock implements PacerClock {
  t = 1_000_000;
  readonly sleeps: number[] = [];
  now = () => this.t;
  sleep = async (ms: number) => {
    this.sleeps.push(ms);
    this.t += ms;
  };
}

/** Sleeps end in time order, each once everything woken before it has run: concurrent waits without real time. */
class SchedulerClock implements PacerClock {
  t = 0;
  private timers: Array<{ at: number; resolve: () => void }> = [];
  now = () => this.t;
  sleep = (ms: number) => new Promise<void>((resolve) => this.timers.push({ at: this.t + ms, resolve }));
  async run(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }
}

const TOKEN = 'sender-test-token';
const GUILD = nextSnowflake();
const OK = nextSnowflake();
const FORBIDDEN = nextSnowflake();
const DELETED = nextSnowflake();
const NO_PERMISSION = nextSnowflake();
let fake: FakeDiscord;
let rest: REST;

beforeAll(async () => {
  fake = await FakeDiscord.start({
    appId: nextSnowflake(),
    token: TOKEN,
    guilds: [{ id: GUILD, name: 'S', channels: [OK, FORBIDDEN, DELETED, NO_PERMISSION].map((id) => ({ id, name: id })) }],
  });
  fake.failChannel(FORBIDDEN, DISCORD_ERRORS.missingAccess);
  fake.failChannel(DELETED, DISCORD_ERRORS.unknownChannel);
  fake.failChannel(NO_PERMISSION, DISCORD_ERRORS.missingPermissions);
  rest = new REST({ ...discordRestOptions(fake.restApi), retries: 0 }).setToken(TOKEN);
});
afterAll(async () => {
  await fake.close();
});

const chat = (chatId: string): ChatRef => ({ platform: 'discord', chatId, threadId: null, scopeId: GUILD });
const card: Card = {
  title: '@everyone risk <@&1> changed',
  color: 'danger',
  fields: [field('Status', 'SAFE → DANGER')],
  actions: [],
  image: { filename: 'move.png', contentType: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
};

describe('DiscordAlertSender', () => {
  it('posts the embed with its picture and buttons, mentions off', async () => {
    const sender = new DiscordAlertSender({ rest, logger: silentLogger });
    expect(await sender.send(chat(OK), card, [{ label: 'Token', key: 'abcDEF123_-' }])).toEqual({ status: 'sent' });
    const [message] = fake.channelMessages(OK);
    expect(message?.body.allowed_mentions).toEqual({ parse: [] });
    expect((message?.body.embeds as Array<{ image: { url: string } }>)[0]?.image.url).toBe('attachment://move.png');
    expect(message?.files.map((f) => [f.filename, f.contentType, [...f.data]])).toEqual([
      ['move.png', 'image/png', [0x89, 0x50, 0x4e, 0x47]],
    ]);
    expect((message?.body.components as Array<{ components: Array<{ custom_id: string }> }>)[0]?.components[0]?.custom_id).toBe(
      'abcDEF123_-',
    );
  });

  it('uploads the picture whichever undici owns the process-wide dispatcher', async () => {
    // The bot's own undici (the market client's) may load before discord.js's and own it.
    const before = getGlobalDispatcher();
    const agent = new Agent();
    setGlobalDispatcher(agent);
    try {
      const sender = new DiscordAlertSender({
        rest: new REST({ ...discordRestOptions(fake.restApi), retries: 0 }).setToken(TOKEN),
        logger: silentLogger,
      });
      const sent = fake.channelMessages(OK).length;
      expect(await sender.send(chat(OK), card, [])).toEqual({ status: 'sent' });
      expect(
        fake
          .channelMessages(OK)
          .slice(sent)
          .map((m) => m.files.map((f) => [f.filename, [...f.data]])),
      ).toEqual([[['move.png', [0x89, 0x50, 0x4e, 0x47]]]]);
    } finally {
      setGlobalDispatcher(before);
      await agent.close();
    }
  });

  it('reports Missing Access, Unknown Channel and Missing Permissions as gone, after one request each', async () => {
    const sender = new DiscordAlertSender({ rest, logger: silentLogger });
    for (const [channel, reason] of [
      [FORBIDDEN, /Missing Access \(50001\)/],
      [DELETED, /Unknown Channel \(10003\)/],
      [NO_PERMISSION, /Missing Permissions \(50013\)/],
    ] as const) {
      const outcome = await sender.send(chat(channel), card, []);
      expect(outcome.status).toBe('gone');
      expect(outcome.status === 'gone' ? outcome.reason : '').toMatch(reason);
      expect(fake.requests.filter((r) => r.path === `/channels/${channel}/messages`)).toHaveLength(1);
    }
  });

  it('answers sends that waited for their slot as gone without asking Discord again', async () => {
    const clock = new ManualClock();
    let release: () => void = () => undefined;
    // The pacer lets the first send go, then holds the others until the first has failed.
    const held = new Promise<void>((resolve) => (release = resolve));
    const pacer = new ChannelPacer(1, 5000, {
      now: clock.now,
      sleep: async (ms) => {
        await held;
        await clock.sleep(ms);
      },
    });
    const sender = new DiscordAlertSender({ rest, logger: silentLogger, pacer, now: clock.now });
    const channel = nextSnowflake();
    fake.options.guilds[0]!.channels.push({ id: channel, name: 'late' });
    fake.failChannel(channel, DISCORD_ERRORS.missingAccess);
    const first = sender.send(chat(channel), card, []);
    const second = sender.send(chat(channel), card, []);
    expect((await first).status).toBe('gone');
    release();
    expect((await second).status).toBe('gone');
    expect(fake.requests.filter((r) => r.path === `/channels/${channel}/messages`)).toHaveLength(1);
    // A later send (the channel was resumed) is tried afresh.
    fake.failChannel(channel, null);
    expect((await sender.send(chat(channel), card, [])).status).toBe('sent');
  });
});

describe('outcomeOfError', () => {
  const apiError = (status: number, code: number) =>
    new DiscordAPIError({ message: 'x', code }, code, status, 'POST', '/channels/1/messages', {});
  it('maps Discord answers to gone, retry or a long retry', () => {
    expect(outcomeOfError(apiError(404, 10003)).status).toBe('gone');
    expect(outcomeOfError(apiError(403, 50001)).status).toBe('gone');
    expect(outcomeOfError(apiError(403, 50013)).status).toBe('gone');
    expect(outcomeOfError(apiError(403, 0)).status).toBe('gone');
    expect(outcomeOfError(apiError(404, 0)).status).toBe('gone');
    expect(outcomeOfError(apiError(401, 0))).toMatchObject({ status: 'retry', afterMs: 600_000 });
    expect(outcomeOfError(apiError(400, 50035))).toMatchObject({ status: 'retry' });
    expect(outcomeOfError(new HTTPError(503, 'Service Unavailable', 'POST', '/x', {}))).toMatchObject({ status: 'retry', afterMs: null });
    expect(outcomeOfError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toMatchObject({
      status: 'retry',
      reason: 'network: ECONNRESET',
    });
  });
});

describe('ChannelPacer', () => {
  it('lets five through in any five seconds per channel, each channel on its own', async () => {
    const clock = new ManualClock();
    const pacer = new ChannelPacer(5, 5000, clock);
    for (let i = 0; i < 5; i += 1) {
      await pacer.take('a');
      clock.t += 100;
    }
    expect(clock.sleeps).toEqual([]);
    await pacer.take('b');
    expect(clock.sleeps).toEqual([]);
    await pacer.take('a');
    // The first of the five was 500 ms ago: the sixth waits until it leaves the window.
    expect(clock.sleeps).toEqual([4500]);
    expect(pacer.delayFor('a')).toBeGreaterThan(0);
    clock.t += 60_000;
    expect(pacer.delayFor('a')).toBe(0);
    expect(pacer.delayFor('b')).toBe(0);
    expect(pacer.size).toBe(0);
  });

  it('never lets six sends into one window, however they interleave', async () => {
    const clock = new SchedulerClock();
    const pacer = new ChannelPacer(5, 5000, clock);
    const times: number[] = [];
    const all = Promise.all(
      Array.from({ length: 23 }, async () => {
        await pacer.take('c');
        times.push(clock.t);
      }),
    );
    await clock.run();
    await all;
    expect(times).toHaveLength(23);
    times.sort((x, y) => x - y);
    for (let i = 5; i < times.length; i += 1) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(5000);
  });
});
