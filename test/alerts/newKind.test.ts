/**
 * A new alert kind is its descriptor file: a kind registered from test/alerts/support/holdersUpKind.ts
 * alone is followed with /track's word for it, detected by the watcher from the token's stream,
 * delivered once through the outbox, rendered by every platform's renderer, and listed by /following.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { registerAlertKind } from '../../src/alerts/registry';
import { plainText } from '../../src/cards/card';
import { renderCardText } from '../../src/chats/console/render';
import { renderCard } from '../../src/chats/discord/embed';
import { renderCardMessages } from '../../src/chats/telegram/html';
import type { RunningSimulator } from 'tmds-simulator';
import { tempDb } from '../delivery/helpers';
import { chatRef, quietSimulator, startHarness, type Harness } from '../e2e/harness';
import { holdersUpKind } from './support/holdersUpKind';

const WAIT = { timeout: 10_000, interval: 25 };
let unregister: () => void = () => undefined;
let sim: RunningSimulator;
let db: { path: string; cleanup: () => void };
let h: Harness;

beforeAll(async () => {
  unregister = registerAlertKind(holdersUpKind);
  sim = await quietSimulator();
});

afterAll(async () => {
  unregister();
  await sim.close();
});

beforeEach(async () => {
  db = tempDb();
  h = await startHarness(sim, db.path);
});

afterEach(async () => {
  await h.app.stop();
  db.cleanup();
});

it('is followed, detected, delivered and rendered from its descriptor alone', async () => {
  const chat = chatRef('telegram', '-100424');
  const hostile = new Set(sim.market.hostileTokens());
  const token = sim.market.tokenAddresses().find((address) => !hostile.has(address)) ?? '';
  const holding = new Set((sim.market.holders(token) ?? []).map((holder) => holder.address));
  const newcomer = sim.market.wallets().find((wallet) => !holding.has(wallet)) ?? '';

  const tracked = await h.say(chat, `/track token ${token} holders`);
  expect(tracked.errorId).toBeNull();
  // /help track lists the kind and its word, read from the registry.
  const help = JSON.stringify((await h.say(chat, '/help track')).card);
  expect(help).toContain('holders going up');
  expect(help).toMatch(/events narrows them: [^\n]*\bholders\b/);
  const following = await h.say(chat, '/following');
  expect(plainText(following.card.fields.flatMap((f) => f.value))).toContain('holders going up');
  await vi.waitFor(async () => expect(await h.app.store.state.token(token)).not.toBeNull(), WAIT);

  // A wallet that held none takes a share: the token has one more holder.
  sim.controls.holder({ tokenAddress: token, wallet: newcomer, supplyPct: 0.5 });
  const telegram = h.senders.get('telegram');
  await vi.waitFor(async () => {
    await h.app.delivery.drain();
    expect(telegram?.titlesFor(chat.chatId).some((title) => title.startsWith('Holders up'))).toBe(true);
  }, WAIT);
  await h.app.watcher.idle();
  await h.app.delivery.drain();

  const sent = telegram?.sent.filter((s) => s.chat.chatId === chat.chatId) ?? [];
  // Only the new kind was asked for, and it is told once.
  expect(sent.map((s) => s.card.title.split(':')[0])).toEqual(['Holders up']);
  const card = sent[0]?.card;
  if (card === undefined) throw new Error('no card');
  expect(renderCardText(card)).toContain('Holders up');
  expect(JSON.stringify(renderCard(card))).toContain('Holders up');
  expect(
    renderCardMessages(card)
      .map((message) => (message.kind === 'text' ? message.html : message.caption))
      .join('\n'),
  ).toContain('Holders up');
});
