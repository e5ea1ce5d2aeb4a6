/**
 * One platform's drain of the outbox: takes the rows that are due, groups them by chat, and sends
 * each chat's alerts through the platform's AlertSender — chats side by side, each chat's alerts in
 * the order they happened. A row is marked delivered only once the platform has accepted it, so a
 * crash between the two sends that alert again on the next start (at least once, never lost); a
 * row marked delivered is never sent again.
 *
 * An alert the platform accepted whose record the store could not take (a database away, a full
 * disk) is remembered here: it is recorded before anything else is read or sent, and never sent
 * again from this process, so an outage of the store between a send and its record repeats nothing.
 *
 * Failures: a `retry` outcome waits (doubling, capped, or the platform's own figure when longer) and
 * holds the whole chat until then, so a later alert never overtakes an earlier one; a `gone` outcome
 * pauses the chat once, with one log line, and its rows wait for the chat to be resumed instead of
 * being tried forever (Discord bans a bot that keeps writing where it may not).
 */
import { riskColor, type Card } from '../cards/card';
import { chatKey, type ActionButton, type ChatRef } from '../model/chat';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import type { OutboxEntry } from '../model/follow';
import { retryDelayMs, type BackoffPolicy } from './backoff';
import type { AlertCardCache } from './cardCache';
import { DIGEST_MAX_ITEMS, digestCard } from './digest';
import { alertKind } from '../alerts/registry';
import type { AlertSender, SendOutcome } from './sender';
import { withTiming } from './timingFooter';
import { applyAlertControls, budgetNoticeCard, heldDigestText } from './alertControls';

/** The buttons for a card's actions in one chat (action keys belong to the chat they are shown in). */
export type ButtonsFor = (card: Card, chat: ChatRef) => Promise<ActionButton[]>;

export interface DrainSettings {
  /** Rows read per round. */
  batchSize: number;
  /** Chats sent to at the same time. */
  concurrency: number;
  /** More alerts than this waiting for one chat are merged into digests. */
  digestThreshold: number;
  backoff: BackoffPolicy;
}

export interface DrainDeps {
  store: Store;
  sender: AlertSender;
  cards: AlertCardCache;
  buttonsFor: ButtonsFor;
  logger: Logger;
  now: () => Date;
  /** Called once when a chat is paused, so its follows leave the watcher's targets. */
  onPaused?: (chat: ChatRef, reason: string) => void;
  /** Called after the platform accepted a message, with the rows it carried (one, or a digest's). */
  onDelivered?: (platform: AlertSender['platform'], rows: readonly OutboxEntry[], at: Date) => void;
  /**
   * Whether this process is the platform's sender now (several processes: the one holding the
   * platform's lease, src/cluster/); checked before each round and each message. Absent: always.
   */
  active?: () => boolean;
}

/** Why a send failed, in the few words a counter may carry: a wait asked for, another failure, a chat gone. */
export type SendFailure = 'throttled' | 'error' | 'gone';

export interface DrainCounters {
  sent: number;
  /** Alerts that went out inside a digest (also counted in `sent`). */
  digested: number;
  digests: number;
  retried: number;
  paused: number;
  /** Alerts delivered, by kind (`risk-status`, `price`…): `sent` split up. */
  sentByKind: Record<string, number>;
  /** Sends that failed, by why (a throttled send is one the platform asked to wait for). */
  failures: Record<SendFailure, number>;
}

export interface RoundResult {
  /** A full batch was read and something moved: more may be due now. */
  more: boolean;
  /** Epoch ms of the earliest retry this round scheduled, so the loop wakes for it. */
  nextRetryAt: number | null;
}

/** What goes out as one message: one alert, or a digest of several. */
interface Unit {
  ids: number[];
  rows: OutboxEntry[];
  attempts: number;
  card: Card;
  buttons: ActionButton[];
}

