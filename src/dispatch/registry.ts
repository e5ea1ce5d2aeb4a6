/**
 * Loads every command from the top-level `commands/` folder: adding a command is adding a file
 * whose default export is a `defineCommand(...)`. Definitions are checked against the rules both
 * Discord and Telegram impose, so a bad one fails at start-up rather than at registration.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { parseDurationMs } from '../duration';
import type { AnyCommand } from './command';

export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

/**
 * Command files are TypeScript when the bot runs from source (tsx, vitest) and JavaScript when it
 * runs from the build in dist/, where this file is JavaScript too: the registry loads its own kind.
 */
export const COMMAND_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const MAX_DESCRIPTION = 100;
const MAX_OPTIONS = 25;

function isCommand(value: unknown): value is AnyCommand {
  return (
    value !== null &&
    typeof value === 'object' &&
    'name' in value &&
    typeof value.name === 'string' &&
    'run' in value &&
    typeof value.run === 'function' &&
    'options' in value &&
    Array.isArray(value.options)
  );
}

/** Throws with the file and the rule broken when a definition cannot be registered on every chat. */
export function checkCommand(command: AnyCommand, source: string): void {
  const fail = (rule: string): never => {
    throw new Error(`${source}: command "${command.name}" ${rule}`);
  };
  if (!NAME.test(command.name)) fail('must be 1–32 lower-case letters, digits or dashes, starting with a letter');
  if (command.description.length === 0 || command.description.length > MAX_DESCRIPTION)
    fail(`needs a description of 1–${MAX_DESCRIPTION} characters`);
  if (command.options.length > MAX_OPTIONS) fail(`has more than ${MAX_OPTIONS} options`);
  if (command.cooldown !== undefined) {
    const ms = parseDurationMs(command.cooldown);
    if (ms === null || ms <= 0) fail(`has cooldown "${command.cooldown}", which is not a duration such as 10s or 1m`);
  }
  let optionalSeen = false;
  const names = new Set<string>();
  for (const option of command.options) {
    if (!NAME.test(option.name)) fail(`option "${option.name}" must be 1–32 lower-case letters, digits or dashes`);
    if (names.has(option.name)) fail(`repeats option "${option.name}"`);
    names.add(option.name);
    if (option.description.length === 0 || option.description.length > MAX_DESCRIPTION)
      fail(`option "${option.name}" needs a description of 1–${MAX_DESCRIPTION} characters`);
    if (option.required && optionalSeen) fail(`lists required option "${option.name}" after an optional one`);
    if (!option.required) optionalSeen = true;
  }
}

/** Imports every command file, sorted by name; duplicate names are refused. */
export async function loadCommands(dir: string = COMMANDS_DIR, extension: string = COMMAND_EXTENSION): Promise<AnyCommand[]> {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(extension) && !file.endsWith(`.d${extension}`))
    .sort();
  const commands: AnyCommand[] = [];
  for (const file of files) {
    const module: { default?: unknown } = await import(pathToFileURL(join(dir, file)).href);
    const command = module.default;
    if (!isCommand(command)) throw new Error(`${file}: the default export must be a defineCommand(...)`);
    checkCommand(command, file);
    if (commands.some((other) => other.name === command.name)) throw new Error(`${file}: command "${command.name}" is defined twice`);
    commands.push(command);
  }
  return commands.sort((a, b) => a.name.localeCompare(b.name));
}
