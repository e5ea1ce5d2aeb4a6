/**
 * The follow commands through the one Dispatcher, as a chat runs them, on a real SQLite file and
 * the simulator: both forms of /track and their argument order, updates, limits, managers, the
 * token card's Track button, /following pages, mute and unmute, /untrack, /status, and the
 * watcher told after each change.
 */
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import { DEFAULT_FOLLOWS_PER_CHAT as MAX_FOLLOWS_PER_CHAT } from '../../src/follows/followLimits';
import type { Dispatcher } from '../../src/dispatch/dispatcher';
import type { SqliteStore } from '../../src/store/sqliteStore';
import type { TestMarket } from '../support/market';
import { caller, cardText, followChat, group, NOW } from './support/followChat';

let market: TestMarket;
let store: SqliteStore;
let dispatcher: Dispatcher;
let resynced: Array<string | null>;
let token: string;
let token2: string;
let wallet: string;
const other: ChatRef = { platform: 'telegram', chatId: '-1002', threadId: null, scopeId: null };

const { say } = followChat((parts) => ({ market, store, dispatcher, resynced, token, token2, wallet } = parts));
const text = cardText;

describe('/track', () => {
  it('tracks a token: answers with its card and what is followed, and tells the watcher', async () => {
    const reply = await say(`/track token ${token}`);
    expect(reply.errorId).toBeNull();
    expect(reply.card.fields[0]?.name).toBe('Now tracking in this chat');
    expect(plainText(reply.card.fields[0]?.value ?? [])).toBe(
      'risk status, risk flags, liquidity pulled, price moves of 10% or more, whales, graduation, developer sales, insiders selling',
    );
    // The token's own card follows: price, liquidity and the rest.
    expect(reply.card.fields.some((f) => f.name.includes('Price'))).toBe(true);
    const follow = await store.follows.get(group, token);
    expect(follow).toMatchObject({ kind: 'token', addedBy: 'admin', options: { events: [], thresholdPct: 10 } });
    expect(resynced).toEqual([token]);
  });

  it('reads the token form in its order, and updates what is already tracked', async () => {
    await say(`/track token ${token}`);
    const reply = await say(`/track token ${token} risk,price 25`);
    expect(reply.card.fields[0]?.name).toBe('Tracking updated');
    expect((await store.follows.get(group, token))?.options).toMatchObject({
      events: ['risk-status', 'risk-flag', 'price'],
      thresholdPct: 25,
    });
    // Options not given keep their values.
    await say(`/track token ${token} threshold=50`);
    expect((await store.follows.get(group, token))?.options).toMatchObject({
      events: ['risk-status', 'risk-flag', 'price'],
      thresholdPct: 50,
    });
    expect((await store.follows.list(group, { offset: 0, limit: 10 })).total).toBe(1);
  });

  it('reads the wallet form in its own order: label, minusd, side', async () => {
    const reply = await say(`/track wallet ${wallet} dev 500 sell`);
    expect(reply.errorId).toBeNull();
    expect(reply.card.title).toBe('Tracking wallet dev');
    expect(text(reply.card)).toContain('sells of at least $500');
    expect(await store.follows.get(group, wallet)).toMatchObject({ kind: 'wallet', label: 'dev', options: { minUsd: 500, side: 'sell' } });
    await say(`/track wallet ${wallet} side=both`);
    expect(await store.follows.get(group, wallet)).toMatchObject({ label: 'dev', options: { minUsd: 500, side: 'both' } });
  });

  it('reads a number where events stand as the threshold, a bare number as the minimum, the side anywhere', async () => {
    expect((await say(`/track token ${token} 25`)).errorId).toBeNull();
    expect((await store.follows.get(group, token))?.options).toMatchObject({ events: [], thresholdPct: 25 });
    expect((await say(`/track wallet ${wallet} 500`)).card.title).toBe(`Tracking wallet ${wallet.slice(0, 4)}…${wallet.slice(-4)}`);
    expect(await store.follows.get(group, wallet)).toMatchObject({ label: null, options: { minUsd: 500, side: 'both' } });
    await say(`/track wallet ${wallet} sell "500"`);
    expect(await store.follows.get(group, wallet)).toMatchObject({ label: '500', options: { minUsd: 500, side: 'sell' } });
  });

  it('titles a refusal with the command and the problem, without an error id', async () => {
    const badEvents = await say(`/track token ${token} moon`);
    expect(badEvents.card.title).toBe('/track: "moon" is not an alert kind');
    expect(badEvents.errorId).toBeNull();
    expect(badEvents.card.footer).toBeUndefined();
    const bareLabel = await say(`/track wallet ${wallet} 500 600`);
    expect(bareLabel.card.title).toBe('/track: label cannot be the bare number "600"');
    // A 0x address is refused before any request: the service, on Solana, would only say "not found".
    const asked = market.sim.stats.count();
    const evm = await say(`/track token 0x${'ab'.repeat(20)}`);
    expect(evm.card.title).toBe(`/track: "0x${'ab'.repeat(20)}" is an EVM (0x) address`);
    expect(text(evm.card)).toContain('TokenWatch reads Solana tokens and wallets only');
    expect((await say(`/token 0x${'cd'.repeat(20)}`)).card.title).toBe(`/token: "0x${'cd'.repeat(20)}" is an EVM (0x) address`);
    expect(market.sim.stats.count()).toBe(asked);
    expect((await store.follows.totals()).follows).toBe(0);
  });

  it('refuses options of the other form, unknown events, long labels and unknown tokens, following nothing', async () => {
    const wrongForm = await say(`/track token ${token} label=dev`);
    expect(text(wrongForm.card)).toContain('label belongs to /track wallet');
    const badEvents = await say(`/track token ${token} moon`);
    expect(text(badEvents.card)).toContain('"moon" is not an alert kind');
    const longLabel = await say(`/track wallet ${wallet} ${'x'.repeat(33)}`);
    expect(text(longLabel.card)).toContain('too long');
    const unknown = await say('/track token UnknownAddressUnknownAddressUnknownAddress1');
    // Not found is an answer, with a hint, not a failure with an id.
    expect(unknown.errorId).toBeNull();
    expect(unknown.card.color).toBe('error');
    expect(text(unknown.card)).toContain('knows no token at');
    expect((await store.follows.totals()).follows).toBe(0);
    expect(resynced).toEqual([]);
  });

  it('is for managers only; /following is for anyone', async () => {
    const refused = await say(`/track token ${token}`, group, false);
    expect(refused.card.title).toBe('Managers only');
    expect(await store.follows.get(group, token)).toBeNull();
    expect((await say('/following', group, false)).card.title).toBe('Nothing followed here yet');
  });

  it('refuses the follow past the chat’s limit, and not an update', async () => {
    const wallets = market.sim.market.wallets();
    for (let i = 0; i < MAX_FOLLOWS_PER_CHAT; i += 1) {
      // Filled through the store: a hundred look-ups would only slow the test.
      const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
      const prefix = `${B58[Math.floor(i / B58.length)]}${B58[i % B58.length]}`;
      await store.follows.upsert({
        chat: group,
        kind: 'wallet',
        address: `${prefix}${wallets[0]?.slice(2)}`,
        label: null,
        options: { events: [], minUsd: 0, thresholdPct: 10, side: 'both' },
        addedBy: 'x',
        now: NOW,
      });
    }
    const refused = await say(`/track token ${token}`);
    expect(text(refused.card)).toContain(`already follows ${MAX_FOLLOWS_PER_CHAT}`);
    const first = (await store.follows.list(group, { offset: 0, limit: 1 })).follows[0];
    expect((await say(`/track wallet ${first?.address} renamed`)).errorId).toBeNull();
    expect((await say(`/track token ${token}`, other)).errorId).toBeNull();
  });

  it('the token card’s Track button tracks the token', async () => {
    const look = await say(`/token ${token2}`);
    const track = look.buttons.find((button) => button.label === 'Track');
    expect(track).toBeDefined();
    const pressed = await dispatcher.press(track?.key ?? '', caller(group));
    expect(pressed.errorId).toBeNull();
    expect(pressed.card.fields[0]?.name).toBe('Now tracking in this chat');
    expect(await store.follows.get(group, token2)).toMatchObject({ kind: 'token' });
  });
});

