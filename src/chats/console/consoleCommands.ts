/**
 * Commands only the console has (/simulate on the built-in simulator), added in front of the
 * bot's Dispatcher for the console alone: Discord, Telegram and a console on a real service keep
 * the Dispatcher as it is, where such a command is unknown. The console sees one Dispatcher whose
 * command list includes them, so a line without its slash, /help and /help simulate all know them.
 */
import type { Card } from '../../cards/card';
import { cardForError } from '../../cards/errorCard';
import { helpCard } from '../../cards/helpCard';
import type { CommandCaller, Dispatcher } from '../../dispatch/dispatcher';
import { commandNameOf, parseWords, type Args } from '../../dispatch/parseArgs';
import type { ChatReply } from '../../dispatch/reply';
import type { AnyCommand } from '../../dispatch/command';
import type { Logger } from '../../log';
import { UsageError } from '../../usage';

export interface ConsoleCommand {
  command: AnyCommand;
  answer(args: Args): Promise<Card>;
}

export interface ConsoleCommandsOptions {
  /** Applied to every card answered here, as the Dispatcher applies it to its own (simulated data). */
  markCard: (card: Card) => Card;
  logger: Logger;
}

/** The Dispatcher with `extra` commands, for the console's lines; every other line goes to `dispatcher` unchanged. */
export function withConsoleCommands(dispatcher: Dispatcher, extra: readonly ConsoleCommand[], options: ConsoleCommandsOptions): Dispatcher {
  if (extra.length === 0) return dispatcher;
  const commands = [...dispatcher.commands, ...extra.map((item) => item.command)].sort((a, b) => a.name.localeCompare(b.name));
  const help = dispatcher.commands.find((command) => command.name === 'help');

  const reply = (card: Card): ChatReply => ({ card: options.markCard(card), buttons: [], ephemeral: false, errorId: null });
  const refusal = (error: unknown, name: string): ChatReply => {
    // Only a mistake in what was typed is expected here; anything else is logged as the Dispatcher logs a failure.
    if (!(error instanceof UsageError)) options.logger.error({ err: error, command: name }, 'console command failed');
    return { ...reply(cardForError(error)), ephemeral: true };
  };

  const runLine = async (line: string, caller: CommandCaller, botName?: string): Promise<ChatReply | null> => {
    const trimmed = line.trim();
    const head = trimmed.split(/\s+/, 1)[0] ?? '';
    const rest = trimmed.slice(head.length);
    const name = head.startsWith('/') ? commandNameOf(head) : '';
    const own = extra.find((item) => item.command.name === name);
    try {
      if (own !== undefined) return reply(await own.answer(parseWords(own.command, rest)));
      // /help lists every command the console has, its own included, as commands/help.ts would.
      if (name === 'help' && help !== undefined) {
        const wanted = parseWords(help, rest).command;
        return reply(helpCard(commands, typeof wanted === 'string' ? wanted : undefined));
      }
    } catch (error) {
      return refusal(error, name);
    }
    return dispatcher.runLine(line, caller, botName);
  };

  // Everything else the Dispatcher does (buttons, counters, presses) stays its own.
  return new Proxy(dispatcher, {
    get(target, property) {
      if (property === 'commands') return commands;
      if (property === 'runLine') return runLine;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
