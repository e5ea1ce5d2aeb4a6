/**
 * The bot's default pace against the local Bot API in pace mode, which answers 429 as Telegram
 * does past one message a second in a chat: a burst to one chat, to a group and to a second chat
 * all goes out with no 429 to retry. (The other Telegram tests run their bot unpaced.)
 *
 * The bot spaces its sends when they leave; the local Bot API counts them when they arrive, and on a
 * loaded machine two sends a second apart can arrive a little closer. The local API here allows one
 * a chat per 800 ms, a margin for that: a bot that does not pace sends them at once and is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PACE, createTelegramBot } from '../../../src/chats/telegram/api';
import { startBotApi, type FakeBotApi } from '../../support/telegram/botApi';
import { TELEGRAM_LIMITS } from '../../support/telegram/pace';

const TOKEN = '123456:PACE-token';
let api: FakeBotApi;

beforeAll(async () => {
  api = await startBotApi({ pace: { ...TELEGRAM_LIMITS, perChatPerSecond: 1.25 } });
});
afterAll(async () => {
  await api.close();
});

describe('the default pace', () => {
  it('sends a burst to one chat, a group and another chat with no 429', async () => {
    const bot = createTelegramBot({ token: TOKEN, apiRoot: api.apiRoot, pace: DEFAULT_PACE, maxRetryAttempts: 0 });
    const group = api.group(-7001);
    const sends = [
      ...['a', 'b', 'c'].map((text) => bot.api.sendMessage(1, text)),
      ...['d', 'e'].map((text) => bot.api.sendMessage(group.id, text)),
      bot.api.sendMessage(2, 'f'),
    ];
    await Promise.all(sends);
    expect(api.tooManyRequests.count).toBe(0);
    expect(api.messagesIn(1).map((m) => m.text)).toEqual(['a', 'b', 'c']);
    expect(api.messagesIn(group.id).map((m) => m.text)).toEqual(['d', 'e']);
  });
});
