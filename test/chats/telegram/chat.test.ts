/**
 * The Telegram chat end to end: the real grammY bot, long polling through grammY's runner,
 * against the local Bot API (telegram-test-api plus test/support/telegram), with the simulator's
 * market and a SQLite store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../../src/cards/card';
import { MAX_CAPTION_LENGTH, MAX_MESSAGE_LENGTH } from '../../../src/chats/telegram/html';
import { defineCommand } from '../../../src/dispatch/command';
import { MemoryActionKeyStore } from '../../support/memoryActionKeys';
import type { BotMessage, TestChat, TestUser } from '../../support/telegram/botApi';
import { parseTelegramHtml } from '../../support/telegram/telegramHtml';
import { startTelegramWorld, type TelegramWorld } from '../../support/telegram/world';

/** The bot polls for updates and writes the store: on a loaded machine that takes more than a moment. */
const POLL = { timeout: 15_000, interval: 25 };

let world: TelegramWorld;
let ordinary: { address: string; name: string; symbol: string };
let userCount = 100;

/** A counter that a Refresh button re-runs: each answer differs, so the edit is visible. */
let refreshed = 0;
const counter = defineCommand({
  name: 'counter',
  description: 'A test command with a Refresh button',
  help: 'Counts.\nExample: /counter',
  refresh: true,
  options: [],
  run: () => Promise.resolve({ title: `Count ${++refreshed}`, color: 'info', fields: [], actions: [] }),
});

beforeAll(async () => {
  world = await startTelegramWorld({ extraCommands: [counter] });
  const hostile = new Set(world.market.sim.market.hostileTokens());
  const token = world.market.listing.tokens.find((t) => !hostile.has(t.address) && /^[A-Za-z ]+$/.test(t.name));
  if (token === undefined) throw new Error('no ordinary token in the simulator');
  ordinary = token;
});

afterAll(async () => {
  await world?.close();
});

function newUser(): TestUser {
  userCount += 1;
  return world.api.user(userCount);
}

/** Sends text as a user and waits for the bot's first message in that chat after it. */
async function ask(
  chat: TestChat,
  from: TestUser,
  text: string,
  options: { threadId?: number; links?: string[] } = {},
): Promise<BotMessage> {
  const before = world.api.sent.length;
  const messageId = world.api.sendText({ chat, from, text, ...options });
  return world.api.waitFor((sent) =>
    sent.slice(before).find((m) => m.chatId === String(chat.id) && (m.replyTo === messageId || m.replyTo === null)),
  );
}

/** Sends text and checks, after a later message is answered, that nothing answered the first. */
async function expectNoAnswer(chat: TestChat, from: TestUser, text: string): Promise<void> {
  const messageId = world.api.sendText({ chat, from, text });
  // Updates of one chat are handled in order: once /help is answered, the text before it was too.
  await ask(chat, newUser(), '/help');
  expect(world.api.sent.filter((m) => m.replyTo === messageId)).toEqual([]);
}

function expectValidHtml(message: BotMessage): ReturnType<typeof parseTelegramHtml> {
  expect(message.parseMode).toBe('HTML');
  const parsed = parseTelegramHtml(message.text);
  expect(parsed.length).toBeLessThanOrEqual(message.method === 'sendPhoto' ? MAX_CAPTION_LENGTH : MAX_MESSAGE_LENGTH);
  return parsed;
}

function buttonKeys(message: BotMessage): Array<{ text: string; data: string }> {
  return (message.replyMarkup?.inline_keyboard ?? []).flat().map((b) => ({ text: b.text, data: b.callback_data ?? '' }));
}