describe('/following, /mute, /unmute, /untrack, /status', () => {
  it('lists follows a page at a time, with a button to the next page', async () => {
    const wallets = market.sim.market.wallets();
    for (const w of wallets.slice(0, 12)) await say(`/track wallet ${w} w${w.slice(0, 4)}`);
    const first = await say('/following');
    expect(first.card.title).toBe('Followed in this chat: 12');
    expect(first.card.fields).toHaveLength(10);
    expect(first.card.footer).toBe('page 1 of 2');
    const next = first.buttons.find((b) => b.label === 'Next page');
    const second = await dispatcher.press(next?.key ?? '', caller(group));
    expect(second.card.fields).toHaveLength(2);
    expect(second.card.footer).toBe('page 2 of 2');
    expect((await say('/following 9')).card.footer).toBe('page 2 of 2');
    expect((await say('/following', other)).card.title).toBe('Nothing followed here yet');
  });

  it('mutes for a while, unmutes, untracks, and says when there is nothing to do', async () => {
    await say(`/track token ${token}`);
    const muted = await say(`/mute ${token} 4h`);
    expect(muted.card.title).toBe('Muted');
    expect((await store.follows.get(group, token))?.mutedUntil?.getTime()).toBe(NOW.getTime() + 4 * 3_600_000);
    expect(text((await say('/following')).card)).toContain('muted, for 4h');
    expect((await say(`/unmute ${token}`)).card.title).toBe('Alerts resumed');
    expect((await store.follows.get(group, token))?.mutedUntil).toBeNull();
    expect((await say(`/mute ${token} 10s`)).card.color).toBe('error');
    expect((await say(`/untrack ${token}`)).card.title).toBe('No longer tracking');
    expect(await store.follows.get(group, token)).toBeNull();
    expect((await say(`/untrack ${token}`)).card.title).toBe('Not tracked here');
    expect((await say(`/mute ${token} 1h`)).card.title).toBe('Not tracked here');
    expect(resynced).toEqual([token, token, token, token]);
  });

  it('resumes a paused chat when its members change a follow', async () => {
    await say(`/track token ${token}`);
    await store.chats.pause(group, 'Forbidden: bot was kicked', NOW);
    expect(text((await say('/status')).card)).toContain('This chat is paused');
    const reply = await say(`/unmute ${token}`);
    expect(text(reply.card)).toContain('every follow here is live again');
    expect(await store.chats.pausedReason(group)).toBeNull();
    expect(resynced.at(-1)).toBeNull();
  });

  it('/status reports streams, follows and the outbox', async () => {
    await say(`/track token ${token}`);
    await say(`/track wallet ${wallet}`, other);
    const status = text((await say('/status')).card);
    expect(status).toContain('0 of 0 sockets up, 0 subscriptions');
    expect(status).toContain('Stream sockets: one subscription a socket (set)');
    expect(status).not.toContain('At the open-files limit');
    expect(status).toContain('2 in 2 chats: 1 tokens, 1 wallets');
    expect(status).toContain('Alerts waiting: none');
    expect(status).toContain('Up for: 1h');
  });
});

describe('/track as Discord hands it over: named options, the subcommand as kind', () => {
  it('takes the options of the form, refuses the other form’s, and shows both forms in its usage', async () => {
    const ok = await dispatcher.run(
      'track',
      { kind: 'options', values: { kind: 'wallet', address: wallet, label: 'dev', minusd: 100, side: 'buy' } },
      caller(group),
    );
    expect(ok.errorId).toBeNull();
    expect(await store.follows.get(group, wallet)).toMatchObject({ label: 'dev', options: { minUsd: 100, side: 'buy' } });
    const wrong = await dispatcher.run('track', { kind: 'options', values: { kind: 'token', address: token, minusd: 100 } }, caller(group));
    expect(text(wrong.card)).toContain('minusd belongs to /track wallet');
    expect(text(wrong.card)).toContain(
      '/track token <address> [events] [threshold] [direction] or /track wallet <address> [label] [minusd] [side]',
    );
  });
});
