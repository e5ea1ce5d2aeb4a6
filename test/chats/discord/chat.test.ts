/**
 * The Discord chat end to end: the real discord.js against the local fake Discord (gateway and
 * REST), the real Dispatcher and commands over the simulator, the real SQLite store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayIntentBits, type APIEmbed } from 'discord.js';
import type { ChatRef } from '../../../src/chats/chat';
import { DEFAULT_REST_API } from '../../../src/chats/discord/start';
import { PLAIN_MEMBER, MANAGE_CHANNELS, MANAGE_GUILD, type FakeMessage } from '../../support/discord/fakeDiscord';
import { expectSafeMarkdown } from '../../support/discord/markdownCheck';
import { APP_ID, CHANNEL, GUILD, OTHER_CHANNEL, OTHER_GUILD, TOKEN, startHarness, type Harness } from './harness';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  const hostile = new Set(h.market.sim.market.hostileTokens());
  token = h.market.listing.tokens.find((t) => !hostile.has(t.address))?.address ?? '';
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const here = { guildId: GUILD, channelId: CHANNEL };

function embedOf(message: FakeMessage): APIEmbed {
  const embeds = message.body.embeds as APIEmbed[];
  expect(embeds).toHaveLength(1);
  return embeds[0]!;
}

interface Button {
  label: string;
  custom_id: string;
}

function buttonsOf(message: FakeMessage): Button[] {
  const rows = (message.body.components ?? []) as Array<{ components: Button[] }>;
  return rows.flatMap((row) => row.components);
}

function callbackTypes(interaction: { id: string; token: string }): number[] {
  return h.fake.callbacks(interaction).map((r) => (r.body as { type: number }).type);
}

describe('the Discord chat', () => {
  it('connects with the Guilds intent only and registers every command in the development server', () => {
    expect(h.fake.identifies).toHaveLength(1);
    expect(h.fake.identifies[0]?.intents).toBe(GatewayIntentBits.Guilds);
    expect(h.fake.identifies[0]?.token).toBe(TOKEN);
    const registered = (h.fake.commands.get(GUILD) ?? []) as Array<{ name: string; default_member_permissions?: string; options?: Array<{ name: string; required: boolean }> }>;
    expect(registered.map((c) => c.name).sort()).toEqual(h.dispatcher.commands.map((c) => c.name).sort());
    expect(registered.find((c) => c.name === 'track')?.default_member_permissions).toBe(MANAGE_CHANNELS.toString());
    expect(registered.find((c) => c.name === 'token')?.default_member_permissions).toBeUndefined();
    expect(registered.find((c) => c.name === 'token')?.options?.[0]).toMatchObject({ name: 'address', required: true, autocomplete: true });
    expect(DEFAULT_REST_API).toBe('https://discord.com/api');
    // The bot token never reaches a log line.
    expect(h.logLines.join('\n')).not.toContain(TOKEN);
  });

  it('/token answers with an embed of the card’s fields and buttons, no mentions allowed', async () => {
    const card = await h.market.query.token(token);
    const interaction = h.fake.slashCommand('token', { address: token }, here);
    const message = await h.fake.answerTo(interaction);
    expect(callbackTypes(interaction)).toEqual([4]);
    expect(message.ephemeral).toBe(false);
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    const embed = embedOf(message);
    expect(embed.title).toBe(card.title);
    expect(embed.fields?.map((f) => f.name)).toEqual(card.fields.map((f) => f.name));
    const labels = buttonsOf(message).map((b) => b.label);
    expect(labels).toEqual([...card.actions.map((a) => a.label), 'Refresh']);
    for (const button of buttonsOf(message)) expect(button.custom_id.length).toBeLessThanOrEqual(100);
    // Each button carries a key the store resolves in this channel, and only here.
    const chat: ChatRef = { platform: 'discord', chatId: CHANNEL, threadId: null, scopeId: GUILD };
    const first = buttonsOf(message)[0]!;
    expect((await h.store.actionKeys.resolve(first.custom_id, chat, new Date())).status).toBe('ok');
    expect((await h.store.actionKeys.resolve(first.custom_id, { ...chat, chatId: OTHER_CHANNEL, scopeId: OTHER_GUILD }, new Date())).status).toBe('wrong-chat');
  });

  it('a button click answers with the next card; Refresh edits the card in place', async () => {
    const message = await h.fake.answerTo(h.fake.slashCommand('token', { address: token }, here));
    const holders = buttonsOf(message).find((b) => b.label === 'Holders');
    expect(holders).toBeDefined();
    const click = h.fake.clickButton(message, holders!.custom_id, { guildId: GUILD });
    const next = await h.fake.answerTo(click);
    expect(next.id).not.toBe(message.id);
    expect(embedOf(next).title).toMatch(/^Holders · /);
    expect(message.edits).toBe(0);

    const refresh = buttonsOf(message).find((b) => b.label === 'Refresh')!;
    const oldKeys = buttonsOf(message).map((b) => b.custom_id);
    const title = embedOf(message).title;
    const before = h.fake.messages.length;
    const press = h.fake.clickButton(message, refresh.custom_id, { guildId: GUILD });
    await h.fake.until(() => message.edits === 1, 10_000, 'the edit in place');
    expect(callbackTypes(press)).toEqual([7]);
    expect(h.fake.messages.length).toBe(before);
    expect(embedOf(message).title).toBe(title);
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    // The refreshed card carries fresh keys.
    expect(buttonsOf(message).map((b) => b.label)).toContain('Refresh');
    expect(buttonsOf(message).map((b) => b.custom_id)).not.toEqual(oldKeys);
  });

  it('an expired or unknown key says so, to the presser only', async () => {
    const message = await h.fake.answerTo(h.fake.slashCommand('token', { address: token }, here));
    const click = h.fake.clickButton(message, 'no-such-key', { guildId: GUILD });
    const answer = await h.fake.answerTo(click);
    expect(answer.ephemeral).toBe(true);
    expect(embedOf(answer).title).toMatch(/^Button/);
  });

  it('a bad address gets an ephemeral answer with the short error', async () => {
    const interaction = h.fake.slashCommand('token', { address: 'not-an-address' }, here);
    const answer = await h.fake.answerTo(interaction);
    expect(answer.ephemeral).toBe(true);
    const embed = embedOf(answer);
    expect(embed.title).toBe('Not an address');
    expect(embed.footer?.text).toMatch(/^Error id [0-9a-f]{8}$/);
    expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('track needs Manage Server or Manage Channels, checked at run time', async () => {
    const refused = await h.fake.answerTo(h.fake.slashCommand('track', { address: token }, { ...here, permissions: PLAIN_MEMBER }));
    expect(refused.ephemeral).toBe(true);
    expect(embedOf(refused).title).toBe('Managers only');
    for (const permissions of [PLAIN_MEMBER | MANAGE_GUILD, PLAIN_MEMBER | MANAGE_CHANNELS]) {
      const allowed = await h.fake.answerTo(h.fake.slashCommand('track', { address: token }, { ...here, permissions }));
      expect(embedOf(allowed).title).not.toBe('Managers only');
    }
  });

  it('a hostile token cannot mention anyone', async () => {
    const hostile = h.market.sim.market.hostileTokens();
    for (const address of hostile) {
      const message = await h.fake.answerTo(h.fake.slashCommand('token', { address }, here));
      expect(message.body.allowed_mentions).toEqual({ parse: [] });
      expect(message.body.content ?? '').toBe('');
      const embed = embedOf(message);
      expectSafeMarkdown(embed.title ?? '', 'title', { plain: true });
      if (embed.description !== undefined) expectSafeMarkdown(embed.description, 'description');
      for (const f of embed.fields ?? []) {
        expectSafeMarkdown(f.name, 'field name', { plain: true });
        expectSafeMarkdown(f.value, 'field value');
      }
    }
  });

  it('a slow command is deferred at once, then its answer edits the placeholder', async () => {
    const interaction = h.fake.slashCommand('slowcard', {}, here);
    const answer = await h.fake.answerTo(interaction);
    expect(callbackTypes(interaction)).toEqual([5]);
    expect(answer.edits).toBe(1);
    expect(embedOf(answer).title).toBe('Slow answer');
    const edit = h.fake.requests.find((r) => r.method === 'PATCH' && r.path === `/webhooks/${APP_ID}/${interaction.token}/messages/@original`);
    expect(edit).toBeDefined();
  });

  it('a deferred answer that fails goes to the asker only, with an error id and no stack', async () => {
    const interaction = h.fake.slashCommand('slowfail', {}, here);
    await h.fake.until(() => h.fake.messages.some((m) => m.interactionToken === interaction.token && m.ephemeral), 10_000, 'the follow-up');
    const followUp = h.fake.messages.find((m) => m.interactionToken === interaction.token && m.ephemeral)!;
    expect(h.fake.requests.some((r) => r.method === 'DELETE' && r.path.endsWith(`${interaction.token}/messages/@original`))).toBe(true);
    const text = JSON.stringify(followUp.body);
    expect(text).toMatch(/Error id [0-9a-f]{8}/);
    expect(text).not.toContain('/srv/secret');
    expect(text).not.toContain('disk on fire');
  });

  it('autocompletes addresses from the channel’s follows, never another server’s', async () => {
    const chat: ChatRef = { platform: 'discord', chatId: CHANNEL, threadId: null, scopeId: GUILD };
    await h.store.follows.upsert({ chat, kind: 'token', address: token, label: null, options: { events: [], minUsd: 0, thresholdPct: 10, side: 'both' }, addedBy: 'u', now: new Date() });
    const mine = h.fake.autocomplete('token', 'address', token.slice(0, 4), here);
    await h.fake.until(() => h.fake.callbacks(mine).length === 1, 10_000, 'autocomplete');
    const body = h.fake.callbacks(mine)[0]!.body as { type: number; data: { choices: Array<{ name: string; value: string }> } };
    expect(body.type).toBe(8);
    expect(body.data.choices.map((c) => c.value)).toEqual([token]);

    const theirs = h.fake.autocomplete('token', 'address', '', { guildId: OTHER_GUILD, channelId: OTHER_CHANNEL });
    await h.fake.until(() => h.fake.callbacks(theirs).length === 1, 10_000, 'autocomplete elsewhere');
    expect((h.fake.callbacks(theirs)[0]!.body as { data: { choices: unknown[] } }).data.choices).toEqual([]);
  });
});
