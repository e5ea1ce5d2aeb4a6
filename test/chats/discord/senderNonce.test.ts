/**
 * An alert's send key travels as the message's nonce with enforce_nonce, so that the same send
 * made again (after a crash, before it was marked delivered) posts once; against the fake Discord,
 * which answers a repeated nonce with the message it already posted, as Discord does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST } from 'discord.js';
import { field, type Card } from '../../../src/cards/card';
import type { ChatRef } from '../../../src/model/chat';
import { discordRestOptions } from '../../../src/chats/discord/restOptions';
import { DiscordAlertSender, MAX_NONCE_LENGTH, nonceOf } from '../../../src/chats/discord/sender';
import { silentLogger } from '../../../src/log';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';

const TOKEN = 'nonce-test-token';
const GUILD = nextSnowflake();
const CHANNEL = nextSnowflake();
const OTHER = nextSnowflake();
let fake: FakeDiscord;
let sender: DiscordAlertSender;

beforeAll(async () => {
  fake = await FakeDiscord.start({
    appId: nextSnowflake(),
    token: TOKEN,
    guilds: [{ id: GUILD, name: 'S', channels: [CHANNEL, OTHER].map((id) => ({ id, name: id })) }],
  });
  sender = new DiscordAlertSender({
    rest: new REST({ ...discordRestOptions(fake.restApi), retries: 0 }).setToken(TOKEN),
    logger: silentLogger,
  });
});
afterAll(async () => {
  await fake.close();
});

const chat = (chatId: string): ChatRef => ({ platform: 'discord', chatId, threadId: null, scopeId: GUILD });
const card: Card = { title: 'Risk changed', color: 'danger', fields: [field('Status', 'SAFE → DANGER')], actions: [] };

describe('the send key as nonce', () => {
  it('posts once for a send made twice with one key, and again for another key', async () => {
    expect(await sender.send(chat(CHANNEL), card, [], 'tw101')).toEqual({ status: 'sent' });
    expect(await sender.send(chat(CHANNEL), card, [], 'tw101')).toEqual({ status: 'sent' });
    expect(fake.channelMessages(CHANNEL)).toHaveLength(1);
    const posts = fake.requests.filter((request) => request.method === 'POST' && request.path === `/channels/${CHANNEL}/messages`);
    expect(posts).toHaveLength(2);
    for (const post of posts) expect(post.body).toMatchObject({ nonce: 'tw101', enforce_nonce: true });

    expect(await sender.send(chat(CHANNEL), card, [], 'tw102')).toEqual({ status: 'sent' });
    expect(fake.channelMessages(CHANNEL)).toHaveLength(2);
  });

  it('sends no nonce without a key: each send posts', async () => {
    await sender.send(chat(OTHER), card, []);
    await sender.send(chat(OTHER), card, []);
    expect(fake.channelMessages(OTHER)).toHaveLength(2);
    expect(fake.channelMessages(OTHER)[0]?.body).not.toHaveProperty('nonce');
  });

  it('keeps a key past Discord’s 25 characters to 25, the same for the same key', () => {
    const long = `digest-${'x'.repeat(40)}`;
    expect(nonceOf(long)).toHaveLength(MAX_NONCE_LENGTH);
    expect(nonceOf(long)).toBe(nonceOf(long));
    expect(nonceOf(`${long}y`)).not.toBe(nonceOf(long));
    expect(nonceOf('tw123')).toBe('tw123');
  });
});
