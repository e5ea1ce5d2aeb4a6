/**
 * The follow commands through the one Dispatcher, as a chat runs them: a real SQLite file per
 * test, the simulator for the whole file (a still market), the clock fixed, and the watcher's
 * resyncs recorded. What the tests of /track, /untrack, /following and /mute share.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { plainText, type Card } from '../../../src/cards/card';
import type { ChatRef } from '../../../src/model/chat';
import { FollowService } from '../../../src/follows/followService';
import { createStatusSource } from '../../../src/follows/status';
import { Dispatcher, type CommandCaller } from '../../../src/dispatch/dispatcher';
import type { ChatReply } from '../../../src/dispatch/reply';
import { loadCommands } from '../../../src/dispatch/registry';
import { silentLogger } from '../../../src/log';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqliteStore';
import { tempDb } from '../../delivery/helpers';
import { quietStreams } from '../../support/streamStatus';
import { group } from './settingsChat';

export { group };
import { startTestMarket, type TestMarket } from '../../support/market';

export const NOW = new Date('2025-01-15T12:00:00Z');

/** Someone in `chat`: its manager, or a member. */
export function caller(chat: ChatRef, manager = true): CommandCaller {
  return { chat, userId: manager ? 'admin' : 'member', isManager: async () => manager };
}

/** A card as one text: title, description, fields and footer. */
export function cardText(card: Card): string {
  return [
    card.title,
    plainText(card.description ?? []),
    ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`),
    card.footer ?? '',
  ].join('\n');
}

export interface FollowChatParts {
  market: TestMarket;
  store: SqliteStore;
  dispatcher: Dispatcher;
  /** The addresses the watcher was told to read again (null: all), in order. */
  resynced: Array<string | null>;
  /** Two ordinary tokens and a shared wallet of the simulated market. */
  token: string;
  token2: string;
  wallet: string;
}

/** A status source with no streams open, as /status reads it. */
function quietStatus(store: SqliteStore) {
  return createStatusSource({
    store,
    streams: quietStreams(),
    startedAt: NOW.getTime() - 3_600_000,
  });
}

/**
 * Registers the file's market and, for each test, a fresh store and dispatcher; `use` is handed
 * them before each test. `say` runs a line as a chat's manager (or a member) and returns the reply.
 */
export function followChat(use: (parts: FollowChatParts) => void): {
  say(line: string, chat?: ChatRef, manager?: boolean): Promise<ChatReply>;
} {
  let market: TestMarket;
  let addresses: Pick<FollowChatParts, 'token' | 'token2' | 'wallet'>;
  let parts: (FollowChatParts & { cleanup: () => void }) | null = null;
  beforeAll(async () => {
    market = await startTestMarket({ simulator: { tradesPerSecond: 0 } });
    const hostile = new Set(market.sim.market.hostileTokens());
    const [token, token2] = market.sim.market.tokenAddresses().filter((t) => !hostile.has(t)) as [string, string];
    addresses = { token, token2, wallet: market.sim.market.wallets()[0] as string };
  });
  afterAll(async () => {
    await market.close();
  });
  beforeEach(async () => {
    const db = tempDb();
    const store = openSqliteStore(db.path);
    const resynced: Array<string | null> = [];
    const follows = new FollowService({ store, logger: silentLogger, resync: async (address) => void resynced.push(address) });
    const dispatcher = new Dispatcher({
      commands: await loadCommands(),
      services: { query: market.query, follows, status: quietStatus(store) },
      actionKeys: store.actionKeys,
      logger: silentLogger,
      now: () => NOW,
    });
    parts = { market, store, dispatcher, resynced, ...addresses, cleanup: db.cleanup };
    use(parts);
  });
  afterEach(async () => {
    if (parts === null) return;
    const { store, cleanup } = parts;
    parts = null;
    await store.close();
    cleanup();
  });
  return {
    async say(line, chat = group, manager = true) {
      if (parts === null) throw new Error('say() runs inside a test');
      const reply = await parts.dispatcher.runLine(line, caller(chat, manager));
      if (reply === null) throw new Error(`not a command: ${line}`);
      return reply;
    },
  };
}
