/**
 * How tests run a TypeScript entry point (the bot, the simulator) as a child process: plain node
 * with tsx's loader. One process, where the `tsx` command starts a second node under itself, and a
 * signal sent to the child reaches the program at once. The loader is named by its absolute path,
 * so a child may run in a temporary directory of its own.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = process.cwd();
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The command and arguments that run `script` (a path under the repository, or absolute). */
export function tsNode(script: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', TSX_LOADER, resolve(ROOT, script), ...args]];
}
