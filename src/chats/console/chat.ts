/**
 * The console chat: the embedded default when no Discord or Telegram token is configured. It reads
 * commands line by line, so it works both at a terminal and with piped input
 * (`printf '/token ADDR\n' | npm start`), answers each in order, and ends at the end of input.
 */
import { createInterface } from 'node:readline';
import type { Card } from '../../cards/card';
import { cardForError } from '../../cards/errorCard';
import type { CommandCaller, Dispatcher } from '../../dispatch/dispatcher';
import { isAddress } from '../../market/address';
import { UsageError } from '../../usage';
import type { ChatRef } from '../../model/chat';
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

/**
 * The line as a command: a bare address is read as /token, and a line starting with a command's
 * name needs no slash (`help` works as `/help`), as typing at a terminal invites.
 */
function asCommandLine(line: string, dispatcher: Dispatcher): string {
  if (isAddress(line)) return `/token ${line}`;
  const head = line.split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  return dispatcher.commands.some((command) => command.name === head) ? `/${line}` : line;
}

/** Runs one line through the Dispatcher. Returns null for blank lines. */
export async function answerLine(line: string, dispatcher: Dispatcher): Promise<Card | null> {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  const reply = await dispatcher.runLine(asCommandLine(trimmed, dispatcher), CONSOLE_CALLER);
  // Printed cards are never edited, so a Refresh hint would only repeat the line just typed.
  if (reply !== null) return { ...reply.card, actions: reply.card.actions.filter((action) => action.refresh !== true) };
  return cardForError(new UsageError(`"${trimmed.slice(0, 40)}" is not a command`, null, 'Commands start with /, such as /help.'));
}

export async function runConsoleChat(options: ConsoleChatOptions): Promise<void> {
  const { input, output, dispatcher, outDir, interactive } = options;
  const lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
  if (options.signal?.aborted === true) lines.close();
  options.signal?.addEventListener('abort', () => lines.close(), { once: true });
  const prompt = () => {
    if (interactive) output.write('> ');
  };
  prompt();
  for await (const line of lines) {
    const card = await answerLine(line, dispatcher);
    if (card !== null) {
      const text = renderCardText(card, { color: interactive }) + (await pictureLine(card, outDir));
      output.write(`${text}\n`);
    }
    prompt();
  }
}
