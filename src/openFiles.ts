/**
 * The process's open-files limit, which bounds the live streams: every stream socket is an open
 * file, and one subscription a socket (what a service that follows the spec's one message per
 * connection allows) means one socket per followed token and stream.
 *
 * Node has no setrlimit. At start the bot raises its soft limit to the hard limit with util-linux's
 * `prlimit --pid <own pid>`, which any process may do to its own user's processes (the hard limit
 * itself needs root, and stays). Where `prlimit` is missing, or the platform has none, the soft
 * limit stays: the operator raises it before start (`ulimit -n`, systemd's `LimitNOFILE=`, Docker's
 * `--ulimit nofile=`). Either way the limit is read (Linux: /proc/self/limits; elsewhere: the
 * shell's `ulimit`), and the stream sockets are kept within it, less a margin for everything else
 * the process opens (the database and its journal, the chats' connections, the service's REST
 * connections, the operators' HTTP server, Node's own).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface OpenFilesLimit {
  /** The soft limit now in force: the most files the process may have open. */
  soft: number;
  /** The most the soft limit may be raised to without root. */
  hard: number;
  /** The soft limit before start raised it, or null when it was not raised. */
  raisedFrom: number | null;
  /** Why it could not be raised, when it was below the hard limit and stayed there; null otherwise. */
  notRaised: string | null;
}

/**
 * Files kept for everything but stream sockets: a quarter of the limit, at least 64 (Node, the
 * database, a few connections) and at most 1,024 (a chat's connections and an HTTP server's
 * clients stay far below it).
 */
export function openFilesMargin(soft: number): number {
  return Math.max(64, Math.min(1_024, Math.floor(soft / 4)));
}

/**
 * How many stream sockets the limit leaves room for. With the built-in simulator in the same
 * process, each stream socket costs two files: the client's end and the server's.
 */
export function streamSocketsAllowed(limit: Pick<OpenFilesLimit, 'soft'>, filesPerSocket: 1 | 2): number {
  return Math.max(1, Math.floor((limit.soft - openFilesMargin(limit.soft)) / filesPerSocket));
}

/** "unlimited" stands for a number no limit reaches. */
function readCount(text: string): number | null {
  if (text === 'unlimited' || text === 'infinity') return Number.MAX_SAFE_INTEGER;
  return /^\d+$/.test(text) ? Number(text) : null;
}

/** The soft and hard limits from /proc/self/limits' "Max open files" line. */
export function parseProcLimits(text: string): { soft: number; hard: number } | null {
  const line = text.split('\n').find((row) => row.startsWith('Max open files'));
  if (line === undefined) return null;
  const [soft, hard] = line.slice('Max open files'.length).trim().split(/\s+/).map(readCount);
  return soft === null || soft === undefined || hard === null || hard === undefined ? null : { soft, hard };
}

/** The limits in force now, or null where neither /proc nor a shell can tell. */
export function readOpenFilesLimit(): { soft: number; hard: number } | null {
  try {
    const parsed = parseProcLimits(readFileSync('/proc/self/limits', 'utf8'));
    if (parsed !== null) return parsed;
  } catch {
    // Not Linux: a shell started by this process inherits its limits and can print them.
  }
  try {
    const [soft, hard] = execFileSync('/bin/sh', ['-c', 'ulimit -Sn; ulimit -Hn'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    })
      .trim()
      .split(/\s+/)
      .map(readCount);
    return soft === null || soft === undefined || hard === null || hard === undefined ? null : { soft, hard };
  } catch {
    return null;
  }
}

/**
 * Raises the soft limit to the hard one where it is lower, and returns the limits in force. Null
 * where the limits cannot be read at all: then nothing bounds the stream sockets but the system.
 */
export function raiseOpenFilesLimit(): OpenFilesLimit | null {
  const before = readOpenFilesLimit();
  if (before === null) return null;
  if (before.soft >= before.hard) return { ...before, raisedFrom: null, notRaised: null };
  let failure: string;
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${before.hard}:${before.hard}`], { stdio: 'ignore', timeout: 5_000 });
    const after = readOpenFilesLimit();
    if (after !== null && after.soft > before.soft) return { ...after, raisedFrom: before.soft, notRaised: null };
    failure = 'prlimit ran, but the limit did not change';
  } catch (error) {
    failure =
      error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'prlimit (util-linux) is not installed' : 'prlimit failed';
  }
  return { ...before, raisedFrom: null, notRaised: failure };
}
