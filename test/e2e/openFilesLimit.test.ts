/**
 * The bot at its open-files limit, as a separate process started under `prlimit --nofile=200:200`
 * (a real limit), on its built-in simulator with one stream subscription a socket: it holds the
 * follows the limit leaves room for, refuses the next with a clear answer, says so in its log, and
 * /status shows the limit. Never a crash, and nothing followed that is not watched.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { streamSocketsAllowed } from '../../src/openFiles';
import { Market } from 'tmds-simulator';
import { runToEnd, tsNode } from '../support/processes';

const LIMIT = 200;

describe('the open-files limit', () => {
  it('refuses the follows past what the limit leaves room for, with an answer, a log line and a /status line', {
    timeout: 90_000,
  }, async () => {
    const [node, args] = tsNode('src/main.ts');
    const prlimit = execFileSync('/bin/sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' }).trim();
    // Each followed token has token-feed and holders-live; with the simulator in the process each socket is two files.
    const sockets = streamSocketsAllowed({ soft: LIMIT }, 2);
    const fitting = Math.floor(sockets / 2);
    const tokens = new Market({ seed: 42 }).tokenAddresses().slice(0, fitting + 2);
    expect(tokens).toHaveLength(fitting + 2);
    const input = [...tokens.map((address) => `/track token ${address}`), '/status', ''].join('\n');

    const run = await runToEnd(prlimit, [`--nofile=${LIMIT}:${LIMIT}`, node, ...args], {
      input,
      env: { TMDS_WS_SUBSCRIPTIONS_PER_SOCKET: '1' },
    });

    expect(run.code).toBe(0);
    expect(run.stdout.match(/Now tracking in this chat/g)).toHaveLength(fitting);
    const refusals = run.stdout.match(/\/track: the bot already watches as much as its open-files limit \(200\s+files\) allows/g);
    expect(refusals).toHaveLength(2);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      `All ${sockets} live stream sockets it allows are in use, so this follow was not added.`,
    );

    const lines = run.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'open-files limit')).toMatchObject({ soft: LIMIT, hard: LIMIT, streamSockets: sockets });
    const refused = lines.filter((line) => line.msg === 'follow refused: the live streams are at the open-files limit');
    expect(refused.map((line) => line.address)).toEqual(tokens.slice(fitting));
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);

    const status = run.stdout.slice(run.stdout.lastIndexOf('TokenWatch status')).replace(/\s+/g, ' ');
    expect(status).toContain(`Follows: ${fitting} in 1 chats: ${fitting} tokens`);
    // How many are up yet depends on the moment; how many there are does not.
    expect(status).toMatch(new RegExp(`Live streams: \\d+ of ${sockets} sockets up, ${sockets} subscriptions`));
    expect(status).toContain(`At the open-files limit: ${sockets} stream sockets, all that 200 open files allow, are in use`);
    expect(status).toContain('Stream sockets: one subscription a socket (set)');
  });
});
