/**
 * /following, /targets and /status name a chat's tokens by their symbol beside the short address
 * (the symbol as the watcher last saw it, cleaned), and /status counts the chat's wallets and
 * targets as such. Through the one Dispatcher, on a real SQLite store; symbols are hostile text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { renderCardMessages } from '../../src/chats/telegram/html';
import { Dispatcher } from '../../src/dispatch/dispatcher';
import { loadCommands } from '../../src/dispatch/registry';
import { FollowService } from '../../src/follows/followService';
import { createStatusSource } from '../../src/follows/status';
import { silentLogger } from '../../src/log';
import type { QueryService } from '../../src/query/service';
import type { ChatRef } from '../../src/model/chat';
import type { FollowOptions } from '../../src/model/follow';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqliteStore';
import { snapshot, tempDb } from '../delivery/helpers';
import { expectSafeCard } from '../support/cardSafety';
import { quietStreams } from '../support/streamStatus';
import { T1, T2, W1 } from '../watch/support/fixtures';

const NOW = new Date('2025-01-15T12:00:00Z');
const chat: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const OPTIONS: FollowOptions = { events: [], minUsd: 0, thresholdPct: 10, side: 'both' };
const HOSTILE = '<b>**W\u202eIF**</b>\n@everyone';

let store: SqliteStore;
let db: { path: string; cleanup: () => void };
let dispatcher: Dispatcher;

const short = (address: string): string => `${address.slice(0, 4)}…${address.slice(-4)}`;

function text(card: Card): string {
  return [card.title, ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

async function say(line: string): Promise<Card> {
  const reply = await dispatcher.runLine(line, { chat, userId: 'admin', isManager: async () => true });
  if (reply === null) throw new Error(`not a command: ${line}`);
  return reply.card;
}

beforeEach(async () => {
  db = tempDb();
  store = openSqliteStore(db.path);
  await store.state.commitToken({ ...snapshot(T1), symbol: 'BONK' }, [], NOW);
  await store.state.commitToken({ ...snapshot(T2), symbol: HOSTILE }, [], NOW);
  const follow = (kind: 'token' | 'wallet', address: string, options: FollowOptions = OPTIONS) =>
    store.follows.upsert({ chat, kind, address, label: kind === 'wallet' ? 'whale' : null, options, addedBy: 'admin', now: NOW });
  await follow('token', T1);
  await follow('token', T2);
  await follow('wallet', W1);
  await follow('token', T1, { ...OPTIONS, target: { metric: 'price', side: 'above', value: 0.5 } });
  const follows = new FollowService({ store, logger: silentLogger, resync: async () => undefined });
  const status = createStatusSource({ store, streams: quietStreams(), startedAt: NOW.getTime() - 3_600_000 });
  dispatcher = new Dispatcher({
    commands: await loadCommands(),
    services: { query: undefined as unknown as QueryService, follows, status },
    actionKeys: store.actionKeys,
    logger: silentLogger,
    now: () => NOW,
  });
});

afterEach(async () => {
  await store.close();
  db.cleanup();
});

describe('the follow lists name tokens', () => {
  it('/following: each token and target by its symbol beside its short address, the address whole to copy', async () => {
    const card = await say('/following');
    const shown = text(card);
    expect(shown).toContain(`token: BONK · ${short(T1)}: ${T1}`);
    expect(shown).toContain(`target: BONK · ${short(T1)}: ${T1} · price above $0.5`);
    expect(shown).toContain(`wallet “whale”: ${W1}`);
    // The hostile symbol is cleaned: no line break, no bidi control, no markup reaches the card as such.
    const hostile = card.fields.find((f) => f.name.endsWith(short(T2)))?.name ?? '';
    expect(hostile).not.toMatch(/[\n\u202e]/);
    expectSafeCard(card);
    expect(
      renderCardMessages(card)
        .map((message) => (message.kind === 'text' ? message.html : ''))
        .join('\n'),
    ).not.toContain('<b>**');
  });

  it('/targets: each target under its token’s symbol', async () => {
    expect(text(await say('/targets'))).toContain(`BONK · ${short(T1)}: price above $0.5`);
  });

  it('/status: the chat’s tokens by symbol, its wallets and targets counted by name', async () => {
    const card = await say('/status');
    const line = plainText(card.fields.find((f) => f.name === 'This chat follows')?.value ?? []);
    expect(line).toMatch(new RegExp(`^BONK · ${short(T1)}, .+ · ${short(T2)}; 1 wallet; 1 target$`));
    expect(line).not.toMatch(/[\n\u202e]/);
    expectSafeCard(card);
  });
});
