/**
 * Webhook mode: the bot listens where TELEGRAM_WEBHOOK_URL points, registers it with its secret
 * token, and answers the updates the Bot API posts; a post without the secret is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTelegramHtml } from '../../support/telegram/telegramHtml';
import { startTelegramWorld, type TelegramWorld } from '../../support/telegram/world';
import { freePort } from '../../support/processes';

let world: TelegramWorld;
let url: string;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/telegram/hook`;
  world = await startTelegramWorld({ chat: { webhook: { url, secret: 'the-secret_1', port, host: '127.0.0.1' } } });
});

afterAll(async () => {
  await world?.close();
});

describe('Telegram webhook mode', () => {
  it('registers the webhook with its secret and answers posted updates', async () => {
    expect(world.api.webhook).toEqual({ url, secretToken: 'the-secret_1' });
    expect(world.api.calls.get('getUpdates') ?? 0).toBe(0);
    const user = world.api.user(9);
    const messageId = world.api.sendText({ chat: world.api.privateChat(user), from: user, text: '/help' });
    const reply = await world.api.waitFor((sent) => sent.find((m) => m.replyTo === messageId));
    expect(parseTelegramHtml(reply.text).text).toContain('/token');
  });

  it('refuses a post without the secret token, and any other path', async () => {
    const update = JSON.stringify({
      update_id: 1,
      message: { message_id: 1, date: 1, chat: { id: 5, type: 'private' }, from: { id: 5, is_bot: false, first_name: 'x' }, text: '/help' },
    });
    const noSecret = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: update });
    expect(noSecret.status).toBe(401);
    const wrongPath = await fetch(url.replace('/telegram/hook', '/other'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'the-secret_1' },
      body: update,
    });
    expect(wrongPath.status).toBe(404);
    expect(world.api.messagesIn(5)).toEqual([]);
  });
});
