/**
 * The console chat: the embedded default when no Discord or Telegram token is configured. It reads
 * commands line by line, so it works both at a terminal and with piped input
 * (`printf '/token ADDR\n' | npm start`), answers each in order, and ends at the end of input.
 * Each line goes through the inbox (src/chats/inbox.ts) as every chat's input does; one person
 * typing and waiting for each answer never fills the queue, and a paste needs no paste limits.
 */
import { createInterface } from 'node:readline';
import type { Card } from '../../cards/card';
import { cardForError } from '../../cards/errorCard';
import type { CommandCaller, Dispatcher } from '../../dispatch/dispatcher';
import { closestCommand } from '../../cards/helpCard';
import { detectAddress } from '../../market/pastedAddress';
import { truncateText } from '../../text/sanitize';
import { UsageError } from '../../usage';
import type { ChatRef } from '../../model/chat';
import { ChatInbox } from '../inbox';
import { pictureLine } from './pictures';
import { renderCardText } from './render';

/** The console is one chat, and whoever types in it runs the bot: its own manager. */
export const CONSOLE_CHAT: ChatRef = { platform: 'console', chatId: 'console', threadId: null, scopeId: null };
export const CONSOLE_CALLER: CommandCaller = { chat: CONSOLE_CHAT, userId: 'console', isManager: () => Promise.resolve(true) };

export interface ConsoleChatOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  dispatcher: Dispatcher;
  /** Where attachments such as chart pictures are written. */
  outDir: string;
  /** Colour and a prompt, for a terminal. */
  interactive: boolean;
  /** Stops reading at once (shutdown); the answer under way is still written. */
  signal?: AbortSignal;
}

/** How much of a line that is no command is quoted back. */
const MAX_QUOTED = 40;

/**
 * The line as a command: a line starting with a command's name needs no slash (`help` works as
 * `/help`), as typing at a terminal invites; any other line is read as a paste is in a Telegram
 * chat (src/market/pastedAddress.ts), so an address or a link that holds one (DEX Screener,
 * pump.fun, Solscan, …) is /token of its address.
 */
function asCommandLine(line: string, dispatcher: Dispatcher): string {
  const head = line.split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  if (dispatcher.commands.some((command) => command.name === head)) return `/${line}`;
  if (line.startsWith('/')) return line;
  const pasted = detectAddress(line);
  return pasted === null ? line : `/token ${pasted.address}`;
}

/** Runs one line through the Dispatcher. Returns null for blank lines. */
export async function answerLine(line: string, dispatcher: Dispatcher): Promise<Card | null> {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  const reply = await dispatcher.runLine(asCommandLine(trimmed, dispatcher), CONSOLE_CALLER);
  // Printed cards are never edited, so a Refresh hint would only repeat the line just typed.
  if (reply !== null) return { ...reply.card, actions: reply.card.actions.filter((action) => action.refresh !== true) };
  // Quoted whole, or cut between graphemes with an ellipsis: never in a way that looks damaged.
  const quoted = truncateText(trimmed, MAX_QUOTED + 1);
  const guess = closestCommand(dispatcher.commands, trimmed.split(/\s+/, 1)[0]?.toLowerCase() ?? '');
  const advice =
    guess === null ? 'Commands start with /, such as /help.' : `Did you mean /${guess.name}? Commands start with /, such as /help.`;
  return cardForError(new UsageError(`"${quoted}" is not a command`, null, advice));
}

export async function runConsoleChat(options: ConsoleChatOptions): Promise<void> {
  const { input, output, dispatcher, outDir, interactive } = options;
  const lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
  if (options.signal?.aborted === true) lines.close();
  options.signal?.addEventListener('abort', () => lines.close(), { once: true });
  const prompt = () => {
    if (interactive) output.write('> ');
  };
  const inbox = new ChatInbox({ dispatcher });
  prompt();
  for await (const line of lines) {
    const taken = inbox.take(CONSOLE_CHAT, () => answerLine(line, dispatcher));
    const card = taken.taken ? await taken.done : null;
    if (card !== null) {
      const text = renderCardText(card, { color: interactive }) + (await pictureLine(card, outDir));
      output.write(`${text}\n`);
    }
    prompt();
  }
  await inbox.stop();
}
