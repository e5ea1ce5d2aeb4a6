/**
 * The Discord chat end to end: the real discord.js against the local fake Discord (gateway and
 * REST), the real Dispatcher and commands over the simulator, the real SQLite store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayIntentBits, type APIEmbed } from 'discord.js';
import type { ChatRef } from '../../../src/model/chat';
import { DEFAULT_REST_API, startDiscordChat } from '../../../src/chats/discord/start';
import { DISCORD_ERRORS, PLAIN_MEMBER, MANAGE_CHANNELS, MANAGE_GUILD, type FakeMessage } from '../../support/discord/fakeDiscord';
import { expectSafeMarkdown } from '../../support/discord/markdownCheck';
import {
  ALERT_CHANNEL,
  APP_ID,
  CHANNEL,
  GONE_CHANNEL,
  GUILD,
  OTHER_CHANNEL,
  OTHER_GUILD,
  TOKEN,
  startHarness,
  type Harness,
} from './harness';

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
const chatHere: ChatRef = { platform: 'discord', chatId: CHANNEL, threadId: null, scopeId: GUILD };

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
    const registered = (h.fake.commands.get(GUILD) ?? []) as Array<{
      name: string;
      default_member_permissions?: string;
      options?: Array<{ name: string; type: number; required?: boolean; options?: Array<{ name: string }> }>;
    }>;
    expect(registered.map((c) => c.name).sort()).toEqual(h.dispatcher.commands.map((c) => c.name).sort());
    expect(registered.find((c) => c.name === 'track')?.default_member_permissions).toBe(MANAGE_CHANNELS.toString());
    expect(registered.find((c) => c.name === 'token')?.default_member_permissions).toBeUndefined();
    expect(registered.find((c) => c.name === 'token')?.options?.[0]).toMatchObject({ name: 'address', required: true, autocomplete: true });
    for (const name of ['track', 'untrack', 'mute', 'unmute'])
      expect(registered.find((c) => c.name === name)?.default_member_permissions, name).toBe(MANAGE_CHANNELS.toString());
    // /track token, /track wallet and /track cluster: one subcommand per form, each with its own options.
    const track = registered.find((c) => c.name === 'track');
    expect(track?.options?.map((o) => [o.name, o.type])).toEqual([
      ['token', 1],
      ['wallet', 1],
      ['cluster', 1],
    ]);
    expect(track?.options?.[1]?.options?.map((o) => o.name)).toEqual(['address', 'label', 'minusd', 'side']);
    expect(DEFAULT_REST_API).toBe('https://discord.com/api');
    // The bot token never reaches a log line.
    expect(h.logLines.join('\n')).not.toContain(TOKEN);
  });

  it('/token answers with an embed of the card’s fields and buttons, no mentions allowed', async () => {
    const card = await h.market.query.token(token);
    const interaction = h.fake.slashCommand('token', { address: token }, here);
    const message = await h.fake.answerTo(interaction);
    // /token is a network look-up the pipeline marks slow: deferred at once, then the placeholder edited.
    expect(callbackTypes(interaction)).toEqual([5]);
    expect(message.edits).toBe(1);
    expect(message.ephemeral).toBe(false);
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    const embed = embedOf(message);
    expect(embed.title).toBe(card.title);
    expect(embed.fields?.map((f) => f.name)).toEqual(card.fields.map((f) => f.name));
    const labels = buttonsOf(message).map((b) => b.label);
    expect(labels).toEqual(
      card.actions
        .map((a) => a.label)
        .concat(labels.includes('Refresh') && !card.actions.some((a) => a.label === 'Refresh') ? ['Refresh'] : []),
    );
    expect(labels).toContain('Refresh');
    for (const button of buttonsOf(message)) expect(button.custom_id.length).toBeLessThanOrEqual(100);
    // Each button carries a key the store resolves in this channel, and only here.
    const chat: ChatRef = { platform: 'discord', chatId: CHANNEL, threadId: null, scopeId: GUILD };
    const first = buttonsOf(message)[0]!;
    expect((await h.store.actionKeys.resolve(first.custom_id, chat, new Date())).status).toBe('ok');
    expect(
      (await h.store.actionKeys.resolve(first.custom_id, { ...chat, chatId: OTHER_CHANNEL, scopeId: OTHER_GUILD }, new Date())).status,
    ).toBe('wrong-chat');
  });

  it('a button click answers with the next card; Refresh edits the card in place', async () => {
    const message = await h.fake.answerTo(h.fake.slashCommand('token', { address: token }, here));
    const edits = message.edits;
    const holders = buttonsOf(message).find((b) => b.label === 'Holders');
    expect(holders).toBeDefined();
    const click = h.fake.clickButton(message, holders!.custom_id, { guildId: GUILD });
    const next = await h.fake.answerTo(click);
    expect(next.id).not.toBe(message.id);
    expect(embedOf(next).title).toMatch(/^Holders · /);
    expect(message.edits).toBe(edits);

    const refresh = buttonsOf(message).find((b) => b.label === 'Refresh')!;
    const oldKeys = buttonsOf(message).map((b) => b.custom_id);
    const title = embedOf(message).title;
    const before = h.fake.messages.length;
    const press = h.fake.clickButton(message, refresh.custom_id, { guildId: GUILD });
    await h.fake.until(() => message.edits === edits + 1, 10_000, 'the edit in place');
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

  it('a bad address gets an ephemeral answer with the short error, and no error id (a typo has nothing to look up)', async () => {
    const interaction = h.fake.slashCommand('token', { address: 'not-an-address' }, here);
    const answer = await h.fake.answerTo(interaction);
    expect(answer.ephemeral).toBe(true);
    const embed = embedOf(answer);
    expect(embed.title).toBe('/token: "not-an-address" is not a Solana address');
    expect(embed.footer?.text ?? '').not.toMatch(/Error id/);
    expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('track needs Manage Server or Manage Channels, checked at run time', async () => {
    const refused = await h.fake.answerTo(
      h.fake.slashCommand('track', { address: token }, { ...here, permissions: PLAIN_MEMBER }, 'token'),
    );
    expect(refused.ephemeral).toBe(true);
    expect(embedOf(refused).title).toBe('Managers only');
    expect(await h.store.follows.get(chatHere, token)).toBeNull();
    for (const permissions of [PLAIN_MEMBER | MANAGE_GUILD, PLAIN_MEMBER | MANAGE_CHANNELS]) {
      const allowed = await h.fake.answerTo(h.fake.slashCommand('track', { address: token }, { ...here, permissions }, 'token'));
      expect(allowed.ephemeral).toBe(false);
      expect(embedOf(allowed).title).not.toBe('Managers only');
    }
    const follow = await h.store.follows.get(chatHere, token);
    expect(follow?.chat).toEqual(chatHere);
    // Another server neither sees nor changes it.
    const elsewhere: ChatRef = { platform: 'discord', chatId: OTHER_CHANNEL, threadId: null, scopeId: OTHER_GUILD };
    expect((await h.store.follows.list(elsewhere, { offset: 0, limit: 10 })).total).toBe(0);
    const untrack = await h.fake.answerTo(
      h.fake.slashCommand('untrack', { address: token }, { guildId: OTHER_GUILD, channelId: OTHER_CHANNEL, permissions: MANAGE_GUILD }),
    );
    expect(JSON.stringify(untrack.body)).not.toContain('Untracked');
    expect(await h.store.follows.get(chatHere, token)).not.toBeNull();
    await h.store.follows.remove(chatHere, token);
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
    const edit = h.fake.requests.find(
      (r) => r.method === 'PATCH' && r.path === `/webhooks/${APP_ID}/${interaction.token}/messages/@original`,
    );
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
    await h.store.follows.upsert({
      chat,
      kind: 'token',
      address: token,
      label: null,
      options: { events: [], minUsd: 0, thresholdPct: 10, side: 'both' },
      addedBy: 'u',
      now: new Date(),
    });
    await h.watcher.resync(token);
    const mine = h.fake.autocomplete('token', 'address', token.slice(0, 4), here);
    await h.fake.until(() => h.fake.callbacks(mine).length === 1, 10_000, 'autocomplete');
    const body = h.fake.callbacks(mine)[0]!.body as { type: number; data: { choices: Array<{ name: string; value: string }> } };
    expect(body.type).toBe(8);
    expect(body.data.choices.map((c) => c.value)).toEqual([token]);

    const theirs = h.fake.autocomplete('token', 'address', '', { guildId: OTHER_GUILD, channelId: OTHER_CHANNEL });
    await h.fake.until(() => h.fake.callbacks(theirs).length === 1, 10_000, 'autocomplete elsewhere');
    expect((h.fake.callbacks(theirs)[0]!.body as { data: { choices: unknown[] } }).data.choices).toEqual([]);
    await h.store.follows.remove(chat, token);
    await h.watcher.resync(token);
  });
});

/** Polls a condition of the store until it holds; the deadline only bounds the wait. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function baseline(address: string): Promise<void> {
  await eventually(async () => (await h.store.state.token(address)) !== null, `the baseline of ${address}`);
}

function otherStatus(address: string): 'SAFE' | 'DANGER' {
  return h.market.sim.market.token(address)?.riskStatus === 'DANGER' ? 'SAFE' : 'DANGER';
}

describe('alerts in Discord channels', () => {
  it('an alert made with the simulator’s controls reaches the following channel once', async () => {
    const hostile = new Set(h.market.sim.market.hostileTokens());
    const address = h.market.listing.tokens.filter((t) => !hostile.has(t.address))[3]?.address ?? '';
    const tracked = await h.fake.answerTo(
      h.fake.slashCommand(
        'track',
        { address, events: 'risk' },
        { guildId: GUILD, channelId: ALERT_CHANNEL, permissions: MANAGE_CHANNELS },
        'token',
      ),
    );
    expect(tracked.ephemeral).toBe(false);
    await baseline(address);
    const to = otherStatus(address);
    h.market.sim.controls.risk({ tokenAddress: address, riskStatus: to });
    await h.fake.until(() => h.fake.channelMessages(ALERT_CHANNEL).length >= 1, 15_000, 'the alert in the channel');
    await h.watcher.idle();
    await h.delivery.drain();
    const alerts = h.fake.channelMessages(ALERT_CHANNEL);
    expect(alerts).toHaveLength(1);
    const message = alerts[0]!;
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    const embed = embedOf(message);
    expect(JSON.stringify(embed)).toContain(to);
    expect(h.fake.channelMessages(CHANNEL)).toHaveLength(0);
    expect(h.fake.channelMessages(OTHER_CHANNEL)).toHaveLength(0);
    expect((await h.store.outbox.pending()).count).toBe(0);
  });

  it('a 403 on a channel pauses it, after one request', async () => {
    const hostile = new Set(h.market.sim.market.hostileTokens());
    const address = h.market.listing.tokens.filter((t) => !hostile.has(t.address))[4]?.address ?? '';
    await h.fake.answerTo(
      h.fake.slashCommand(
        'track',
        { address, events: 'risk' },
        { guildId: GUILD, channelId: GONE_CHANNEL, permissions: MANAGE_CHANNELS },
        'token',
      ),
    );
    await baseline(address);
    h.fake.failChannel(GONE_CHANNEL, DISCORD_ERRORS.missingAccess);
    h.market.sim.controls.risk({ tokenAddress: address, riskStatus: otherStatus(address) });
    const gone = { platform: 'discord' as const, chatId: GONE_CHANNEL };
    await eventually(async () => (await h.store.chats.pausedReason(gone)) !== null, 'the channel paused');
    expect(await h.store.chats.pausedReason(gone)).toMatch(/Missing Access/);
    const posts = () => h.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${GONE_CHANNEL}/messages`);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.status).toBe(403);
    // A paused channel is not written to again: no more invalid requests. The second change is
    // committed (its state, and any alert with it) before delivery is asked: nothing of it is still to come.
    const next = otherStatus(address);
    h.market.sim.controls.risk({ tokenAddress: address, riskStatus: next });
    await eventually(async () => (await h.store.state.token(address))?.riskStatus === next, 'the second change committed');
    await h.watcher.idle();
    await h.delivery.drain();
    expect(posts()).toHaveLength(1);
    expect(h.logLines.some((line) => line.includes(GONE_CHANNEL) && /pause/i.test(line))).toBe(true);
  });
});

describe('pasted addresses (DISCORD_DETECT_ADDRESSES=1)', () => {
  it('asks for the message intents and answers a message that is only a token address', async () => {
    await h.chat.stop();
    const detecting = await startDiscordChat({
      token: TOKEN,
      appId: APP_ID,
      restApi: h.fake.restApi,
      dispatcher: h.dispatcher,
      store: h.store,
      logger: h.logger,
      detectAddresses: true,
    });
    try {
      expect(h.fake.identifies.at(-1)?.intents).toBe(
        GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent,
      );
      const before = h.fake.channelMessages(CHANNEL).length;
      h.fake.postMessage(GUILD, CHANNEL, 'gm, what do we think of this one?');
      const pasted = h.fake.postMessage(GUILD, CHANNEL, `  ${token}  `);
      await h.fake.until(() => h.fake.channelMessages(CHANNEL).length > before, 15_000, 'the answer to the pasted address');
      // The chatter came first and was handled first (ignored): only the address is answered.
      const answers = h.fake.channelMessages(CHANNEL).slice(before);
      expect(answers).toHaveLength(1);
      expect(answers[0]?.body.message_reference).toMatchObject({ message_id: pasted });
      expect(answers[0]?.body.allowed_mentions).toEqual({ parse: [] });
      expect(embedOf(answers[0]!).title).toBe((await h.market.query.token(token)).title);
    } finally {
      await detecting.stop();
    }
  });

  it('reads an address inside a link, as Telegram does, and answers it once', async () => {
    await h.chat.stop();
    const detecting = await startDiscordChat({
      token: TOKEN,
      appId: APP_ID,
      restApi: h.fake.restApi,
      dispatcher: h.dispatcher,
      store: h.store,
      logger: h.logger,
      detectAddresses: true,
    });
    try {
      const hostile = new Set(h.market.sim.market.hostileTokens());
      const other = h.market.listing.tokens.filter((t) => !hostile.has(t.address) && t.address !== token)[0]?.address ?? '';
      const before = h.fake.channelMessages(CHANNEL).length;
      const pasted = h.fake.postMessage(GUILD, CHANNEL, `look https://dexscreener.com/solana/${token} !`);
      // The same address again at once: a group's paste limits answer it once, silently.
      h.fake.postMessage(GUILD, CHANNEL, `https://solscan.io/token/${token}`);
      h.fake.postMessage(GUILD, CHANNEL, `${token}`);
      // Another person's paste after them: once it is answered, the repeats before it were handled.
      const sentinel = h.fake.postMessage(GUILD, CHANNEL, `https://birdeye.so/token/${other}?chain=solana`, '200000000000000002');
      await h.fake.until(() => h.fake.channelMessages(CHANNEL).length >= before + 2, 15_000, 'the answers to the two pastes');
      const answers = h.fake.channelMessages(CHANNEL).slice(before);
      expect(answers.map((answer) => answer.body.message_reference)).toEqual([
        expect.objectContaining({ message_id: pasted }),
        expect.objectContaining({ message_id: sentinel }),
      ]);
      expect(embedOf(answers[0]!).title).toBe((await h.market.query.token(token)).title);
    } finally {
      await detecting.stop();
    }
  });
});
