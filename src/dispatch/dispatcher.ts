/**
 * The one entry point every chat uses. A chat hands over a command's name and what the person
 * typed (a line of text, or the named options of a slash command) with who asked and where; the
 * Dispatcher parses it, checks the command's policy (manager only, cooldown), runs it and always
 * answers with a ChatReply: the card, its buttons as short keys, and on a failure an error id that
 * the log line carries too. Nothing here knows a chat platform.
 *
 * Order of the checks: parse first (a typo is answered at once and costs no cooldown), then the
 * manager check (asked only of commands that need it, since Telegram answers it with a request),
 * then the cooldown (taken only by a run that goes ahead), then the run.
 */
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import type { Card, CardAction } from '../cards/card';
import { cardForError } from '../cards/errorCard';
import { isStoreUnavailable } from '../store/storeUnavailable';
import { actionGoneCard, cooldownCard, managerOnlyCard } from '../cards/noticeCard';
import { chatKey, type ActionButton, type ChatRef, type Platform } from '../model/chat';
import { type ChatReply } from './reply';
import { parseDurationMs } from '../duration';
import type { Logger } from '../log';
import { isMarketError } from '../market/errors';
import type { ActionKeyBudget, ActionKeyStore } from '../store/actionKeys';
import { UsageError } from '../usage';
import type { AnyCommand, CommandContext, CommandServices } from './command';
import { Cooldowns } from './cooldowns';
import { argWords, commandNameOf, parseWords, readOptions, unknownCommand, type Args, type RawValue } from './parseArgs';
import { withLoadedActions } from './loadedActions';
import { FormMissingError } from './formMissing';
import { askedAddress, isNotFound, notFoundHint } from './notFound';

export interface CommandCaller {
  chat: ChatRef;
  userId: string;
  /** Asked only when a command needs a manager (Telegram asks getChatMember). */
  isManager(): Promise<boolean>;
  /** The person's display name (untrusted text) and the message they typed, where the chat has them: a call records both. */
  userName?: string | null;
  messageId?: string | null;
}

export type CommandInput = { kind: 'text'; text: string } | { kind: 'options'; values: Record<string, RawValue> };

export interface DispatcherDeps {
  commands: readonly AnyCommand[];
  services: CommandServices;
  actionKeys: ActionKeyStore;
  logger: Logger;
  now?: () => Date;
  /** How long a card's buttons stay pressable; 24 hours unless given. */
  actionTtlMs?: number;
  /** Button keys kept per person and per chat (ACTION_KEYS_PER_PERSON, ACTION_KEYS_PER_CHAT); the store's defaults unless given. */
  actionKeyBudget?: ActionKeyBudget;
  /** Applied to the card of every reply, refusals and errors included: app.ts marks simulated data with it. */
  markCard?: (card: Card) => Card;
  /** Called after every run with the command's name (`unknown` for a name no command has) and how long it took. */
  onAnswered?: (command: string, seconds: number) => void;
}

/** How a run ended, in the words a counter may carry. */
export type CommandResult = 'ok' | 'usage' | 'not-manager' | 'cooldown' | 'error';

/** Runs of one command in one platform's chats that ended one way. */
export interface CommandCount {
  /** A loaded command's name, or `unknown`: never what a person typed. */
  command: string;
  platform: Platform;
  result: CommandResult;
  count: number;
}

/** A day: long enough to press a button on yesterday's answer, short enough that stored keys stay few. */
export const DEFAULT_ACTION_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired keys are swept at most this often, on the way to issuing new ones. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** 8 hexadecimal characters: short enough to quote, enough to find one line among a day's. */
export function newErrorId(): string {
  return randomBytes(4).toString('hex');
}

/** Cooldown lengths read once from the definitions; a definition with a wrong one stops start-up. */
function cooldownsOf(commands: readonly AnyCommand[]): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const command of commands) {
    if (command.cooldown === undefined) continue;
    const ms = parseDurationMs(command.cooldown);
    if (ms === null || ms <= 0)
      throw new Error(`command "${command.name}": cooldown "${command.cooldown}" is not a duration such as 10s or 1m`);
    lengths.set(command.name, ms);
  }
  return lengths;
}

export class Dispatcher {
  readonly commands: readonly AnyCommand[];
  private readonly byName: ReadonlyMap<string, AnyCommand>;
  private readonly services: CommandServices;
  private readonly actionKeys: ActionKeyStore;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly actionTtlMs: number;
  private readonly actionKeyBudget: ActionKeyBudget | undefined;
  private readonly cooldownMs: ReadonlyMap<string, number>;
  private readonly cooldowns = new Cooldowns();
  private readonly markCard: (card: Card) => Card;
  private lastPruneMs = Number.NEGATIVE_INFINITY;
  private readonly onAnswered: ((command: string, seconds: number) => void) | null;
  /** Runs by command, platform and result, under one key each. */
  private readonly counts = new Map<string, CommandCount>();

