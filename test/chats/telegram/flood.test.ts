/**
 * One chat flooding the bot delays no other. 5,000 commands from one person in a burst, then
 * /status from another chat, through the real grammY runner at Telegram's own pace (DEFAULT_PACE:
 * one message a second per chat) against the local Bot API. The other chat is answered while the
 * flooding chat still has answers waiting for its pace, and the flood costs that chat at most 21
 * answers in the queue; the rest is skipped, with one notice (and a button pressed there meanwhile
 * is told so, to the presser).
 *
 * The time to answer the other chat and the process's memory are printed, not asserted: they are
 * figures of this machine's load (the order of events is what the test holds).
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PACE } from '../../../src/chats/telegram/api';
import { DEFAULT_CHAT_QUEUE, SKIPPED_NOTICE } from '../../../src/dispatch/chatQueue';
import { parseTelegramHtml } from '../../support/telegram/telegramHtml';
import { startTelegramWorld, type TelegramWorld } from '../../support/telegram/world';

const FLOOD = 5_000;
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld({ chat: { pace: DEFAULT_PACE } });
});

afterAll(async () => {
  await world?.close();
});

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

describe('a chat that floods the bot', () => {
  it('delays no other chat, and costs at most 20 waiting commands and one notice a minute', async () => {
    const flooder = world.api.user(601, 'Flooder');
    const floodChat = world.api.privateChat(flooder);
    const floodKey = `telegram:${floodChat.id}`;
    const other = world.api.user(602, 'Other');
    const otherChat = world.api.privateChat(other);

    const rssBefore = process.memoryUsage().rss;
    const floodIds = new Set<number>();
    for (let i = 0; i < FLOOD; i++) floodIds.add(world.api.sendText({ chat: floodChat, from: flooder, text: '/help' }));
    const asked = performance.now();
    const statusId = world.api.sendText({ chat: otherChat, from: other, text: '/status' });

    const status = await world.api.waitFor((sent) => sent.find((m) => m.replyTo === statusId), 60_000);
    const answerMs = performance.now() - asked;
    const floodAnsweredThen = world.api.messagesIn(floodChat.id).filter((m) => m.replyTo !== null && floodIds.has(m.replyTo)).length;
    // The flooding chat's answers still wait for its pace: the other chat did not wait for them.
    expect(world.chat.queue.pending(floodKey)).toBeGreaterThan(0);
    expect(floodAnsweredThen).toBeLessThan(DEFAULT_CHAT_QUEUE.maxWaiting + 1);
    expect(parseTelegramHtml(status.text).text).toContain('TokenWatch status');

    // Every update of the burst has been handed over: taken into the chat's queue or skipped.
    await expect.poll(() => world.chat.queue.counts().accepted + world.chat.queue.counts().dropped, { timeout: 60_000 }).toBe(FLOOD + 1);
    const counts = world.chat.queue.counts();
    const floodAccepted = counts.accepted - 1;
    const answeredSoFar = world.api.messagesIn(floodChat.id).filter((m) => m.replyTo !== null && floodIds.has(m.replyTo)).length;
    // At most 21 held at once (one being answered, 20 waiting); a slot freed by an answer sent meanwhile took one more.
    expect(floodAccepted).toBeLessThanOrEqual(DEFAULT_CHAT_QUEUE.maxWaiting + 1 + answeredSoFar);
    expect(counts.dropped).toBe(FLOOD - floodAccepted);
    expect(counts.notices).toBe(1);
    const notice = await world.api.waitFor(
      (sent) => sent.find((m) => m.chatId === String(floodChat.id) && m.text === SKIPPED_NOTICE),
      30_000,
    );
    expect(notice.replyTo).toBeNull();
    expect(world.api.messagesIn(floodChat.id).filter((m) => m.text === SKIPPED_NOTICE)).toHaveLength(1);
    // A button pressed in the flooding chat meanwhile is skipped too, and the presser told so at once.
    const floodAnswer = world.api.messagesIn(floodChat.id).find((m) => m.replyTo !== null && floodIds.has(m.replyTo));
    if (floodAnswer === undefined) throw new Error('the flooding chat had no answer yet');
    // The queue gives up a place with each answer sent at the chat's pace: the flood goes on right up
    // to the press (a chat's updates are handled in order), so it meets a full queue however long
    // the machine took to get here.
    for (let i = 0; i < 5; i++) floodIds.add(world.api.sendText({ chat: floodChat, from: flooder, text: '/help' }));
    const pressId = world.api.press({ from: flooder, message: floodAnswer, data: 'anykey' });
    const pressAnswer = await world.api.waitFor(() => world.api.callbackAnswers.find((a) => a.callbackQueryId === pressId));
    expect(pressAnswer.text).toBe(SKIPPED_NOTICE);
    expect(world.chat.queue.counts().notices).toBe(1);
    const rssAfter = process.memoryUsage().rss;

    console.log(
      `Telegram flood: ${FLOOD} commands from one chat; /status from another answered in ${Math.round(answerMs)} ms, ` +
        `when the flooding chat had ${floodAnsweredThen} answers; ${floodAccepted} queued, ${counts.dropped} skipped, ${counts.notices} notice; ` +
        `RSS ${mb(rssBefore)} MB before, ${mb(rssAfter)} MB after`,
    );
  }, 120_000);
});
