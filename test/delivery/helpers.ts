/** Senders that record what they were given, a log that can be read back, and outbox rows to drain. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Card } from '../../src/cards/card';
import type { ActionButton, ChatRef, Platform } from '../../src/model/chat';
import type { AlertSender, SendOutcome } from '../../src/delivery/sender';
import { createDelivery, type Delivery, type DeliveryOptions } from '../../src/delivery/delivery';
import { createLogger, silentLogger, type Logger } from '../../src/log';
import type { Store } from '../../src/store/store';
import type { PriceEvent } from '../../src/model/events';
import type { TokenSnapshot } from '../../src/model/snapshot';

export function tempDb(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-delivery-'));
  return { path: join(dir, 'tokenwatch.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function chat(chatId: string, platform: Platform = 'telegram'): ChatRef {
  return { platform, chatId, threadId: null, scopeId: platform === 'discord' ? 'guild-1' : null };
}

export interface Sent {
  chat: ChatRef;
  card: Card;
  buttons: ActionButton[];
  /** The send key delivery gave (the outbox rows the message carries). */
  key?: string;
}

/**
 * A sender whose answers a test decides: `answer` is asked for each send (default "sent"). `gate`,
 * when set, holds every send until released, to stop a drain in the middle.
 */
export class RecordingSender implements AlertSender {
  readonly sent: Sent[] = [];
  readonly attempts: Sent[] = [];
  answer: (attempt: Sent) => SendOutcome | Promise<SendOutcome> = () => ({ status: 'sent' });
  gate: Promise<void> | null = null;

  constructor(readonly platform: Platform) {}

  async send(to: ChatRef, card: Card, buttons: ActionButton[], key?: string): Promise<SendOutcome> {
    const attempt = { chat: to, card, buttons, ...(key === undefined ? {} : { key }) };
    this.attempts.push(attempt);
    if (this.gate !== null) await this.gate;
    const outcome = await this.answer(attempt);
    if (outcome.status === 'sent') this.sent.push(attempt);
    return outcome;
  }

  titlesFor(chatId: string): string[] {
    return this.sent.filter((s) => s.chat.chatId === chatId).map((s) => s.card.title);
  }
}

/** A logger whose lines are kept as parsed objects. */
export function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', {
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { logger, lines };
}

export function priceEvent(key: string, token = 'TokenAddress1111111111111111111111111111111'): PriceEvent {
  return {
    key,
    kind: 'price',
    at: 1_700_000_000_000,
    token: { address: token, symbol: 'TOK', name: 'Token' },
    from: 1,
    to: 2,
    changePct: 100,
    windowSecs: 300,
    priceUsd: null,
  };
}

export function snapshot(address = 'TokenAddress1111111111111111111111111111111'): TokenSnapshot {
  return {
    address,
    symbol: 'TOK',
    name: 'Token',
    riskStatus: 'SAFE',
    mintAuthority: null,
    freezeAuthority: null,
    isMutable: false,
    ownerBalance: null,
    pools: [],
    priceNative: 1,
    priceUsd: null,
    holdersCount: 1,
    priceHistory: [],
    whales: {},
    seenAt: 0,
  };
}

/** Commits one event per key, each to every chat given, as the watcher's fan-out does. */
export async function commitAlerts(store: Store, keys: string[], to: ChatRef[], now: Date): Promise<number> {
  return store.state.commitToken(
    snapshot(),
    keys.map((key) => ({ event: priceEvent(key), to: to.map((c) => ({ chat: c, label: null })) })),
    now,
  );
}

/** An alert card that says which event it is; with one action so that buttons are asked for. */
export function simpleAlertCard(event: { key: string }, label: string | null): Card {
  return {
    title: `alert ${event.key}${label === null ? '' : ` (${label})`}`,
    color: 'warning',
    fields: [],
    description: [{ text: event.key }],
    actions: [{ label: 'Token', command: 'token', args: ['x'] }],
  };
}

/** A clock a test moves by hand. */
export class Clock {
  constructor(public ms = 1_700_000_000_000) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * A delivery as the tests run it: `senders` over `store`, no buttons, the simple alert card, the
 * test's clock and polls far apart (the tests drain by hand); `options` change any of it.
 */
export function testDelivery(store: Store, senders: AlertSender[], clock: Clock, options: Partial<DeliveryOptions> = {}): Delivery {
  return createDelivery({
    store,
    senders,
    buttonsFor: async () => [],
    alertCard: simpleAlertCard,
    logger: silentLogger,
    now: clock.now,
    pollMs: 60_000,
    ...options,
  });
}
