/**
 * /mute with 6h, 1d, 7d and forever, /unmute and /mutes, through the one Dispatcher on a real
 * SQLite file and the simulator, with the clock fixed.
 */
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../src/dispatch/dispatcher';
import type { SqliteStore } from '../../src/store/sqliteStore';
import type { TestMarket } from '../support/market';
import { cardText, followChat, group, NOW } from './support/followChat';

let market: TestMarket;
let store: SqliteStore;
let dispatcher: Dispatcher;
let token: string;
let token2: string;
let wallet: string;

const { say } = followChat((parts) => ({ market, store, dispatcher, token, token2, wallet } = parts));
const text = cardText;

const HOUR = 3_600_000;

describe('/mute, /unmute, /mutes', () => {
  it('mutes for 6h, 1d, 7d or forever, lists what is muted, and unmutes', async () => {
    await say(`/track token ${token}`);
    await say(`/track token ${token2}`);
    await say(`/track wallet ${wallet} <b>@everyone</b>`);
    expect(text((await say('/mutes')).card)).toContain('Nothing is muted');

    for (const [given, hours] of [
      ['6h', 6],
      ['1d', 24],
      ['7d', 168],
    ] as const) {
      expect((await say(`/mute ${token} ${given}`)).card.title).toBe('Muted');
      expect((await store.follows.get(group, token))?.mutedUntil?.getTime()).toBe(NOW.getTime() + hours * HOUR);
    }
    const forever = await say(`/mute ${wallet} forever`);
    expect(text(forever.card)).toContain('until /unmute');
    expect((await store.follows.get(group, wallet))?.mutedUntil?.getTime()).toBeGreaterThan(NOW.getTime() + 100 * 365 * 24 * HOUR);

    const listed = text((await say('/mutes')).card);
    expect(listed).toContain('2 muted');
    expect(listed).toContain(`${token} muted, for 7d`);
    expect(listed).toContain(`${wallet} muted until /unmute`);
    expect(listed).not.toContain(token2);
    // A label is strangers' text: its mention is made inert (markup is each renderer's to escape).
    expect(listed).not.toContain('@everyone');
    expect(text((await say('/following')).card)).toContain('muted until /unmute');

    expect((await say(`/unmute ${wallet}`)).card.title).toBe('Alerts resumed');
    expect((await store.follows.get(group, wallet))?.mutedUntil).toBeNull();
    expect(text((await say('/mutes')).card)).toContain('1 muted');
  });

  it('refuses a duration out of bounds or not a duration, and mutes nothing', async () => {
    await say(`/track token ${token}`);
    for (const bad of ['10s', '31d', 'always']) {
      const reply = await say(`/mute ${token} ${bad}`);
      expect(reply.card.color).toBe('error');
      expect(text(reply.card)).toContain('forever');
    }
    expect((await store.follows.get(group, token))?.mutedUntil).toBeNull();
  });
});
