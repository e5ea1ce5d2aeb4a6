/**
 * Alerts to Discord channels: one embed (and its picture) per alert, posted over REST at Discord's
 * pace of 5 messages per 5 seconds per channel, with mentions switched off.
 *
 * A channel the bot can no longer write to (deleted, permission lost, server left) answers 403 or
 * 404; every such answer counts toward Discord's invalid-request budget (10,000 in 10 minutes bans
 * the bot for a while), so the first one is reported as `gone`: delivery pauses the chat and sends
 * it nothing more, and a send to it already waiting for its slot when the first failed is answered
 * as gone without asking Discord again. (A chat resumed later is tried afresh.)
 *
 * Each alert's message carries its send key (the outbox row's id) as `nonce` with `enforce_nonce`:
 * Discord answers the same nonce again, within a few minutes, with the message it already posted,
 * so a send repeated after a crash (posted, but not yet marked delivered) posts once.
 */
import { createHash } from 'node:crypto';
import { DiscordAPIError, HTTPError, RateLimitError, Routes, type REST, type RawFile } from 'discord.js';
import type { Card } from '../../cards/card';
import type { ActionButton, ChatRef } from '../../model/chat';
import type { Logger } from '../../log';
import type { AlertSender, SendOutcome } from '../../delivery/sender';
import { renderOnce } from '../../delivery/renderOnce';
import { buttonRows, renderCard, type DiscordCardMessage } from './embed';
import { ChannelPacer } from './pacer';

/** Discord's JSON error codes that mean the channel cannot be written to. */
export const GONE_CODES: ReadonlyMap<number, string> = new Map([
  [10003, 'Unknown Channel'],
  [10004, 'Unknown Guild'],
  [50001, 'Missing Access'],
  [50013, 'Missing Permissions'],
  [50007, 'Cannot send messages to this user'],
]);

/** How long a failure is remembered for sends that were waiting when it came; longer than any pacer wait. */
const GONE_MEMORY_MS = 60 * 1000;
/** A refused bot token: nothing will go through until the operator fixes it. */
const UNAUTHORIZED_RETRY_MS = 10 * 60 * 1000;

/** Discord's longest nonce. */
export const MAX_NONCE_LENGTH = 25;

/** A send key as a nonce: as it is when short enough, else a digest of it of the longest length. */
export function nonceOf(key: string): string {
  if (key.length <= MAX_NONCE_LENGTH) return key;
  return createHash('sha256').update(key).digest('base64url').slice(0, MAX_NONCE_LENGTH);
}

/** The REST body of a message: embeds, buttons, no mentions, and the files it shows. */
export function messageBody(message: DiscordCardMessage): { body: Record<string, unknown>; files: RawFile[] } {
  return {
    body: {
      embeds: message.embeds,
      components: message.components,
      allowed_mentions: { parse: [] },
      attachments: message.files.map((file, id) => ({
        id,
        filename: file.name,
        ...(file.description === undefined ? {} : { description: file.description }),
      })),
    },
    files: message.files.map((file) => ({ name: file.name, data: file.data, contentType: file.contentType })),
  };
}

/** What a failed send means for delivery. */
export function outcomeOfError(error: unknown): SendOutcome {
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === 'number' ? error.code : Number.NaN;
    const known = GONE_CODES.get(code);
    if (known !== undefined) return { status: 'gone', reason: `${known} (${code})` };
    if (error.status === 403 || error.status === 404)
      return { status: 'gone', reason: `HTTP ${error.status}: ${error.message.slice(0, 120)}` };
    if (error.status === 401) return { status: 'retry', afterMs: UNAUTHORIZED_RETRY_MS, reason: 'bot token refused (401)' };
    return { status: 'retry', afterMs: null, reason: `HTTP ${error.status} (${String(error.code)})` };
  }
  if (error instanceof RateLimitError) return { status: 'retry', afterMs: error.retryAfter, reason: 'rate limited' };
  if (error instanceof HTTPError) {
    if (error.status === 403 || error.status === 404) return { status: 'gone', reason: `HTTP ${error.status}` };
    return { status: 'retry', afterMs: null, reason: `HTTP ${error.status}` };
  }
  const name = error instanceof Error ? (('code' in error && typeof error.code === 'string' ? error.code : null) ?? error.name) : 'error';
  return { status: 'retry', afterMs: null, reason: `network: ${name}` };
}

export interface DiscordSenderOptions {
  rest: REST;
  logger: Logger;
  pacer?: ChannelPacer;
  now?: () => number;
}

export class DiscordAlertSender implements AlertSender {
  readonly platform = 'discord' as const;
  private readonly pacer: ChannelPacer;
  private readonly gone = new Map<string, { reason: string; at: number }>();
  private readonly now: () => number;
  private readonly render = renderOnce(renderCard);
  /** Sends made, for the bench and the logs. */
  sent = 0;

  constructor(private readonly options: DiscordSenderOptions) {
    this.pacer = options.pacer ?? new ChannelPacer();
    this.now = options.now ?? (() => Date.now());
  }

  async send(chat: ChatRef, card: Card, buttons: ActionButton[], key?: string): Promise<SendOutcome> {
    const channel = chat.chatId;
    const startedAt = this.now();
    // The embed is rendered once per alert however many channels get it; buttons belong to each channel.
    const message = messageBody({ ...this.render(card), components: buttonRows(buttons) });
    const keyed = key === undefined ? message.body : { ...message.body, nonce: nonceOf(key), enforce_nonce: true };
    // A call's milestone answers the post that made it; a post deleted since only loses the reply.
    const body =
      card.replyTo === undefined ? keyed : { ...keyed, message_reference: { message_id: card.replyTo, fail_if_not_exists: false } };
    const files = message.files;
    await this.pacer.take(channel);
    // A send that waited for its slot may find the channel gone meanwhile.
    const goneWhileWaiting = this.goneSince(channel, startedAt);
    if (goneWhileWaiting !== null) return { status: 'gone', reason: goneWhileWaiting };
    try {
      await this.options.rest.post(Routes.channelMessages(channel), { body, files: files.length > 0 ? files : undefined });
      this.sent += 1;
      return { status: 'sent' };
    } catch (error) {
      const outcome = outcomeOfError(error);
      if (outcome.status === 'gone') {
        this.remember(channel, outcome.reason);
        this.options.logger.warn(
          { channel, guild: chat.scopeId, reason: outcome.reason },
          'discord channel cannot be written to; its alerts pause',
        );
      } else if (outcome.status === 'retry') {
        this.options.logger.info({ channel, reason: outcome.reason }, 'discord alert send failed; delivery retries');
      }
      return outcome;
    }
  }

  private remember(channel: string, reason: string): void {
    const now = this.now();
    for (const [key, entry] of this.gone) if (now - entry.at > GONE_MEMORY_MS) this.gone.delete(key);
    this.gone.set(channel, { reason, at: now });
  }

  /** The reason a channel failed at or after `since`, or null. */
  private goneSince(channel: string, since: number): string | null {
    const entry = this.gone.get(channel);
    return entry !== undefined && entry.at >= since ? entry.reason : null;
  }
}