export class OutboxDrain {
  readonly counters: DrainCounters = {
    sent: 0,
    digested: 0,
    digests: 0,
    retried: 0,
    paused: 0,
    sentByKind: {},
    failures: { throttled: 0, error: 0, gone: 0 },
  };
  /**
   * Chats held after a failure, until epoch ms. The store holds them too (deferChat), but a row
   * committed after the failure is due at once: this keeps it behind the one that failed.
   */
  private readonly held = new Map<string, number>();
  /** Chats told their hourly budget ran out, with the hour told: once an hour at most. */
  private readonly budgetTold = new Map<string, number>();
  /** Messages the platform accepted whose rows the store could not mark delivered yet, oldest first. */
  private readonly unrecorded: Array<{ ids: number[]; at: Date }> = [];
  private stopping = false;
  /**
   * Rows that may have reached the platform already without being marked delivered: taken over
   * with the platform's sender lease from another sender (it may have died between a send and its
   * mark), or carried by a send that failed (a timeout or a lost answer may come after the platform
   * took it). They go out again as the messages they went out as (unitsOf), then leave this set.
   */
  private readonly maybeSent = new Set<number>();
  /** Takeovers asked for, run at the start of the next round (takeOver). */
  private readonly takeovers: Array<{
    take: () => Promise<readonly number[]>;
    done: (rows: number) => void;
    failed: (error: unknown) => void;
  }> = [];

  constructor(
    private readonly deps: DrainDeps,
    private readonly settings: DrainSettings,
  ) {}

  get platform(): AlertSender['platform'] {
    return this.deps.sender.platform;
  }

  private isActive(): boolean {
    return this.deps.active?.() ?? true;
  }

  /** No new send starts after this; sends already under way finish and are recorded. */
  stop(): void {
    this.stopping = true;
    for (const takeover of this.takeovers.splice(0)) takeover.done(0);
  }

  /**
   * This process took the platform's sender lease: `take` gives back the claims another sender
   * holds and returns those rows' ids. It runs at the start of the next round, never while one
   * reads or sends, so no round meets those rows before they are known. Resolves with their number.
   */
  takeOver(take: () => Promise<readonly number[]>): Promise<number> {
    if (this.stopping) return Promise.resolve(0);
    return new Promise((done, failed) => this.takeovers.push({ take, done, failed }));
  }

  private async runTakeovers(): Promise<void> {
    for (let next = this.takeovers.shift(); next !== undefined; next = this.takeovers.shift()) {
      try {
        const ids = await next.take();
        for (const id of ids) this.maybeSent.add(id);
        next.done(ids.length);
      } catch (error) {
        next.failed(error);
      }
    }
  }

