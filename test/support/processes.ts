/**
 * How tests run the bot and the simulator as child processes. A TypeScript entry point runs with plain node
 * with tsx's loader. One process, where the `tsx` command starts a second node under itself, and a
 * signal sent to the child reaches the program at once. The loader is named by its absolute path,
 * so a child may run in a temporary directory of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
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

/**
 * `npm start` (src/main.ts, or another release's `main`) as a process of its own in `cwd`, with
 * only PATH, HOME and `env` set.
 */
export function startBotProcess(cwd: string, env: Record<string, string>, main = 'src/main.ts'): BotProcess {
  const [command, args] = tsNode(main);
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr, exit: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}

/** Whether `port` is free on every address right now: listened on (closed again at once) by no one else. */
function canListen(port: number): Promise<boolean> {
  const server = createNetServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port the system hands out by itself (to a listen on port 0 and to outgoing
 * connections, from /proc/sys/net/ipv4/ip_local_port_range), or null where that is not known.
 */
function firstEphemeralPort(): number | null {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : null;
  } catch {
    return null;
  }
}

const FIXED_PORTS_FROM = 10_000;
/** Ports this process handed out already: two asks never get the same one. */
const handedOut = new Set<number>();

/**
 * A port of 127.0.0.1 free right now, for a process to be told to listen on. Picked at random
 * below the ports the system hands out by itself, so that between now and the process's listen no
 * listen on port 0 or outgoing connection anywhere on the machine (other test files run at the same
 * time) is given it; only an ask like this one could pick it, one chance in thousands.
 */
export async function freePort(): Promise<number> {
  const ephemeral = firstEphemeralPort();
  if (ephemeral !== null && ephemeral - FIXED_PORTS_FROM >= 1_000) {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const port = randomInt(FIXED_PORTS_FROM, ephemeral);
      if (handedOut.has(port) || !(await canListen(port))) continue;
      handedOut.add(port);
      return port;
    }
  }
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  handedOut.add(port);
  return port;
}