  constructor(deps: DispatcherDeps) {
    this.commands = deps.commands;
    this.byName = new Map(deps.commands.map((command) => [command.name, command]));
    this.services = deps.services;
    this.actionKeys = deps.actionKeys;
    this.logger = deps.logger;
    this.now = deps.now ?? (() => new Date());
    this.actionTtlMs = deps.actionTtlMs ?? DEFAULT_ACTION_TTL_MS;
    this.actionKeyBudget = deps.actionKeyBudget;
    this.cooldownMs = cooldownsOf(deps.commands);
    this.markCard = deps.markCard ?? ((card) => card);
    this.onAnswered = deps.onAnswered ?? null;
  }

  /** Every run so far, by command, platform and result. */
  counters(): CommandCount[] {
    return [...this.counts.values()].map((entry) => ({ ...entry }));
  }

  private count(name: string, platform: Platform, result: CommandResult, startedAt: number): void {
    // A name no command has is whatever someone typed: counted, but never under that name.
    const command = this.byName.has(name) ? name : 'unknown';
    const key = `${command}|${platform}|${result}`;
    const entry = this.counts.get(key);
    if (entry === undefined) this.counts.set(key, { command, platform, result, count: 1 });
    else entry.count += 1;
    this.onAnswered?.(command, (performance.now() - startedAt) / 1000);
  }

  /** Whether a command's answer may take long enough that a chat should defer its reply. */
  isSlow(name: string): boolean {
    return this.byName.get(name)?.slow === true;
  }

  /** Runs a command for a caller. Always a reply, never a throw: failures are error cards with an id. */
  async run(name: string, input: CommandInput, caller: CommandCaller): Promise<ChatReply> {
    const started = performance.now();
    let outcome: CommandResult = 'ok';
    let args: Args | null = null;
    try {
      const command = this.byName.get(name);
      if (command === undefined) throw unknownCommand(name, this.commands);
      args = input.kind === 'text' ? parseWords(command, input.text) : readOptions(command, input.values);

      if (command.manager === true && !(await caller.isManager())) {
        outcome = 'not-manager';
        return this.notice(managerOnlyCard(command.name), caller);
      }
      const cooldown = this.cooldownMs.get(command.name);
      if (cooldown !== undefined) {
        const waitMs = this.cooldowns.take(`${caller.chat.platform}:${caller.userId}`, command.name, cooldown, this.now().getTime());
        if (waitMs > 0) {
          outcome = 'cooldown';
          return this.notice(cooldownCard(command.name, waitMs), caller);
        }
      }

      const context: CommandContext = {
        ...this.services,
        chat: caller.chat,
        userId: caller.userId,
        userName: caller.userName ?? null,
        messageId: caller.messageId ?? null,
        isManager: () => caller.isManager(),
        commands: this.commands,
        now: this.now,
      };
      const card = this.markCard(withRefresh(command, args, withLoadedActions(await command.run(args, context), this.byName)));
      return { card, buttons: await this.buttonsFor(card, caller.chat, caller.userId), ephemeral: false, errorId: null };
    } catch (error) {
      const command = this.byName.get(name);
      // An address the service does not know is an answer to what was typed: counted as a mistake, as a usage one is.
      const address = command !== undefined && args !== null && isNotFound(error) ? askedAddress(command, args) : null;
      if (address !== null) {
        outcome = 'usage';
        return await this.notFound(error, address, name, caller);
      }
      outcome = error instanceof UsageError ? 'usage' : 'error';
      // `/track ADDR`: the suggestion names the form the address is, as the service tells it.
      if (error instanceof FormMissingError && (await this.services.query.isWallet(error.address)))
        return this.failure(error.withForm('wallet'), name, caller);
      // A command's own refusal (an option only it can judge, a follow limit) is about that command.
      return this.failure(error instanceof UsageError && command !== undefined ? error.withCommand(command) : error, name, caller);
    } finally {
      this.count(name, caller.chat.platform, outcome, started);
      if (this.logger.isLevelEnabled('debug')) {
        this.logger.debug(
          { command: name.slice(0, 40), chat: chatKey(caller.chat), outcome, ms: Math.round((performance.now() - started) * 1000) / 1000 },
          'command answered',
        );
      }
    }
  }

  /**
   * Runs a line typed in a chat: `/name args` or `/name@botname args`. Null when the line is not
   * a command, or is addressed to another bot; what to do with other text is the chat's choice.
   */
  async runLine(line: string, caller: CommandCaller, botName?: string): Promise<ChatReply | null> {
    const trimmed = line.trim();
    const blank = trimmed.search(/\s/);
    const head = blank < 0 ? trimmed : trimmed.slice(0, blank);
    if (!head.startsWith('/') || head.length < 2) return null;
    const addressed = /@(\w+)$/.exec(head)?.[1];
    if (addressed !== undefined && botName !== undefined && addressed.toLowerCase() !== botName.toLowerCase()) return null;
    return this.run(commandNameOf(head), { kind: 'text', text: trimmed.slice(head.length) }, caller);
  }

