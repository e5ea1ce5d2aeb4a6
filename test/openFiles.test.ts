/**
 * The open-files limit: read from /proc/self/limits, raised from the soft limit to the hard one
 * with prlimit (the process's own, lowered here first and checked back), and the stream sockets
 * it leaves room for.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openFilesMargin, parseProcLimits, raiseOpenFilesLimit, readOpenFilesLimit, streamSocketsAllowed } from '../src/openFiles';

const PROC_LIMITS = [
  'Limit                     Soft Limit           Hard Limit           Units     ',
  'Max cpu time              unlimited            unlimited            seconds   ',
  'Max open files            1024                 524288               files     ',
  'Max locked memory         8388608              8388608              bytes     ',
].join('\n');

describe('reading the limit', () => {
  it('takes the soft and hard limits from the "Max open files" line', () => {
    expect(parseProcLimits(PROC_LIMITS)).toEqual({ soft: 1024, hard: 524288 });
    expect(parseProcLimits(PROC_LIMITS.replace('524288', 'unlimited'))).toEqual({ soft: 1024, hard: Number.MAX_SAFE_INTEGER });
    expect(parseProcLimits('Max cpu time unlimited unlimited seconds')).toBeNull();
    expect(parseProcLimits('Max open files lots many files')).toBeNull();
  });

  it("reads this process's limits as the shell sees them", () => {
    const shell = execFileSync('/bin/sh', ['-c', 'ulimit -Sn; ulimit -Hn'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    expect(readOpenFilesLimit()).toEqual({ soft: shell[0], hard: shell[1] });
  });
});

describe('room for stream sockets', () => {
  it('keeps a quarter of the limit for the rest of the process, at least 64 files and at most 1,024', () => {
    expect(openFilesMargin(200)).toBe(64);
    expect(openFilesMargin(1_024)).toBe(256);
    expect(openFilesMargin(20_000)).toBe(1_024);
    expect(streamSocketsAllowed({ soft: 20_000 }, 1)).toBe(18_976);
    // The built-in simulator in the same process holds the other end of each socket.
    expect(streamSocketsAllowed({ soft: 200 }, 2)).toBe(68);
    expect(streamSocketsAllowed({ soft: 10 }, 1)).toBe(1);
  });
});

describe('raising the soft limit', () => {
  const start = readOpenFilesLimit();
  afterEach(() => {
    // Whatever happened, this worker leaves with the limit it had.
    if (start !== null) execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${start.soft}:${start.hard}`]);
  });

  it('raises a soft limit below the hard one to the hard one, and says from what', () => {
    if (start === null) throw new Error('no open-files limit to read on this machine');
    const lowered = Math.min(4_096, start.hard - 1);
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${lowered}:${start.hard}`]);
    expect(readOpenFilesLimit()).toEqual({ soft: lowered, hard: start.hard });
    expect(raiseOpenFilesLimit()).toEqual({ soft: start.hard, hard: start.hard, raisedFrom: lowered, notRaised: null });
    expect(readOpenFilesLimit()).toEqual({ soft: start.hard, hard: start.hard });
  });

  it('leaves a soft limit already at the hard one as it is', () => {
    if (start === null) throw new Error('no open-files limit to read on this machine');
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${start.hard}:${start.hard}`]);
    expect(raiseOpenFilesLimit()).toEqual({ soft: start.hard, hard: start.hard, raisedFrom: null, notRaised: null });
  });
});
