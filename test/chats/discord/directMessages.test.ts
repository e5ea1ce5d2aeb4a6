/**
 * Personal alerts on Discord: in a direct message with the bot a person runs the look-ups and the
 * follow commands (they manage their own DM, whatever their roles in any server), and the alerts of
 * what they follow there come to that DM. The real discord.js against the local fake Discord, the
 * real store, watcher and delivery, and the simulator's controls.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { APIEmbed } from 'discord.js';
import type { ChatRef } from '../../../src/model/chat';
import { nextSnowflake, type FakeMessage } from '../../support/discord/fakeDiscord';
import { startHarness, type Harness } from './harness';

let h: Harness;
let token: string;
const DM_CHANNEL = nextSnowflake();
const PERSON = '300000000000000007';
const dm = { channelId: DM_CHANNEL, userId: PERSON };
const dmChat: ChatRef = { platform: 'discord', chatId: DM_CHANNEL, threadId: null, scopeId: null };

beforeAll(async () => {
  h = await startHarness();
  const hostile = new Set(h.market.sim.market.hostileTokens());
  token = h.market.listing.tokens.filter((t) => !hostile.has(t.address))[7]?.address ?? '';
}, 60_000);
afterAll(async () => {
  await h?.close();
});

function embedOf(message: FakeMessage): APIEmbed {
  return (message.body.embeds as APIEmbed[])[0] ?? {};
}

describe('a direct message with the bot', () => {
  it('answers a look-up there', async () => {
    const answer = await h.fake.answerTo(h.fake.dmSlashCommand('token', { address: token }, dm));
    expect(answer.ephemeral).toBe(false);
    expect(embedOf(answer).fields?.some((field) => field.name === 'Price change')).toBe(true);
  });

  it('lets the person follow a token for themselves, and sends its alerts there', async () => {
    const tracked = await h.fake.answerTo(h.fake.dmSlashCommand('track', { address: token, events: 'risk' }, dm, 'token'));
    expect(embedOf(tracked).title).not.toBe('Managers only');
    expect(embedOf(tracked).fields?.[0]?.name).toBe('Now tracking in this chat');
    const follow = await h.store.follows.get(dmChat, token);
    expect(follow?.chat).toEqual(dmChat);
    expect(follow?.addedBy).toBe(PERSON);

    const listed = await h.fake.answerTo(h.fake.dmSlashCommand('following', {}, dm));
    expect(JSON.stringify(listed.body)).toContain(token);

    await vi.waitFor(async () => expect(await h.store.state.token(token)).not.toBeNull(), { timeout: 15_000, interval: 25 });
    const to = h.market.sim.market.token(token)?.riskStatus === 'DANGER' ? 'SAFE' : 'DANGER';
    h.market.sim.controls.risk({ tokenAddress: token, riskStatus: to });
    await h.fake.until(() => h.fake.channelMessages(DM_CHANNEL).length >= 1, 15_000, 'the alert in the DM');
    const alert = h.fake.channelMessages(DM_CHANNEL)[0] as FakeMessage;
    expect(embedOf(alert).title).toContain(`→ ${to}`);
    expect(alert.body.allowed_mentions).toEqual({ parse: [] });

    // Its Mute 1h button, pressed in the DM by the person, mutes their follow there.
    const rows = (alert.body.components ?? []) as Array<{ components: Array<{ label: string; custom_id: string }> }>;
    const mute = rows.flatMap((row) => row.components).find((button) => button.label === 'Mute 1h');
    if (mute === undefined) throw new Error('no Mute 1h button');
    const muted = await h.fake.answerTo(h.fake.dmClickButton(alert, mute.custom_id, { userId: PERSON }));
    expect(embedOf(muted).title).toBe('Muted');
    expect((await h.store.follows.get(dmChat, token))?.mutedUntil).not.toBeNull();
    h.market.sim.controls.risk({ tokenAddress: token, riskStatus: null });
  });
});
