/**
 * Leaving a Discord server or losing a channel, with the real discord.js client against the local
 * fake gateway: GUILD_DELETE pauses the server's channels and CHANNEL_DELETE the channel, and the
 * watcher lets their streams go; an outage (GUILD_DELETE with `unavailable`) changes nothing;
 * joining again (GUILD_CREATE) and the channel shown again (CHANNEL_CREATE) resume, but never a
 * channel paused because a send failed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL_GONE, LEFT_SERVER } from '../../../src/chats/discord/removals';
import { MANAGE_CHANNELS } from '../../support/discord/fakeDiscord';
import { ALERT_CHANNEL, CHANNEL, GONE_CHANNEL, GUILD, OTHER_CHANNEL, OTHER_GUILD, startHarness, type Harness } from './harness';

const WAIT = { timeout: 15_000, interval: 20 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const paused = (chatId: string) => h.store.chats.pausedReason({ platform: 'discord', chatId });
const streams = () => h.market.sim.streams.subscriptionCount('token-feed');

describe('Discord removals', () => {
  it('pause on leaving a server or losing a channel, let the streams go, and resume on coming back', async () => {
    const hostile = new Set(h.market.sim.market.hostileTokens());
    const [first, second] = h.market.listing.tokens.filter((t) => !hostile.has(t.address)).map((t) => t.address);
    const track = (address: string, guildId: string, channelId: string) =>
      h.fake.answerTo(
        h.fake.slashCommand('track', { address, events: 'risk' }, { guildId, channelId, permissions: MANAGE_CHANNELS }, 'token'),
      );
    await track(first ?? '', GUILD, ALERT_CHANNEL);
    await track(second ?? '', OTHER_GUILD, OTHER_CHANNEL);
    await vi.waitFor(() => expect(streams()).toBeGreaterThanOrEqual(2), WAIT);
    const both = streams();

    // An outage is no removal. Events of one shard are handled in order: once the channel removed
    // after it is paused, the outage was seen too.
    h.fake.removeFromGuild(OTHER_GUILD, { unavailable: true });
    h.fake.channelVisibility(GUILD, GONE_CHANNEL, false);
    await vi.waitFor(async () => expect(await paused(GONE_CHANNEL)).toBe(CHANNEL_GONE), WAIT);
    expect(await paused(OTHER_CHANNEL)).toBeNull();

    // Removed from the second server: its channel is paused, and its token's stream let go.
    h.fake.removeFromGuild(OTHER_GUILD);
    await vi.waitFor(async () => expect(await paused(OTHER_CHANNEL)).toBe(LEFT_SERVER), WAIT);
    await vi.waitFor(() => expect(streams()).toBe(both - 1), WAIT);

    // The alert channel lost: its token's stream goes too.
    h.fake.channelVisibility(GUILD, ALERT_CHANNEL, false);
    await vi.waitFor(async () => expect(await paused(ALERT_CHANNEL)).toBe(CHANNEL_GONE), WAIT);
    await vi.waitFor(() => expect(streams()).toBe(both - 2), WAIT);

    // Shown again, and invited back: both resume and their streams come back.
    h.fake.channelVisibility(GUILD, ALERT_CHANNEL, true);
    h.fake.addToGuild(OTHER_GUILD);
    await vi.waitFor(async () => expect([await paused(ALERT_CHANNEL), await paused(OTHER_CHANNEL)]).toEqual([null, null]), WAIT);
    await vi.waitFor(() => expect(streams()).toBe(both), WAIT);
  });

  it('a channel paused because a send failed stays paused when its server comes back', async () => {
    await h.store.chats.pause({ platform: 'discord', chatId: CHANNEL }, 'Missing Access', new Date());
    h.fake.channelVisibility(GUILD, GONE_CHANNEL, false);
    await vi.waitFor(async () => expect(await paused(GONE_CHANNEL)).toBe(CHANNEL_GONE), WAIT);
    h.fake.removeFromGuild(GUILD);
    await vi.waitFor(async () => expect(await paused(ALERT_CHANNEL)).toBe(LEFT_SERVER), WAIT);
    // A send that fails after the removal pauses the channel for its own reason: coming back must not undo that.
    await h.store.chats.pause({ platform: 'discord', chatId: CHANNEL }, 'Missing Access', new Date());
    h.fake.addToGuild(GUILD);
    await vi.waitFor(async () => expect([await paused(ALERT_CHANNEL), await paused(GONE_CHANNEL)]).toEqual([null, null]), WAIT);
    expect(await paused(CHANNEL)).toBe('Missing Access');
  });
});
