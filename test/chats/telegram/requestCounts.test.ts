/**
 * What the Telegram chat counts of the Bot API's answers for the operators' metrics and readiness,
 * against the local Bot API: every request by status (a refused send shows as its 403 or 429, under
 * the retries), and whether polling for updates has lost the Bot API.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTelegramWorld, type TelegramWorld } from '../../support/telegram/world';

let world: TelegramWorld | null = null;

afterEach(async () => {
  // Closing the Bot API a second time is harmless: the rest of the world closes after it.
  await world?.close();
  world = null;
});

const card = { title: 'Alert', color: 'info' as const, fields: [], actions: [] };

describe('the Telegram chat’s request counts', () => {
  it('counts each answer by status, a refused send included, and tells when polling has lost the Bot API', async () => {
    world = await startTelegramWorld();
    const { chat, api } = world;
    api.failChat(-1001, { kind: 'blocked' });
    api.failChat(-1002, { kind: 'retry-after', seconds: 120 });
    expect(await chat.sender.send({ platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null }, card, [])).toMatchObject({
      status: 'gone',
    });
    expect(await chat.sender.send({ platform: 'telegram', chatId: '-1002', threadId: null, scopeId: null }, card, [])).toMatchObject({
      status: 'retry',
    });
    expect(await chat.sender.send({ platform: 'telegram', chatId: '-1003', threadId: null, scopeId: null }, card, [])).toMatchObject({
      status: 'sent',
    });
    const counts = chat.requests();
    expect(counts['403']).toBe(1);
    expect(counts['429']).toBeGreaterThanOrEqual(1);
    // getMe, setMyCommands, the polls and the one send that went through.
    expect(counts['200']).toBeGreaterThanOrEqual(3);
    expect(chat.connected()).toBe(true);

    await api.close();
    await vi.waitFor(() => expect(chat.connected()).toBe(false), { timeout: 20_000, interval: 50 });
    expect(chat.requests().error).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
