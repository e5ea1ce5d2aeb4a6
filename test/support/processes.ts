/**
 * How tests run the bot and the simulator as child processes. A TypeScript entry point runs with plain node
 * with tsx's loader. One process, where the `tsx` command starts a second node under itself, and a
 * signal sent to the child reaches the program at once. The loader is named by its absolute path,
 * so a child may run in a temporary directory of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = process.cwd();
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The command and arguments that run `script` (a path under the repository, or absolute). */
export function tsNode(script: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', TSX_LOADER, resolve(ROOT, script), ...args]];
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end with `input` on its standard input, in `cwd` (a fresh temporary
 * directory by default, so a run reads no developer's .env and writes into no data/), with only
 * PATH, HOME and `env` set.
 */
export function runToEnd(
  command: string,
  args: string[],
  options: { input: string; env?: Record<string, string>; cwd?: string },
): Promise<Run> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'tokenwatch-run-'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}

export interface BotProcess {
  child: ChildProcess;
  /** Its standard error so far: the bot's JSON log lines. */
  stderr: () => string;
  /** Resolves with its exit code when it has exited. */
  exit: Promise<number | null>;
}

/** `npm start` (src/main.ts) as a process of its own in `cwd`, with only PATH, HOME and `env` set. */
export function startBotProcess(cwd: string, env: Record<string, string>): BotProcess {
  const [command, args] = tsNode('src/main.ts');
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr, exit: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}

/** A port of 127.0.0.1 free right now, for a process to be told to listen on (it may be taken again before then; on one machine's tests it is not). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
