/**
 * Where the log lines go. Standard error by default, as a service manager or a container expects.
 * When the console chat runs and standard error is a terminal, the conversation and the logs
 * would share that terminal, and JSON lines would come between a question and its answer: the
 * lines then go to a file under data/ at LOG_LEVEL, and only a fatal line (the bot stopping) is
 * also written to the terminal, since a bot that stops without a word there looks hung.
 *
 * A file rather than "warn and up to the terminal": a warning still interrupts the conversation,
 * and the info lines (a follow refused, what was not found) are the ones a person at the console
 * looks up afterwards. Standard error sent elsewhere (`2>bot.log`, a pipe) is where it was sent.
 *
 * pino writes the file itself (pino.destination, pino.multistream): nothing here opens files.
 */
import { pino, type DestinationStream, type Level } from 'pino';
import type { Config } from '../../config';
import type { PlatformEnv } from '../platform';
import { configuredPlatforms } from '../platforms';

/** Relative to the working directory, as the pictures the console writes (data/out). */
export const CONSOLE_LOG_FILE = 'data/tokenwatch.log';

export type LogPlace = { kind: 'stderr' } | { kind: 'file'; path: string };

/**
 * Whether this process runs the console chat: no chat platform configured, and not one of several
 * processes (the fallback of src/chats/startChats.ts, read from the settings before anything starts).
 */
export function runsConsoleChat(config: Config, env: PlatformEnv = process.env): boolean {
  return configuredPlatforms(config, env).length === 0 && !config.roles.clustered;
}

export function logPlace(options: { consoleChat: boolean; stderrIsTerminal: boolean; file?: string }): LogPlace {
  return options.consoleChat && options.stderrIsTerminal ? { kind: 'file', path: options.file ?? CONSOLE_LOG_FILE } : { kind: 'stderr' };
}

/** The stream of the logger for `place`; `level` is LOG_LEVEL, which still decides what is written. */
export function logDestination(place: LogPlace, level: string): DestinationStream {
  if (place.kind === 'stderr') return pino.destination(2);
  // Synchronous, as pino.destination(2) is: the fatal line before an exit is on disk when the process ends.
  const file = pino.destination({ dest: place.path, mkdir: true, append: true, sync: true });
  const terminal = { level: 'fatal' as const, stream: pino.destination(2) };
  // LOG_LEVEL=silent writes nothing anywhere; the logger's own level already keeps every line back.
  return pino.multistream(isLevel(level) ? [{ level, stream: file }, terminal] : [terminal]);
}

function isLevel(level: string): level is Level {
  return Object.hasOwn(pino.levels.values, level);
}

/** The banner's line: where the logs are, and at which level. */
export function logPlaceLine(place: LogPlace, level: string): string {
  return place.kind === 'file'
    ? `Logs (LOG_LEVEL ${level}) go to ${place.path}, not to this terminal.`
    : `Logs (LOG_LEVEL ${level}) go to standard error.`;
}
