/**
 * Card action keys in PostgreSQL. A card's keys are made here (actionKeyForm.ts) and written by one
 * statement; the card does not wait for it. A round trip to the server costs a card more than
 * SQLite's local transaction did (measured: about 150–260 µs for a token card's five keys over a
 * Unix socket, against 58–62 µs), so `issueAll` returns the keys at once and the insert completes
 * while the answer goes out. A press that arrives before its key's insert has completed waits for
 * it, so it is never told "unknown" for a key that is on its way. While the server is known to be
 * away, `issueAll` fails at once (the command answers "try again").
 */
import type { Logger } from '../../log';
import type { ChatRef } from '../../model/chat';
import { DEFAULT_ACTION_KEY_BUDGET, type ActionKeyStore, type KeyIssuer, type ResolvedAction, type StoredAction } from '../actionKeys';
import { hasKeyForm, IssueOrder, judgePress, newActionKey, type ActionKeyRow } from '../actionKeyForm';
import { threadColumn } from '../rows';
import type { PgDatabase } from './pgDatabase';

const INSERT = `
INSERT INTO action_keys (key, platform, chat_id, thread_id, command, args, refresh, expires_at, user_id, issued_at)
SELECT key, $2, $3, $4, command, args, refresh, $5, $9, issued_at
FROM unnest($1::text[], $6::text[], $7::text[], $8::boolean[], $10::bigint[]) AS k(key, command, args, refresh, issued_at)
ON CONFLICT (key) DO NOTHING`;

/** Past a budget the oldest go: everything after the newest N of the person ($2, none when '') and of the chat. */
const TRIM = `
DELETE FROM action_keys WHERE key IN (
  (SELECT key FROM action_keys WHERE platform = $1 AND user_id = $2 AND user_id <> '' ORDER BY issued_at DESC OFFSET $3)
  UNION ALL
  (SELECT key FROM action_keys WHERE platform = $1 AND chat_id = $4 ORDER BY issued_at DESC OFFSET $5))`;

export class PgActionKeys implements ActionKeyStore {
  /** Inserts under way, by key: a press of one of them waits for it. */
  private readonly inserting = new Map<string, Promise<void>>();
  private readonly order = new IssueOrder();

  constructor(
    private readonly db: PgDatabase,
    private readonly logger: Logger,
  ) {}

  async issueAll(
    actions: readonly StoredAction[],
    chat: ChatRef,
    expiresAt: Date,
    issuer: KeyIssuer = { userId: null },
  ): Promise<string[]> {
    if (actions.length === 0) return [];
    if (!this.db.available) {
      // Fails at once, with the store's own error: no key is handed out that could not be kept.
      await this.db.query({ text: 'SELECT 1' });
    }
    const nowMs = Date.now();
    // 72 random bits per key: two alike do not happen; a Set keeps this card's keys apart all the same.
    const keys = new Set<string>();
    while (keys.size < actions.length) keys.add(newActionKey(nowMs));
    const issued = [...keys];
    const userId = issuer.userId ?? '';
    const budget = issuer.budget ?? DEFAULT_ACTION_KEY_BUDGET;
    const insert = this.db
      .durableQuery({
        name: 'tw_action_keys_insert',
        text: INSERT,
        values: [
          issued,
          chat.platform,
          chat.chatId,
          threadColumn(chat.threadId),
          expiresAt.getTime(),
          actions.map((action) => action.command),
          actions.map((action) => JSON.stringify(action.args)),
          actions.map((action) => action.refresh === true),
          userId,
          issued.map(() => this.order.next(nowMs)),
        ],
      })
      .then(() =>
        this.db.durableQuery({
          name: 'tw_action_keys_trim',
          text: TRIM,
          values: [chat.platform, userId, budget.perPerson, chat.chatId, budget.perChat],
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          // The card went out with buttons that will answer "unknown"; the log says why.
          this.logger.warn({ err: error, keys: issued.length }, 'action keys could not be written; their buttons will not work');
        },
      )
      .finally(() => {
        for (const key of issued) if (this.inserting.get(key) === insert) this.inserting.delete(key);
      });
    for (const key of issued) this.inserting.set(key, insert);
    return issued;
  }

  /** Waits for the key's insert when it is still under way; then the same checks as every store. */
  async resolve(key: string, chat: ChatRef, now: Date): Promise<ResolvedAction> {
    if (!hasKeyForm(key)) return { status: 'unknown' };
    const pending = this.inserting.get(key);
    if (pending !== undefined) await pending;
    const { rows } = await this.db.query<ActionKeyRow>({
      name: 'tw_action_key',
      text: 'SELECT platform, chat_id, thread_id, command, args, refresh, expires_at FROM action_keys WHERE key = $1',
      values: [key],
    });
    return judgePress(rows[0], chat, now);
  }

  /** After the inserts under way: a key issued before the prune is there for it to see. */
  async prune(now: Date): Promise<number> {
    await this.settled();
    const { rowCount } = await this.db.query({ text: 'DELETE FROM action_keys WHERE expires_at <= $1', values: [now.getTime()] });
    return rowCount ?? 0;
  }

  /** Resolves once every insert under way has completed (close waits for them). */
  async settled(): Promise<void> {
    await Promise.all([...new Set(this.inserting.values())]);
  }
}
