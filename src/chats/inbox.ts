/**
 * What people send a chat, whatever its platform: a command, a button press or a pasted address
 * goes to the chat's queue (src/dispatch/chatQueue.ts), runs through the Dispatcher in the chat's
 * turn, and is answered; a paste is read (src/chats/pasteDetect.ts) and held to the paste limits
 * (pasteLimits.ts) before it runs as /token. When a full queue skips input, the chat is told so
 * (SKIPPED_NOTICE), at most once a minute.
 *
 * Nothing here knows a platform. A platform translates its SDK's events into these calls and
 * renders the Card of each answer: the `answer` it gives runs in the chat's turn, so a chat
 * waiting for its platform's pace holds up no other chat. A platform that must answer every
 * skipped input itself (Discord's interactions, each waiting for an answer) reads `taken: false`.
 */
import { field } from '../cards/card';
import { cooldownCard } from '../cards/noticeCard';
import { ChatQueue, ChatQueueStoppedError, DEFAULT_CHAT_QUEUE, SKIPPED_NOTICE, type ChatQueueOptions } from '../dispatch/chatQueue';
import type { CommandCaller, CommandInput, Dispatcher } from '../dispatch/dispatcher';
import type { ChatReply } from '../dispatch/reply';
import { chatKey, type ChatRef } from '../model/chat';
import { detectAddress, type DetectedAddress } from './pasteDetect';
import { DEFAULT_PASTE_LIMITS, PasteLimiter, type PasteLimitOptions } from './pasteLimits';

export { SKIPPED_NOTICE };

export interface InboxOptions {
  dispatcher: Dispatcher;
  /** Each chat's queue: its cap, and how often a chat is told that input was skipped. */
  queue?: ChatQueueOptions;
  pasteLimits?: PasteLimitOptions;
  /** Epoch ms, for the paste limits. */
  now?: () => number;
  /**
   * Tells a chat that some of what it sent was skipped (SKIPPED_NOTICE), when the queue asks for
   * a notice: the first skip, then at most one a minute. Absent: the platform tells each skipped
   * input itself.
   */
  tellSkipped?: (chat: ChatRef) => Promise<void>;
  /** Input taken with an `answer` that failed in its turn (the platform's own log line). */
  failed?: (error: unknown, chat: ChatRef) => void;
}

/** Input handed to its chat's queue: taken (its answer comes through `done`), or skipped. */
export type Taken<T> = { taken: true; done: Promise<T> } | { taken: false };

/** A paste: offered to its chat's queue (`taken` unless skipped), held back by the paste limits, or no address at all. */
export type Pasted = { kind: 'none' } | { kind: 'held'; waitMs: number } | { kind: 'offered'; address: DetectedAddress; taken: boolean };

export interface PasteOptions {
  /** Links the message carries besides its text (a link hidden behind text). */
  links?: readonly string[];
  /**
   * A private chat: the person is the only reader, so a paste held back by the limits is told how
   * long to wait, and a paste that is no token is answered. In a group neither is: the answer
   * would be the flood the limits keep out, and a paste is no question.
   */
  private: boolean;
}

export class ChatInbox {
  readonly queue: ChatQueue;
  readonly dispatcher: Dispatcher;
  private readonly pastes: PasteLimiter;
  private readonly now: () => number;
  /** Answers and notices under way, for stop to wait for. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: InboxOptions) {
    this.dispatcher = options.dispatcher;
    this.queue = new ChatQueue(options.queue ?? DEFAULT_CHAT_QUEUE);
    this.pastes = new PasteLimiter(options.pasteLimits ?? DEFAULT_PASTE_LIMITS);
    this.now = options.now ?? Date.now;
  }

  /**
   * Hands `work` to `chat`'s queue and returns at once: the work runs in the chat's turn. Past the
   * lane's cap it is skipped, and the chat told so when the queue asks for a notice.
   */
  take<T>(chat: ChatRef, work: () => Promise<T>): Taken<T> {
    const offer = this.queue.offer(chatKey(chat), work);
    if (offer.accepted) return { taken: true, done: offer.done };
    const tell = this.options.tellSkipped;
    if (offer.notice && tell !== undefined) this.track(tell(chat));
    return { taken: false };
  }

