/**
 * The local Bot API the Telegram tests run against (test/support/telegram/botApi.ts), checked
 * with the real grammY: what telegram-test-api lacks, added, behaves as Telegram does.
 */
import { Bot, GrammyError, InputFile } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { startBotApi, type FakeBotApi } from '../../support/telegram/botApi';
import { PaceKeeper } from '../../support/telegram/pace';

const TOKEN = '123456:TEST-token';
let api: FakeBotApi | null = null;

async function fresh(options: Parameters<typeof startBotApi>[0] = {}): Promise<{ api: FakeBotApi; bot: Bot }> {
  api = await startBotApi(options);
  return { api, bot: new Bot(TOKEN, { client: { apiRoot: api.apiRoot } }) };
}

afterEach(async () => {
  await api?.close();
  api = null;
});

async function errorOf(promise: Promise<unknown>): Promise<GrammyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GrammyError) return error;
    throw error;
  }
  throw new Error('expected a GrammyError');
}

describe('the local Bot API', () => {
  it('answers getMe with a username, records sends, photos as multipart, and edits', async () => {
    const { api, bot } = await fresh({ botUsername: 'SomeBot' });
    await bot.init();
    expect(bot.botInfo.username).toBe('SomeBot');
    const text = await bot.api.sendMessage(5, '<b>hi</b>', {
      parse_mode: 'HTML',
      reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'k1' }]] },
      message_thread_id: 9,
    });
    expect(text.text).toBe('<b>hi</b>');
    const photo = await bot.api.sendPhoto(-100, new InputFile(new Uint8Array([1, 2, 3, 4]), 'chart.png'), {
      caption: 'cap',
      parse_mode: 'HTML',
    });
    expect(photo.photo?.length).toBeGreaterThan(0);
    await bot.api.editMessageText(5, text.message_id, 'new', { parse_mode: 'HTML' });
    expect(api.sent.map((m) => [m.method, m.chatId, m.text, m.threadId, m.photo?.bytes ?? null])).toEqual([
      ['sendMessage', '5', '<b>hi</b>', 9, null],
      ['sendPhoto', '-100', 'cap', null, 4],
      ['editMessageText', '5', 'new', 9, null],
    ]);
    expect(api.sent[0]?.replyMarkup?.inline_keyboard[0]?.[0]?.callback_data).toBe('k1');
  });

  it('getChatMember answers what the test set, setMyCommands and answerCallbackQuery are recorded', async () => {
    const { api, bot } = await fresh();
    api.setMember(-5, 77, 'administrator');
    expect((await bot.api.getChatMember(-5, 77)).status).toBe('administrator');
    expect((await bot.api.getChatMember(-5, 78)).status).toBe('member');
    await bot.api.setMyCommands([{ command: 'token', description: 'A token' }]);
    expect(api.commandSets[0]?.commands).toEqual([{ command: 'token', description: 'A token' }]);
    await bot.api.answerCallbackQuery('cb-1', { text: 'Expired' });
    expect(api.callbackAnswers).toEqual([{ callbackQueryId: 'cb-1', text: 'Expired', showAlert: false }]);
  });

  it('fails a chat the way Telegram does', async () => {
    const { api, bot } = await fresh();
    api.failChat(10, { kind: 'blocked' });
    api.failChat(-11, { kind: 'not-found' });
    api.failChat(-12, { kind: 'migrated', toChatId: -100_012 });
    api.failChat(13, { kind: 'retry-after', seconds: 3600 });
    const blocked = await errorOf(bot.api.sendMessage(10, 'x'));
    expect([blocked.error_code, blocked.description]).toEqual([403, 'Forbidden: bot was blocked by the user']);
    expect((await errorOf(bot.api.sendMessage(-11, 'x'))).description).toBe('Bad Request: chat not found');
    expect((await errorOf(bot.api.sendMessage(-12, 'x'))).parameters.migrate_to_chat_id).toBe(-100_012);
    expect((await errorOf(bot.api.sendMessage(13, 'x'))).parameters.retry_after).toBe(3600);
    api.failChat(10, null);
    await bot.api.sendMessage(10, 'again');
    expect(api.messagesIn(10).map((m) => m.text)).toEqual(['again']);
  });

  it('in pace mode, answers 429 past one message a second in a chat', async () => {
    const { api, bot } = await fresh({ pace: true });
    await bot.api.sendMessage(1, 'a');
    const refused = await errorOf(bot.api.sendMessage(1, 'b'));
    expect(refused.error_code).toBe(429);
    expect(refused.parameters.retry_after).toBeGreaterThanOrEqual(1);
    await bot.api.sendMessage(2, 'another chat is fine');
    expect(api.tooManyRequests.count).toBe(1);
  });

  it('a getUpdates with a timeout waits for the next update instead of answering at once', async () => {
    const { api, bot } = await fresh({ pollWaitMs: 10_000 });
    const pending = bot.api.getUpdates({ timeout: 30 });
    let answered = false;
    void pending.then(() => (answered = true));
    // Another call completing proves the first one is still held open, not merely slow.
    await bot.api.getMe();
    expect(answered).toBe(false);
    const user = api.user(3);
    api.sendText({ chat: api.privateChat(user), from: user, text: '/token abc' });
    const updates = await pending;
    expect(updates.map((u) => u.message?.text)).toEqual(['/token abc']);
    expect(updates[0]?.message?.entities?.[0]).toMatchObject({ type: 'bot_command', offset: 0, length: 6 });
  });

  it('hands the stock client’s commands to the bot too', async () => {
    const { api, bot } = await fresh();
    const client = api.client(TOKEN, { chatId: 4, userId: 4 });
    await client.sendCommand(client.makeCommand('/help'));
    const updates = await bot.api.getUpdates({ timeout: 1 });
    expect(updates.map((u) => u.message?.text)).toEqual(['/help']);
  });
});

describe('PaceKeeper', () => {
  it('one a second per chat, 20 a minute per group, 30 a second overall', () => {
    const pace = new PaceKeeper(undefined, 0);
    expect(pace.admit('1', 0).ok).toBe(true);
    expect(pace.admit('1', 500)).toEqual({ ok: false, retryAfter: 1 });
    expect(pace.admit('1', 1000).ok).toBe(true);
    const group = new PaceKeeper(undefined, 0);
    // A full bucket of 20, then one more every 3 s: at one a second, the 30th is refused.
    for (let i = 0; i < 29; i += 1) expect(group.admit('-5', i * 1000).ok, `send ${i}`).toBe(true);
    expect(group.admit('-5', 29_000)).toEqual({ ok: false, retryAfter: 1 });
    const overall = new PaceKeeper(undefined, 0);
    for (let i = 0; i < 30; i += 1) expect(overall.admit(String(100 + i), 0).ok).toBe(true);
    expect(overall.admit('999', 0).ok).toBe(false);
    expect(overall.admit('999', 34).ok).toBe(true);
  });
});
