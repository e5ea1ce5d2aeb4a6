/**
 * The console as an alert platform: each alert is printed as it arrives, as one write, so it lands
 * between command answers and never inside one. A terminal gets its prompt back after it.
 * Buttons are not printed: the text renderer already lists a card's actions as commands to type.
 * A picture the alert carries (a price move's chart) is written under outDir and its path printed
 * with it, as an answer's is.
 */
import type { Card } from '../../cards/card';
import type { ActionButton, ChatRef } from '../../model/chat';
import type { AlertSender, SendOutcome } from '../../delivery/sender';
import { pictureLine } from './pictures';
import { renderCardText } from './render';

export interface ConsoleAlertSenderOptions {
  output: NodeJS.WritableStream;
  /** Colour and a fresh prompt after each alert, for a terminal. */
  interactive: boolean;
  /** Where pictures are written (the console chat's out folder). */
  outDir: string;
}

export function createConsoleAlertSender(options: ConsoleAlertSenderOptions): AlertSender {
  const { output, interactive, outDir } = options;
  return {
    platform: 'console',
    async send(_chat: ChatRef, card: Card, _buttons: ActionButton[]): Promise<SendOutcome> {
      const body = renderCardText(card, { color: interactive }) + (await pictureLine(card, outDir));
      const text = `${interactive ? '\n' : ''}alert ▸ ${body}\n${interactive ? '> ' : ''}`;
      // Honour back-pressure: a slow pipe holds the alert, not the process's memory.
      // A closed output (the reader went away) must not hold shutdown either.
      if (!output.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            output.off('drain', done);
            output.off('close', done);
            output.off('error', done);
            resolve();
          };
          output.once('drain', done);
          output.once('close', done);
          output.once('error', done);
        });
      }
      return { status: 'sent' };
    },
  };
}