  /** A command by name, with its text or its options; `answer`, when given, runs in the chat's turn. */
  command(caller: CommandCaller, name: string, input: CommandInput, answer?: (reply: ChatReply) => Promise<void>): Taken<ChatReply> {
    return this.answered(caller.chat, () => this.dispatcher.run(name, input, caller), answer);
  }

  /** A typed line, `/name args`: null when it is no command. */
  line(caller: CommandCaller, line: string, answer?: (reply: ChatReply | null) => Promise<void>): Taken<ChatReply | null> {
    return this.answered(caller.chat, () => this.dispatcher.runLine(line, caller), answer);
  }

  /** A button press: the action's answer, a Refresh's new card, or a refusal for the presser alone. */
  press(
    caller: CommandCaller,
    key: string,
    answer?: (reply: ChatReply & { refresh: boolean }) => Promise<void>,
  ): Taken<ChatReply & { refresh: boolean }> {
    return this.answered(caller.chat, () => this.dispatcher.press(key, caller), answer);
  }

  /**
   * A message that may hold an address: read, held to the paste limits, then /token of it in the
   * chat's turn. `answer` gets the card, or, in a private chat, how long to wait.
   */
  paste(caller: CommandCaller, text: string, options: PasteOptions, answer: (reply: ChatReply) => Promise<void>): Pasted {
    const found = detectAddress(text, options.links ?? []);
    if (found === null || !this.dispatcher.commands.some((command) => command.name === 'token')) return { kind: 'none' };
    const waitMs = this.pastes.take(chatKey(caller.chat), caller.userId, found.address, this.now());
    if (waitMs > 0) {
      const cooldown: ChatReply = { card: cooldownCard('token', waitMs), buttons: [], ephemeral: true, errorId: null };
      if (options.private) this.answered(caller.chat, async () => cooldown, answer);
      return { kind: 'held', waitMs };
    }
    const taken = this.answered(
      caller.chat,
      () => this.dispatcher.run('token', { kind: 'text', text: found.address }, caller),
      async (reply) => {
        const noToken = reply.errorId !== null || reply.ephemeral || reply.card.color === 'error';
        if (noToken && !options.private) return;
        await answer(found.hidden === true ? fromHiddenLink(reply) : reply);
      },
    );
    return { kind: 'offered', address: found, taken: taken.taken };
  }

  /** Resolves once the answers and notices under way now are done (what they queue meanwhile included). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Stops taking input: what still waits for its turn is not run, answers under way and notices
   * on their way finish. Resolves with the number of inputs dropped.
   */
  async stop(): Promise<number> {
    const dropped = await this.queue.stop();
    await Promise.allSettled([...this.running]);
    return dropped;
  }

  /** Runs `work` in the chat's turn, then `answer` with its result; a failure of either goes to `failed`. */
  private answered<T>(chat: ChatRef, work: () => Promise<T>, answer?: (value: T) => Promise<void>): Taken<T> {
    if (answer === undefined) return this.take(chat, work);
    const taken = this.take(chat, async () => {
      const value = await work();
      await answer(value);
      return value;
    });
    if (taken.taken)
      this.track(
        taken.done.catch((error: unknown) => {
          // Input still waiting at shutdown is not run: nothing failed.
          if (!(error instanceof ChatQueueStoppedError)) this.options.failed?.(error, chat);
        }),
      );
    return taken;
  }

  private track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
  }
}

/** The card of an address read only from a link hidden behind the text: said first, since the reader never saw it. */
function fromHiddenLink(reply: ChatReply): ChatReply {
  const note = field(
    'From a hidden link',
    'This address is not in the message’s text: it was read from a link behind it. Check it before you trade.',
  );
  return { ...reply, card: { ...reply.card, fields: [note, ...reply.card.fields] } };
}
