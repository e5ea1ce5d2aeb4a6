/**
 * Alerts to Telegram end to end: follows made with the bot's own commands, the watcher over the
 * simulator's streams, the outbox in SQLite, delivery's drain, and the Telegram sender through the
 * real grammY to the local Bot API. A trade made with the simulator's controls reaches the chat
 * that follows the wallet once; a chat that blocked the bot is paused; a long retry_after holds
 * only its own chat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertCard } from '../../../src/alerts/alertCard';
import type { ChatRef } from '../../../src/model/chat';
import { createDelivery, type Delivery } from '../../../src/delivery/delivery';
import { reconcileOnce } from '../../../src/jobs/reconcile';
import { silentLogger } from '../../../src/log';
import { StreamClient } from '../../../src/market/stream';
import type { PriceEvent } from '../../../src/model/events';
import { createWatcher, type Watcher } from '../../../src/watch/watcher';
import type { BotMessage, TestChat, TestUser } from '../../support/telegram/botApi';
import { TEST_API_KEY } from '../../support/market';
import { tokenSnapshot } from '../../store/helpers';
import { parseTelegramHtml } from '../../support/telegram/telegramHtml';
import { startTelegramWorld, type TelegramWorld } from '../../support/telegram/world';

/** Delivery's rounds and the store's writes: on a loaded machine they take more than a moment. */
const POLL = { timeout: 15_000, interval: 25 };

let world: TelegramWorld;
let streams: StreamClient;
let watcher: Watcher;
let delivery: Delivery;

beforeAll(async () => {
  world = await startTelegramWorld({
    market: { simulator: { control: true }, client: { cacheTtlMs: { 'wallet-tracker': 0, 'token-data': 0 } } },
  });
  streams = new StreamClient({ wsUrl: world.market.sim.wsUrl, apiKey: TEST_API_KEY, logger: silentLogger });
  watcher = createWatcher({
    store: world.store,
    streams,
    logger: silentLogger,
    describeToken: (address) => world.market.client.token(address),
  });
  world.resync.current = (address) => watcher.resync(address ?? undefined);
  delivery = createDelivery({
    store: world.store,
    senders: [world.chat.sender],
    buttonsFor: (card, chat) => world.dispatcher.buttonsFor(card, chat),
    alertCard: (event, label) => alertCard(event, label),
    logger: silentLogger,
    pollMs: 200,
    concurrency: 30,
  });
  watcher.onAlerts(() => delivery.notify());
  await watcher.start();
  delivery.start();
});

afterAll(async () => {
  await delivery?.stop();
  await watcher?.close();
  await streams?.close();
  await world?.close();
});

async function ask(chat: TestChat, from: TestUser, text: string): Promise<BotMessage> {
  const messageId = world.api.sendText({ chat, from, text });
  return world.api.waitFor((sent) => sent.find((m) => m.replyTo === messageId));
}

function priceEvent(key: string): PriceEvent {
  const token = world.market.listing.tokens[0];
  return {
    key,
    kind: 'price',
    at: Date.now(),
    token: { address: token?.address ?? '', symbol: token?.symbol ?? 'T', name: token?.name ?? 'T' },
    from: 1,
    to: 2,
    changePct: 100,
    windowSecs: 300,
    priceUsd: 0.5,
  };
}

async function commitTo(chats: ChatRef[], key: string): Promise<void> {
  // A token no chat follows: only the outbox rows matter here.
  await world.store.state.commitToken(
    tokenSnapshot('Unfollowed1111111111111111111111111111111111'),
    [{ event: priceEvent(key), to: chats.map((chat) => ({ chat, label: null })) }],
    new Date(),
  );
  delivery.notify();
}

function telegramChat(id: number): ChatRef {
  return { platform: 'telegram', chatId: String(id), threadId: null, scopeId: null };
}

