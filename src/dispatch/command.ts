/**
 * What a command is: a name, help text, typed options, a policy and a `run` that returns a Card.
 * One definition serves every chat: the chat adapters read the options to register slash commands
 * or parse typed text, and hand what a person typed to the Dispatcher, which parses it, checks the
 * policy and calls `run` with exact values. Nothing here knows a chat library.
 */
import type { Card } from '../cards/card';
import type { ChatRef } from '../model/chat';
import type { FollowService } from '../follows/followService';
import type { StatusSource } from '../follows/status';
import type { QueryService } from '../query/service';
import type { ChatRepository, OutboxRepository } from '../store/store';
import type { CallBook } from '../query/callBook';
import type { OptionSpec } from '../usage';
import type { SendOutcome } from '../delivery/sender';

export type {
  AddressListOption,
  AddressOption,
  ChoiceOption,
  DurationOption,
  NumberOption,
  OptionSpec,
  TextOption,
} from '../usage';

/** The value an option yields once parsed. */
export type OptionValue<S extends OptionSpec> = S extends { type: 'addresses' }
  ? string[]
  : S extends { type: 'number' | 'duration' }
    ? number
    : string;

/** The arguments a command receives: required options always present, optional ones possibly undefined. */
export type ArgsOf<O extends readonly OptionSpec[]> = {
  [S in O[number] as S['name']]: S['required'] extends true ? OptionValue<S> : OptionValue<S> | undefined;
};

/**
 * What commands may call, wired once in src/app.ts. Parts that commands need (the follow list, the
 * store, the bot's status) are added here as fields.
 */
export interface CommandServices {
  query: QueryService;
  /**
   * Follows of this chat (the follow commands). Optional so that a chat or a test that runs only
   * look-ups needs none; a follow command run without it answers that following is not set up.
   */
  follows?: FollowService;
  /** The bot's health for /status. */
  status?: StatusSource;
  /** Per chat settings (/settings); optional so that a look-up-only chat or test needs none. */
  chatSettings?: Pick<ChatRepository, 'settings' | 'updateSettings'>;
  /** The daily watchlists' schedules (/digest), told when a chat's setting changed; optional as the others. */
  digests?: { changed(): Promise<void> };
  /** Alerts delivered to a chat (/history), from the outbox; optional as the others. */
  alertHistory?: Pick<OutboxRepository, 'history'>;
  /** Calls and leaderboards (/calls, /leaderboard, /caller, /pnl, and the call a token's first post makes); optional as the others. */
  calls?: CallBook;
  /**
   * Sends a card to a chat beside the command's answer, through that chat's platform sender, with no
   * buttons and no outbox row (/testalert's samples); optional as the others.
   */
  sendToChat?: (chat: ChatRef, card: Card) => Promise<SendOutcome>;
}

/** What a command's `run` receives besides its arguments: the services, who asked and where. */
export interface CommandContext extends CommandServices {
  /** The chat the command was typed in (or the button pressed in). */
  chat: ChatRef;
  /** The person who asked, as the platform identifies them. */
  userId: string;
  /** Their display name (untrusted text) and the message they typed, where the chat gives them; null otherwise. */
  userName?: string | null;
  messageId?: string | null;
  /** Whether the person manages the chat, for a command whose options differ (`/calls on` is a manager's, `/calls` anyone's). */
  isManager?: () => Promise<boolean>;
  /** Every loaded command, for help. */
  commands: readonly AnyCommand[];
  now(): Date;
}

/**
 * Who may run a command and how often, read by the Dispatcher before `run`. Every field is
 * optional; a plain look-up needs none.
 */
export interface CommandPolicy {
  /**
   * Only a person who manages the chat may run it (Discord: Manage Server or Manage Channels;
   * Telegram: an administrator; the console: always).
   */
  manager?: true;
  /** Per person per command: a second run within this duration ("10s", "1m") is refused with the time left. */
  cooldown?: string;
  /** The answer may take longer than a platform waits for a first reply (Discord: 3 s), so chats defer it. */
  slow?: true;
  /** A look-up whose card gets a Refresh button; pressing it answers with a new card that platforms edit in place. */
  refresh?: true;
}

export interface Command<O extends readonly OptionSpec[]> extends CommandPolicy {
  /** Lower-case letters, digits and dashes, as both Discord and Telegram accept. */
  name: string;
  /** One line, at most 100 characters. */
  description: string;
  /** Longer help shown by `/help name`: what it answers, with an example. */
  help: string;
  options: O;
  run(args: ArgsOf<O>, context: CommandContext): Promise<Card>;
}

/**
 * A command whose options are not known statically, as the registry and the chats hold them.
 * Its `run` takes the loose record the option parser builds.
 */
export interface AnyCommand extends CommandPolicy {
  name: string;
  description: string;
  help: string;
  options: readonly OptionSpec[];
  run(args: Record<string, string | number | string[] | undefined>, context: CommandContext): Promise<Card>;
}

/**
 * Declares a command with exact argument types. The returned value is the loose form chats use;
 * the option parser guarantees the record matches the declared options before `run` is called.
 */
export function defineCommand<const O extends readonly OptionSpec[]>(command: Command<O>): AnyCommand {
  return command as unknown as AnyCommand;
}
