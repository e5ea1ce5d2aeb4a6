/**
 * What both stores' action keys share: the key's form, and the order in which a press is judged.
 * A key is 15 bytes in base64url, 20 characters of [A-Za-z0-9_-]: the time it was issued (6 bytes
 * of epoch milliseconds), then 9 random bytes. The random 72 bits cannot be guessed (and a key
 * works only in the chat it was shown in); the time in front keeps a card's keys, and the keys of
 * cards issued close together, side by side in the table's index, so a card's keys dirty one page
 * of it rather than one page each. A key says nothing about the action or the chat.
 */
import { randomBytes } from 'node:crypto';
import type { ChatRef } from '../model/chat';
import type { ResolvedAction, StoredAction } from './actionKeys';
import { threadColumn } from './rows';

const KEY_BYTES = 15;
const TIME_BYTES = 6;
const KEY_FORM = /^[A-Za-z0-9_-]{1,20}$/;

export function newActionKey(nowMs: number): string {
  const bytes = randomBytes(KEY_BYTES);
  bytes.writeUIntBE(nowMs, 0, TIME_BYTES);
  return bytes.toString('base64url');
}

/** Whether a pressed key could be one of ours at all: anything else is unknown without a look-up. */
export function hasKeyForm(key: string): boolean {
  return KEY_FORM.test(key);
}

/** An action key as a store keeps it. */
export interface ActionKeyRow {
  platform: string;
  chat_id: string;
  thread_id: string;
  command: string;
  args: string;
  refresh: boolean;
  expires_at: number;
}

function parseArgs(text: string): string[] | null {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
}

/**
 * The key is bound to the chat it was shown in: platform, chat id and thread (a forum topic), as
 * the in-memory store binds it. The checks come in the same order as there: unknown, then expired,
 * then another chat's.
 */
export function judgePress(row: ActionKeyRow | undefined, chat: ChatRef, now: Date): ResolvedAction {
  if (!row) return { status: 'unknown' };
  if (row.expires_at <= now.getTime()) return { status: 'expired' };
  if (row.platform !== chat.platform || row.chat_id !== chat.chatId || row.thread_id !== threadColumn(chat.threadId))
    return { status: 'wrong-chat' };
  const args = parseArgs(row.args);
  if (args === null) return { status: 'unknown' };
  const action: StoredAction = { command: row.command, args };
  if (row.refresh) action.refresh = true;
  return { status: 'ok', action };
}

/**
 * The order keys are dropped in, oldest first: the issue time in microseconds, one step past the
 * last key this process issued, so that a card's keys and keys of the same millisecond keep the
 * order they were issued in.
 */
export class IssueOrder {
  private last = 0;

  next(nowMs: number): number {
    this.last = Math.max(nowMs * 1000, this.last + 1);
    return this.last;
  }
}
