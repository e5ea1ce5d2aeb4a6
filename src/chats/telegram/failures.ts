/**
 * What a failed Bot API call means for the chat it was for. Telegram answers with a code and an
 * English description (the codes are coarse: one 400 covers a deleted chat and a malformed
 * message), so the description is read too. Pure: the error in, a decision out.
 *
 * - gone: the bot can no longer write there (blocked by the user, kicked, chat deleted, rights to
 *   send taken away): delivery pauses the chat instead of retrying, as retrying only piles up
 *   refused requests;
 * - migrated: a group became a supergroup, with the new id;
 * - thread-gone: the forum topic was deleted or closed: the chat itself still takes messages;
 * - bad-message: this message will never be accepted as it is (markup, length, button data);
 * - rate-limited: a 429 whose retry_after was past what auto-retry waits for;
 * - passing: anything else (5xx, network): try again later.
 */
import { GrammyError, HttpError } from 'grammy';

export type TelegramFailure =
  | { kind: 'gone'; reason: string }
  | { kind: 'migrated'; toChatId: string; reason: string }
  | { kind: 'thread-gone'; reason: string }
  | { kind: 'bad-message'; reason: string }
  | { kind: 'rate-limited'; retryAfterMs: number; reason: string }
  | { kind: 'passing'; reason: string };

const GONE = new RegExp(
  [
    'chat not found|bot was blocked|bot was kicked|bot is not a member|user is deactivated',
    'group chat was deactivated|chat_write_forbidden|not enough rights to send|have no rights to send',
    'need administrator rights|peer_id_invalid|chat_restricted|channel_private',
  ].join('|'),
  'i',
);
const THREAD_GONE = /message thread not found|topic_deleted|topic_closed|thread not found/i;
const BAD_MESSAGE = new RegExp(
  [
    "can't parse entities|message is too long|message text is empty|caption is too long|button_data_invalid",
    'reply markup is too long|entities_too_long|wrong http url|button_url_invalid|wrong file identifier',
    'failed to get http url content|wrong type of the web page content|photo_invalid_dimensions',
    'image_process_failed',
  ].join('|'),
  'i',
);

/** At most this much of Telegram's description goes into a log line or the outbox. */
const MAX_REASON = 200;

/** Telegram's code and description; a server that is not Telegram may leave either out (see failureBodies.ts). */
function reasonOf(code: number | undefined, description: string | undefined): string {
  const said = description === undefined || description.trim() === '' ? 'no description' : description;
  return (typeof code === 'number' ? `${code} ${said}` : said).slice(0, MAX_REASON);
}

export function classifyTelegramError(error: unknown): TelegramFailure {
  if (error instanceof GrammyError) {
    const reason = reasonOf(error.error_code, error.description);
    const migrateTo = error.parameters?.migrate_to_chat_id;
    if (typeof migrateTo === 'number') return { kind: 'migrated', toChatId: String(migrateTo), reason };
    if (error.error_code === 429) {
      const seconds = error.parameters?.retry_after;
      return { kind: 'rate-limited', retryAfterMs: typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 1000, reason };
    }
    if (THREAD_GONE.test(error.description)) return { kind: 'thread-gone', reason };
    if (error.error_code === 403 || GONE.test(error.description)) return { kind: 'gone', reason };
    if (error.error_code === 400 && BAD_MESSAGE.test(error.description)) return { kind: 'bad-message', reason };
    return { kind: 'passing', reason };
  }
  // grammY's HttpError message names the method, never the token (sensitiveLogs is off).
  if (error instanceof HttpError) return { kind: 'passing', reason: error.message.slice(0, MAX_REASON) };
  return { kind: 'passing', reason: (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON) };
}