  /**
   * A button press. The key's action runs as if typed by the presser, policy included. An expired,
   * unknown or other chat's key gets a short card shown only to the presser. `refresh` is true when
   * the press was a Refresh that succeeded: platforms then edit the card it was pressed on.
   */
  async press(key: string, caller: CommandCaller): Promise<ChatReply & { refresh: boolean }> {
    let resolved;
    try {
      resolved = await this.actionKeys.resolve(key, caller.chat, this.now());
    } catch (error) {
      return { ...(await this.failure(error, 'press', caller)), refresh: false };
    }
    if (resolved.status !== 'ok') {
      this.logger.debug({ chat: chatKey(caller.chat), status: resolved.status }, 'button not pressable');
      return { ...(await this.notice(actionGoneCard(resolved.status), caller)), refresh: false };
    }
    const { action } = resolved;
    const reply = await this.run(action.command, { kind: 'text', text: action.args.join(' ') }, caller);
    return { ...reply, refresh: action.refresh === true && reply.errorId === null && !reply.ephemeral };
  }

  /**
   * Buttons for a card shown in `chat`: one key per action, valid for the action lifetime, counted
   * in the budget of `userId` (the person the card answers; null for an alert's) and of the chat.
   * Actions naming a command this installation has not loaded are left off.
   */
  async buttonsFor(card: Card, chat: ChatRef, userId: string | null = null): Promise<ActionButton[]> {
    if (card.actions.length === 0) return [];
    const now = this.now();
    if (now.getTime() - this.lastPruneMs >= PRUNE_EVERY_MS) await this.pruneNow(now);
    const expiresAt = new Date(now.getTime() + this.actionTtlMs);
    // An alert's or a notice's card has not been through `run`, which leaves these off already.
    const shown = withLoadedActions(card, this.byName).actions;
    // A card's keys issued together: one wait (one transaction) for all its buttons, not one each.
    const keys = await this.actionKeys.issueAll(shown, chat, expiresAt, {
      userId,
      ...(this.actionKeyBudget === undefined ? {} : { budget: this.actionKeyBudget }),
    });
    if (keys.length !== shown.length) throw new Error(`the action key store issued ${keys.length} keys for ${shown.length} actions`);
    const buttons: ActionButton[] = [];
    for (let index = 0; index < shown.length; index++) buttons.push({ label: shown[index]?.label ?? '', key: keys[index] ?? '' });
    return buttons;
  }

  private async notice(notice: Card, caller: CommandCaller): Promise<ChatReply> {
    const card = this.markCard(notice);
    return { card, buttons: await this.buttonsFor(card, caller.chat, caller.userId), ephemeral: true, errorId: null };
  }

  /**
   * The error card, with an id that the log line carries too. A failure here still answers. A
   * usage mistake gets no id: there is nothing in the log to look up for a mistyped option, and
   * its card says all there is; nor does a database that is away for a moment ("try again").
   */
  private async failure(error: unknown, name: string, caller: CommandCaller): Promise<ChatReply> {
    // The database away for a moment is logged once by the store, when it goes and when it is back.
    const unavailable = isStoreUnavailable(error);
    const errorId = error instanceof UsageError || unavailable ? null : newErrorId();
    const fields = { command: name.slice(0, 40), chat: chatKey(caller.chat), err: error };
    if (error instanceof UsageError) this.logger.info({ ...fields, err: undefined, usage: error.message }, 'command refused: usage');
    else if (unavailable) this.logger.debug({ ...fields, err: undefined }, 'command refused: database unavailable');
    else if (isMarketError(error)) this.logger.warn({ errorId, ...fields }, 'command failed: market data');
    else this.logger.error({ errorId, ...fields }, 'command failed');
    const card = this.markCard(cardForError(error, errorId === null ? {} : { errorId }));
    let buttons: ActionButton[] = [];
    try {
      buttons = await this.buttonsFor(card, caller.chat, caller.userId);
    } catch (keysError) {
      // The buttons of an error card (Help) are a convenience; the answer goes out without them.
      this.logger.warn({ errorId, err: keysError }, 'error card buttons not issued');
    }
    return { card, buttons, ephemeral: true, errorId };
  }

  /** Not found (src/dispatch/notFound.ts): a hint instead of an error id, one info line instead of a stack. */
  private async notFound(error: unknown, address: string, name: string, caller: CommandCaller): Promise<ChatReply> {
    this.logger.info({ command: name.slice(0, 40), chat: chatKey(caller.chat), address }, 'command answered: not found');
    const hint = await notFoundHint(address, this.services.query);
    return this.notice(cardForError(error, { hint }), caller);
  }

  /** Called at most every PRUNE_EVERY_MS (buttonsFor checks, so that the usual card awaits nothing for it). */
  private async pruneNow(now: Date): Promise<void> {
    this.lastPruneMs = now.getTime();
    const removed = await this.actionKeys.prune(now);
    if (removed > 0) this.logger.debug({ removed }, 'expired action keys pruned');
  }
}

/** A Refresh action on a look-up's card, when its command asks for one and the arguments can be written back. */
function withRefresh(command: AnyCommand, args: Args, card: Card): Card {
  if (command.refresh !== true || card.color === 'error') return card;
  const words = argWords(command, args);
  if (words === null) return card;
  const refresh: CardAction = { label: 'Refresh', command: command.name, args: words, refresh: true };
  return { ...card, actions: [...card.actions, refresh] };
}
