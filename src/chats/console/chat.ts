/**
 * The console chat: the embedded default when no Discord or Telegram token is configured. It reads
 * commands line by line, so it works both at a terminal and with piped input
 * (`printf '/token ADDR\n' | npm start`), answers each in order, and ends at the end of input.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Card } from '../../cards/card';
import { cardForError } from '../../cards/errorCard';
import type { CommandContext } from '../../dispatch/command';
import { parseCommandLine, UsageError } from '../../dispatch/parseArgs';
import { runCommand } from '../../dispatch/runCommand';
import { isAddress } from '../../market/address';
import { renderCardText } from './render';

export interface ConsoleChatOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  context: CommandContext;
  /** Where attachments such as chart pictures are written. */
  outDir: string;
  /** Colour and a prompt, for a terminal. */
  interactive: boolean;
}

/** Runs one line: a command, or a bare address (read as /token). Returns null for blank lines. */
export async function answerLine(line: string, context: CommandContext): Promise<Card | null> {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  try {
    const parsed = parseCommandLine(isAddress(trimmed) ? `/token ${trimmed}` : trimmed, context.commands);
    if (parsed === null) throw new UsageError(`"${trimmed.slice(0, 40)}" is not a command: commands start with /, such as /help.`, null);
    return await runCommand(parsed.command, parsed.args, context);
  } catch (error) {
    return cardForError(error);
  }
}

/** Saves a card's picture under outDir; returns the path written. */
async function saveAttachment(card: Card, outDir: string): Promise<string | null> {
  if (!card.image) return null;
  await mkdir(outDir, { recursive: true });
  // The file name is ours (commands name their attachments), but keep it to safe characters anyway.
  const name = `${Date.now()}-${card.image.filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  const path = join(outDir, name);
  await writeFile(path, card.image.data);
  return path;
}

export async function runConsoleChat(options: ConsoleChatOptions): Promise<void> {
  const { input, output, context, outDir, interactive } = options;
  const lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const prompt = () => {
    if (interactive) output.write('> ');
  };
  prompt();
  for await (const line of lines) {
    const card = await answerLine(line, context);
    if (card !== null) {
      let text = renderCardText(card, { color: interactive });
      try {
        const saved = await saveAttachment(card, outDir);
        if (saved !== null) text += `picture saved: ${saved}\n`;
      } catch (error) {
        // A full disk or a read-only data/ costs the picture, not the chat.
        text += `picture not saved: ${error instanceof Error && 'code' in error ? String(error.code) : 'write failed'}\n`;
      }
      output.write(`${text}\n`);
    }
    prompt();
  }
}