  async round(): Promise<RoundResult> {
    const { store, sender } = this.deps;
    // Before anything else, whether or not this process sends now: what was sent is recorded, or the round ends here.
    await this.recordSent();
    await this.runTakeovers();
    if (!this.isActive()) {
      // Another process sends now: what it takes over is its own to know.
      this.maybeSent.clear();
      return { more: false, nextRetryAt: null };
    }
    const now = this.deps.now();
    const rows = await store.outbox.due(sender.platform, now, this.settings.batchSize);
    const byChat = new Map<string, { chat: ChatRef; rows: OutboxEntry[] }>();
    for (const row of rows) {
      const key = chatKey(row.chat);
      const heldUntil = this.held.get(key);
      if (heldUntil !== undefined && heldUntil > now.getTime()) continue;
      this.held.delete(key);
      const group = byChat.get(key);
      if (group === undefined) byChat.set(key, { chat: row.chat, rows: [row] });
      else group.rows.push(row);
    }

    const groups = [...byChat.values()];
    let moved = 0;
    let nextRetryAt: number | null = null;
    const worker = async (): Promise<void> => {
      for (let group = groups.shift(); group !== undefined && !this.stopping; group = groups.shift()) {
        const result = await this.sendChat(group.chat, group.rows);
        moved += result.moved;
        if (result.retryAt !== null) nextRetryAt = nextRetryAt === null ? result.retryAt : Math.min(nextRetryAt, result.retryAt);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, groups.length) }, worker));
    return { more: rows.length >= this.settings.batchSize && moved > 0 && !this.stopping, nextRetryAt };
  }

  /**
   * The chat's units, in order. Rows that may have reached the platform already (maybeSent) come
   * first and are made into units by themselves, as they were made when they went out (they were
   * the chat's oldest then, and still are), not merged with rows written since: a message that may
   * have been posted goes out again as the same message, the same rows under the same send key,
   * which Discord posts once (its nonce) and Telegram shows as one message twice, instead of a
   * larger digest repeating every alert of it.
   */
  private async unitsOf(chat: ChatRef, rows: OutboxEntry[]): Promise<Unit[]> {
    const again = rows.filter((row) => this.maybeSent.has(row.id));
    if (again.length === 0) return this.unitsFrom(chat, rows);
    const since = rows.filter((row) => !this.maybeSent.has(row.id));
    return [...(await this.unitsFrom(chat, again)), ...(await this.unitsFrom(chat, since))];
  }

  /**
   * Units of these rows, in order: each alert alone, or digests when too many wait. An alert of a
   * kind that is sent alone (a daily watchlist) keeps its own card and its place among them.
   */
  private async unitsFrom(chat: ChatRef, rows: OutboxEntry[]): Promise<Unit[]> {
    const cards = await Promise.all(rows.map((row) => this.cardOf(row)));
    const single = async (index: number): Promise<Unit> => {
      const row = rows[index] as OutboxEntry;
      const card = cards[index] as Card;
      return {
        ids: [row.id],
        rows: [row],
        attempts: row.attempts,
        card: withTiming(card, row.event, this.deps.now()),
        buttons: await this.buttons(card, chat),
      };
    };
    const merged = rows.flatMap((row, index) => (alertKind(row.event.kind)?.alone === true ? [] : [index]));
    // Too many waiting: all of them in digests. Else only rows held back (quiet hours, the budget)
    // go together, as the digest they were held for; a lone held row needs no digest.
    const heldRows = merged.filter((index) => rows[index]?.held !== undefined);
    const digested = merged.length > this.settings.digestThreshold ? merged : heldRows.length > 1 ? heldRows : [];
    if (digested.length === 0) return Promise.all(rows.map((_row, index) => single(index)));
    const reasons = new Set(digested.map((index) => rows[index]?.held));
    const onlyReason = reasons.size === 1 ? [...reasons][0] : undefined;
    const why = onlyReason === undefined ? undefined : heldDigestText(onlyReason);
    const parts = Math.ceil(digested.length / DIGEST_MAX_ITEMS);
    const units: Unit[] = [];
    for (let part = 0; part < parts; part += 1) {
      const slice = digested.slice(part * DIGEST_MAX_ITEMS, (part + 1) * DIGEST_MAX_ITEMS);
      const sliceRows = slice.map((index) => rows[index] as OutboxEntry);
      units.push({
        ids: sliceRows.map((row) => row.id),
        rows: sliceRows,
        attempts: Math.max(...sliceRows.map((row) => row.attempts)),
        card: digestCard(
          slice.map((index) => cards[index] as Card),
          this.deps.now(),
          part + 1,
          parts,
          why,
        ),
        buttons: [],
      });
    }
    const alone = await Promise.all(rows.flatMap((_row, index) => (digested.includes(index) ? [] : [single(index)])));
    // In the order they were written: each alone card before the digest whose first alert came after it.
    return [...units, ...alone].sort((a, b) => (a.ids[0] ?? 0) - (b.ids[0] ?? 0));
  }

  /**
   * Quiet hours and the hourly budget (src/delivery/alertControls.ts): rows that must wait are
   * held in the store, and the chat is told once an hour that its budget ran out.
   */
  private async controlled(chat: ChatRef, rows: OutboxEntry[]): Promise<{ rows: OutboxEntry[]; notice: Card | null }> {
    const { store } = this.deps;
    const settings = await store.chats.settings(chat);
    if (settings.quiet === undefined && settings.budget === undefined) return { rows, notice: null };
    const result = await applyAlertControls(store, chat, settings, rows, this.deps.now());
    const spent = result.budgetSpent;
    const key = chatKey(chat);
    if (spent === null || this.budgetTold.get(key) === spent.hourStart) return { rows: result.send, notice: null };
    this.budgetTold.set(key, spent.hourStart);
    return { rows: result.send, notice: budgetNoticeCard(spent.budget, new Date(spent.until)) };
  }

  /** The budget's notice, after the alerts it let through: best effort, said once that hour whatever the outcome. */
  private async tell(chat: ChatRef, notice: Card): Promise<void> {
    const outcome = await this.send(
      chat,
      { ids: [], rows: [], attempts: 0, card: notice, buttons: [] },
      `twbudget${notice.timestamp?.getTime() ?? 0}`,
    );
    if (outcome.status !== 'sent')
      this.deps.logger.warn({ chat: chatKey(chat), reason: outcome.reason }, 'hourly budget notice not delivered');
  }

  /**
   * A card that cannot be built (a bug, a picture that fails in a way its builder did not catch)
   * must not hold the chat's alerts forever: the alert goes out as a plain card naming what happened.
   */
  private async cardOf(row: OutboxEntry): Promise<Card> {
    try {
      return await this.deps.cards.get(row.event, row.label);
    } catch (error) {
      this.deps.logger.error({ err: error, event: row.event.key }, 'alert card could not be built; sending a plain one');
      return {
        title: `Alert (${row.event.kind}): ${row.event.token.symbol || row.event.token.address}`,
        color: riskColor(row.event.token.riskStatus),
        fields: [],
        footer: row.event.token.address,
        actions: [],
      };
    }
  }

  /** Buttons are a nicety: when they cannot be issued the alert still goes out, without them. */
  private async buttons(card: Card, chat: ChatRef): Promise<ActionButton[]> {
    if (card.actions.length === 0) return [];
    try {
      return await this.deps.buttonsFor(card, chat);
    } catch (error) {
      this.deps.logger.warn({ err: error, chat: chatKey(chat) }, 'alert buttons could not be issued; sending without them');
      return [];
    }
  }

  private async send(chat: ChatRef, unit: Unit, key = `tw${unit.ids.join('.')}`): Promise<SendOutcome> {
    try {
      // The key names exactly the rows the message carries: a digest sent again with one more row
      // in it is another message, not a repeat of the first.
      return await this.deps.sender.send(chat, unit.card, unit.buttons, key);
    } catch (error) {
      // A sender should answer with an outcome; one that throws is treated as a passing failure.
      return { status: 'retry', afterMs: null, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Marks a message's rows delivered; when the store cannot take it, the message is remembered as sent (above) and the round ends. */
  private async record(ids: number[], at: Date): Promise<void> {
    try {
      await this.deps.store.outbox.markDelivered(ids, at);
    } catch (error) {
      this.unrecorded.push({ ids, at });
      throw error;
    }
  }

  /** Records what was sent while the store could not take it, oldest first; throws while it still cannot. */
  private async recordSent(): Promise<void> {
    while (this.unrecorded.length > 0) {
      const sent = this.unrecorded[0] as { ids: number[]; at: Date };
      await this.deps.store.outbox.markDelivered(sent.ids, sent.at);
      this.unrecorded.shift();
    }
  }

  private async sendChat(chat: ChatRef, rows: OutboxEntry[]): Promise<{ moved: number; retryAt: number | null }> {
    const { store, logger } = this.deps;
    const key = chatKey(chat);
    const controlled = await this.controlled(chat, rows);
    const units = await this.unitsOf(chat, controlled.rows);
    let moved = 0;
    for (const unit of units) {
      // A sender that lost its lease sends nothing more: the rows it claimed are taken over by the next one.
      if (this.stopping || !this.isActive()) break;
      const outcome = await this.send(chat, unit);
      for (const id of unit.ids) this.maybeSent.delete(id);
      const now = this.deps.now();
      if (outcome.status === 'sent') {
        // Counted as delivered whether or not the store takes the record now: the platform has it.
        this.counters.sent += unit.ids.length;
        if (unit.ids.length > 1) {
          this.counters.digests += 1;
          this.counters.digested += unit.ids.length;
        }
        for (const row of unit.rows) this.counters.sentByKind[row.event.kind] = (this.counters.sentByKind[row.event.kind] ?? 0) + 1;
        this.deps.onDelivered?.(this.platform, unit.rows, now);
        await this.record(unit.ids, now);
        moved += unit.ids.length;
        continue;
      }
      if (outcome.status === 'gone') {
        await store.chats.pause(chat, outcome.reason, now);
        this.counters.paused += 1;
        this.counters.failures.gone += 1;
        logger.warn(
          { chat: key, reason: outcome.reason, waiting: rows.length - moved },
          'chat cannot be written to: its follows are paused',
        );
        this.deps.onPaused?.(chat, outcome.reason);
        return { moved, retryAt: null };
      }
      this.counters.failures[outcome.afterMs === null ? 'error' : 'throttled'] += 1;
      const delay = retryDelayMs(unit.attempts + 1, this.settings.backoff, outcome.afterMs);
      const until = now.getTime() + delay;
      // The platform may have taken it before the failure came back: it goes out again as this message.
      for (const id of unit.ids) this.maybeSent.add(id);
      await store.outbox.retryAt(unit.ids, new Date(until), outcome.reason);
      // The rest of the chat waits too, in the store and here, so that order holds.
      await store.outbox.deferChat(chat, new Date(until));
      this.held.set(key, until);
      this.counters.retried += unit.ids.length;
      logger.warn({ chat: key, attempts: unit.attempts + 1, retryInMs: delay, reason: outcome.reason }, 'alert not delivered; will retry');
      return { moved, retryAt: until };
    }
    if (controlled.notice !== null && !this.stopping) await this.tell(chat, controlled.notice);
    return { moved, retryAt: null };
  }
}
