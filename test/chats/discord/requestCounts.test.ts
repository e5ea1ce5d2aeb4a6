/**
 * What the Discord chat counts of the REST API's answers for the operators' metrics, against the
 * local fake Discord: every response by status, the alert client's included (a refused send shows
 * as its 403), and whether a shard is connected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DISCORD_ERRORS } from '../../support/discord/fakeDiscord';
import { ALERT_CHANNEL, GONE_CHANNEL, GUILD, startHarness, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const card = { title: 'Alert', color: 'info' as const, fields: [], actions: [] };

describe('the Discord chat’s request counts', () => {
  it('counts each response by status, a refused alert included, and a ready shard is connected', async () => {
    h = await startHarness();
    h.fake.failChannel(GONE_CHANNEL, DISCORD_ERRORS.missingAccess);
    const before = h.chat.requests();
    expect(await h.chat.sender.send({ platform: 'discord', chatId: ALERT_CHANNEL, threadId: null, scopeId: GUILD }, card, [])).toEqual({
      status: 'sent',
    });
    expect(await h.chat.sender.send({ platform: 'discord', chatId: GONE_CHANNEL, threadId: null, scopeId: GUILD }, card, [])).toMatchObject(
      { status: 'gone' },
    );
    const after = h.chat.requests();
    expect((after['403'] ?? 0) - (before['403'] ?? 0)).toBe(1);
    expect((after['200'] ?? 0) - (before['200'] ?? 0)).toBe(1);
    expect(h.chat.shards().some((shard) => shard.state === 'ready')).toBe(true);
  }, 30_000);
});