describe('Telegram chat', () => {
  it('registers the commands of commands/ at start', () => {
    const names = world.api.commandSets.at(-1)?.commands.map((c) => c.command) ?? [];
    for (const command of ['token', 'holders', 'chart', 'help', 'settings']) expect(names).toContain(command);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_]{1,32}$/);
  });

  it('/token ADDR answers with an HTML card with the expected fields and buttons', async () => {
    const user = newUser();
    const reply = await ask(world.api.privateChat(user), user, `/token ${ordinary.address}`);
    const parsed = expectValidHtml(reply);
    expect(parsed.text).toContain(`${ordinary.name} (${ordinary.symbol})`);
    for (const label of ['Price:', 'Market Cap:', 'Liquidity:', 'Holders:', 'Risk:']) expect(parsed.text).toContain(label);
    expect(parsed.links).toContain(`https://solscan.io/token/${ordinary.address}`);
    expect(reply.linkPreview).not.toBeNull();
    const buttons = buttonKeys(reply);
    expect(buttons.map((b) => b.text)).toEqual(expect.arrayContaining(['Chart', 'Holders']));
    for (const button of buttons) expect(Buffer.byteLength(button.data)).toBeLessThanOrEqual(64);
  });

  it('a button press answers with the next card; an unknown key gets a clear notice', async () => {
    const user = newUser();
    const chat = world.api.privateChat(user);
    const card = await ask(chat, user, `/token ${ordinary.address}`);
    const holders = buttonKeys(card).find((b) => b.text === 'Holders');
    expect(holders).toBeDefined();
    const before = world.api.sent.length;
    world.api.press({ from: user, message: card, data: holders?.data ?? '' });
    const next = await world.api.waitFor((sent) => sent.slice(before).find((m) => m.chatId === String(chat.id)));
    expect(expectValidHtml(next).text).toContain(`Holders · ${ordinary.name}`);
    expect(world.api.callbackAnswers.length).toBeGreaterThan(0);

    const id = world.api.press({ from: user, message: card, data: 'nosuchkey' });
    const notice = await world.api.waitFor(() => world.api.callbackAnswers.find((a) => a.callbackQueryId === id));
    expect(notice.showAlert).toBe(true);
    expect(notice.text).toMatch(/no longer knows this button/i);
  });

  it('Refresh edits the card in place', async () => {
    // Both key stores keep an action's refresh mark: the in-memory one here, SQLite in the main world below.
    const own = await startTelegramWorld({ extraCommands: [counter], actionKeys: new MemoryActionKeyStore() });
    try {
      const user = own.api.user(5);
      const chat = own.api.privateChat(user);
      const messageId = own.api.sendText({ chat, from: user, text: '/counter' });
      const first = await own.api.waitFor((sent) => sent.find((m) => m.replyTo === messageId));
      const refresh = buttonKeys(first).find((b) => b.text === 'Refresh');
      expect(refresh).toBeDefined();
      own.api.press({ from: user, message: first, data: refresh?.data ?? '' });
      const edited = await own.api.waitFor((sent) => sent.find((m) => m.edited && m.messageId === first.messageId));
      expect(edited.method).toBe('editMessageText');
      expect(parseTelegramHtml(edited.text).text).toContain(`Count ${refreshed}`);
      expect(own.api.sent.filter((m) => !m.edited)).toHaveLength(1);
    } finally {
      await own.close();
    }
    const user = newUser();
    const first = await ask(world.api.privateChat(user), user, '/counter');
    const refresh = buttonKeys(first).find((b) => b.text === 'Refresh');
    world.api.press({ from: user, message: first, data: refresh?.data ?? '' });
    const edited = await world.api.waitFor((sent) => sent.find((m) => m.edited && m.messageId === first.messageId));
    expect(parseTelegramHtml(edited.text).text).toContain(`Count ${refreshed}`);
  });

  it('a pasted address, Solscan link, DEX Screener link or hidden link gets the token card in a private chat', async () => {
    for (const text of [
      ordinary.address,
      `look at this https://solscan.io/token/${ordinary.address} 🚀`,
      `dexscreener.com/solana/${ordinary.address}`,
    ]) {
      const user = newUser();
      const reply = await ask(world.api.privateChat(user), user, text);
      expect(expectValidHtml(reply).text, text).toContain(`${ordinary.name} (${ordinary.symbol})`);
    }
    const user = newUser();
    const hidden = await ask(world.api.privateChat(user), user, 'chart here', {
      links: [`https://dexscreener.com/solana/${ordinary.address}`],
    });
    expect(parseTelegramHtml(hidden.text).text).toContain(ordinary.name);
  });

  it('in a private chat, a paste past a limit is told how long to wait, never silently dropped', async () => {
    const user = newUser();
    const chat = world.api.privateChat(user);
    const card = await ask(chat, user, ordinary.address);
    expect(parseTelegramHtml(card.text).text).toContain(ordinary.name);
    // The same person again at once (one card per 10 s), and the same address (once a minute).
    for (const text of [`https://birdeye.so/token/${ordinary.address}`, ordinary.address]) {
      const told = await ask(chat, user, text);
      expect(parseTelegramHtml(told.text).text, text).toMatch(/Slow down.*wait \d+ s/s);
    }
  });

  it('in a group, pastes wait for an administrator to switch detection on; a member cannot', async () => {
    const group = world.api.group(-4001, 'Traders');
    const admin = newUser();
    const member = newUser();
    world.api.setMember(group.id, admin.id, 'administrator');
    await expectNoAnswer(group, member, `https://birdeye.so/token/${ordinary.address}?chain=solana`);

    const refused = await ask(group, member, '/settings detect on');
    expect(parseTelegramHtml(refused.text).text).toMatch(/Managers only/);
    expect((await world.store.chats.settings({ platform: 'telegram', chatId: String(group.id) })).detectAddresses).toBeNull();

    const accepted = await ask(group, admin, '/settings detect on');
    expect(parseTelegramHtml(accepted.text).text).toMatch(/Settings changed/);
    const card = await ask(group, member, `https://dexscreener.com/solana/${ordinary.address}`);
    expect(parseTelegramHtml(card.text).text).toContain(ordinary.name);
    // The same address pasted again at once by someone else: no second card.
    await expectNoAnswer(group, newUser(), ordinary.address);
    // Something that is not a token gets no answer in a group.
    await expectNoAnswer(group, newUser(), world.market.listing.wallets[0] ?? '');
  });

  it('an administrator posting anonymously, as the group, is a manager; a channel posting in the group is not', async () => {
    const group = world.api.group(-1_000_000_4006, 'Anonymous admins', { supergroup: true });
    const before = world.api.sent.length;
    const messageId = world.api.sendText({ chat: group, from: newUser(), text: '/settings detect on', asChat: group });
    const answer = await world.api.waitFor((sent) => sent.slice(before).find((m) => m.replyTo === messageId));
    expect(parseTelegramHtml(answer.text).text).toMatch(/Settings changed/);
    expect((await world.store.chats.settings({ platform: 'telegram', chatId: String(group.id) })).detectAddresses).toBe(true);
    // A linked channel's post arrives with the channel as sender_chat: not the group's administrators speaking.
    const channel = world.api.group(-1_000_000_4007, 'A channel', { supergroup: true });
    const fromChannel = world.api.sendText({ chat: group, from: newUser(), text: '/settings detect off', asChat: channel });
    await ask(group, newUser(), '/help');
    expect(world.api.sent.filter((m) => m.replyTo === fromChannel)).toEqual([]);
    expect((await world.store.chats.settings({ platform: 'telegram', chatId: String(group.id) })).detectAddresses).toBe(true);
  });

  it('anonymous administrators of two groups are two people: one group’s cooldown is not the other’s', async () => {
    // Telegram sends every anonymous administrator's message from the one GroupAnonymousBot.
    const anonymousBot = newUser();
    const first = world.api.group(-1_000_000_4011, 'First', { supergroup: true });
    const second = world.api.group(-1_000_000_4012, 'Second', { supergroup: true });
    for (const group of [first, second]) {
      const before = world.api.sent.length;
      const messageId = world.api.sendText({ chat: group, from: anonymousBot, text: '/status', asChat: group });
      const answer = await world.api.waitFor((sent) => sent.slice(before).find((m) => m.replyTo === messageId));
      expect(parseTelegramHtml(answer.text).text).toMatch(/TokenWatch status/);
    }
  });

  it('/cmd@botname is answered in groups; another bot’s command and bare unknown commands are not', async () => {
    const group = world.api.group(-4002);
    const user = newUser();
    const reply = await ask(group, user, `/token@${world.chat.username} ${ordinary.address}`);
    expect(parseTelegramHtml(reply.text).text).toContain(ordinary.name);
    await expectNoAnswer(group, user, `/token@SomeOtherBot ${ordinary.address}`);
    await expectNoAnswer(group, user, '/price');
    const usage = await ask(group, user, '/token nonsense');
    expect(parseTelegramHtml(usage.text).text).toContain('/token: "nonsense" is not a Solana address');
  });

  it('answers in the forum topic the message came from', async () => {
    const forum = world.api.group(-1_000_000_4003, 'Forum', { forum: true });
    const reply = await ask(forum, newUser(), `/token ${ordinary.address}`, { threadId: 77 });
    expect(reply.threadId).toBe(77);
    expect(reply.replyTo).not.toBeNull();
  });

  it('every hostile token: valid Telegram HTML within limits', async () => {
    const user = newUser();
    const chat = world.api.privateChat(user);
    for (const address of world.market.sim.market.hostileTokens()) {
      const reply = await ask(chat, user, `/token ${address}`);
      const parsed = expectValidHtml(reply);
      expect(parsed.text).not.toMatch(/@(everyone|here)\b/);
      for (const href of parsed.links) expect(href).toMatch(/^https?:\/\//);
    }
  });

  it('/start opens with help, and with a deep-linked address with its card', async () => {
    const user = newUser();
    const chat = world.api.privateChat(user);
    const help = await ask(chat, user, '/start');
    expect(parseTelegramHtml(help.text).text).toContain('/token');
    const card = await ask(chat, user, `/start ${ordinary.address}`);
    expect(parseTelegramHtml(card.text).text).toContain(ordinary.name);
  });

  it('a group that becomes a supergroup keeps its settings and follows under the new id', async () => {
    const group = world.api.group(-4004);
    const admin = newUser();
    world.api.setMember(group.id, admin.id, 'creator');
    await ask(group, admin, '/settings detect on');
    const supergroup = world.api.group(-1_000_000_4004, 'Upgraded', { supergroup: true });
    world.api.migrate(group, supergroup);
    // Handled in order in the new chat: once this is answered, the migration was seen.
    await ask(supergroup, admin, '/help');
    await expect
      .poll(async () => (await world.store.chats.settings({ platform: 'telegram', chatId: String(supergroup.id) })).detectAddresses, POLL)
      .toBe(true);
  });

  it('a bot removed from a group pauses it; added back, it resumes', async () => {
    const group = world.api.group(-4005);
    const member = (status: string) => ({ user: world.api.botUser, status });
    const change = (from: string, to: string) =>
      world.api.pushUpdate({
        my_chat_member: { chat: group, from: world.api.user(1), date: 1, old_chat_member: member(from), new_chat_member: member(to) },
      });
    change('member', 'kicked');
    await expect.poll(() => world.store.chats.pausedReason({ platform: 'telegram', chatId: String(group.id) }), POLL).not.toBeNull();
    change('kicked', 'member');
    await expect.poll(() => world.store.chats.pausedReason({ platform: 'telegram', chatId: String(group.id) }), POLL).toBeNull();
  });

  it('a notice card for a press is plain text of at most 200 characters', async () => {
    const user = newUser();
    const card = await ask(world.api.privateChat(user), user, `/token ${ordinary.address}`);
    const id = world.api.press({ from: user, message: { ...card, chatId: '999999' }, data: buttonKeys(card)[0]?.data ?? '' });
    const notice = await world.api.waitFor(() => world.api.callbackAnswers.find((a) => a.callbackQueryId === id));
    expect(notice.text?.length ?? 0).toBeLessThanOrEqual(200);
    expect(notice.text).toMatch(/another chat/i);
    expect(plainText([{ text: notice.text ?? '' }])).not.toContain('<');
  });
});