describe('Telegram alerts', () => {
  it('a non-admin in a group cannot track; an admin can', async () => {
    const group = world.api.group(-5001, 'Alpha');
    const admin = world.api.user(501);
    const member = world.api.user(502);
    world.api.setMember(group.id, admin.id, 'administrator');
    const wallet = world.market.listing.wallets[1] ?? '';
    const refused = await ask(group, member, `/track wallet ${wallet} degen`);
    expect(parseTelegramHtml(refused.text).text).toMatch(/Managers only/);
    expect(await world.store.follows.countForChat(telegramChat(group.id))).toBe(0);
    const accepted = await ask(group, admin, `/track wallet ${wallet} degen`);
    expect(parseTelegramHtml(accepted.text).text).not.toMatch(/Managers only/);
    expect(await world.store.follows.countForChat(telegramChat(group.id))).toBe(1);
  });

  it('a wallet trade made with the simulator’s controls reaches the following chat once, with its label and links', async () => {
    const user = world.api.user(600);
    const chat = world.api.privateChat(user);
    const wallet = world.market.listing.wallets[0] ?? '';
    const token = world.market.listing.tokens[5];
    if (token === undefined) throw new Error('no token');
    await ask(chat, user, `/track wallet ${wallet} Whale_One`);
    await reconcileOnce({ watcher, market: world.market.client });
    await watcher.idle();
    const before = world.api.messagesIn(chat.id).length;
    world.market.sim.controls.trade({ wallet, tokenAddress: token.address, side: 'buy', amountUSD: 750 });
    const alert = await world.api.waitFor(
      (sent) =>
        sent
          .filter((m) => m.chatId === String(chat.id))
          .slice(before)
          .find((m) => /Whale_One/.test(m.text)),
      15_000,
    );
    const parsed = parseTelegramHtml(alert.text);
    expect(parsed.text).toMatch(/bought/i);
    expect(parsed.text).toContain(token.symbol);
    expect(parsed.text).toMatch(/\$/);
    expect(parsed.text).toMatch(/Value: \$750/);
    expect(parsed.links.some((href) => /\/tx\//.test(href))).toBe(true);
    expect(parsed.links).toContain(`https://solscan.io/token/${token.address}`);
    // The same trade seen again by reconciliation makes no second alert.
    await reconcileOnce({ watcher, market: world.market.client });
    await watcher.idle();
    await delivery.drain();
    const alerts = world.api
      .messagesIn(chat.id)
      .slice(before)
      .filter((m) => /Whale_One/.test(m.text));
    expect(alerts).toHaveLength(1);
  }, 30_000);

  it('a chat that blocked the bot (403) is paused; the others still get their alerts', async () => {
    world.api.failChat(7001, { kind: 'blocked' });
    await commitTo([telegramChat(7001), telegramChat(7002)], 'blocked-1');
    await world.api.waitFor((sent) => sent.find((m) => m.chatId === '7002'));
    await expect.poll(() => world.store.chats.pausedReason(telegramChat(7001)), POLL).toMatch(/403/);
    expect(world.api.messagesIn(7001)).toEqual([]);
  });

  it('a chat deleted (400 chat not found) is paused too', async () => {
    world.api.failChat(-7003, { kind: 'not-found' });
    await commitTo([telegramChat(-7003)], 'gone-1');
    await expect.poll(() => world.store.chats.pausedReason(telegramChat(-7003)), POLL).toMatch(/chat not found/);
  });

  it('a long retry_after holds only that chat: its alerts wait, other chats go on', async () => {
    world.api.failChat(7004, { kind: 'retry-after', seconds: 3600 });
    await commitTo([telegramChat(7004), telegramChat(7005)], 'slow-1');
    await world.api.waitFor((sent) => sent.find((m) => m.chatId === '7005'));
    await commitTo([telegramChat(7004), telegramChat(7005)], 'slow-2');
    await world.api.waitFor((sent) => sent.filter((m) => m.chatId === '7005').length === 2);
    // One refused request: afterwards the chat waits in the outbox without asking Telegram again.
    expect(world.api.tooManyRequests.count).toBe(1);
    expect(world.api.messagesIn(7004)).toEqual([]);
    // The refused alert is rescheduled for when Telegram allows, an hour on.
    const due = await world.store.outbox.due('telegram', new Date(Date.now() + 60_000), 100);
    expect(due.filter((row) => row.chat.chatId === '7004' && row.event.key === 'slow-1')).toEqual([]);
    const later = await world.store.outbox.due('telegram', new Date(Date.now() + 3_700_000), 100);
    expect(
      later
        .filter((row) => row.chat.chatId === '7004')
        .map((row) => row.event.key)
        .sort(),
    ).toEqual(['slow-1', 'slow-2']);
    expect(await world.store.chats.pausedReason(telegramChat(7004))).toBeNull();
  });

  it('a group that became a supergroup gets the alert under its new id', async () => {
    world.api.failChat(-7006, { kind: 'migrated', toChatId: -1_000_000_7006 });
    await commitTo([telegramChat(-7006)], 'migrate-1');
    const alert = await world.api.waitFor((sent) => sent.find((m) => m.chatId === String(-1_000_000_7006)));
    expect(parseTelegramHtml(alert.text).length).toBeGreaterThan(0);
  });
});
