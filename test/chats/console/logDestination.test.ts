/**
 * Where the console chat's logs go: out of the conversation. With standard error on the console's
 * terminal the lines go to data/tokenwatch.log at LOG_LEVEL and the banner says so; standard error
 * sent elsewhere keeps them; a process that runs no console chat logs to standard error as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_LOG_FILE, logDestination, logPlace, logPlaceLine, runsConsoleChat } from '../../../src/chats/console/logDestination';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/log';
import { tsNode } from '../../support/processes';

describe('the log destination', () => {
  it('is a file under data/ when the console chat runs on a terminal, standard error otherwise', () => {
    expect(logPlace({ consoleChat: true, stderrIsTerminal: true })).toEqual({ kind: 'file', path: CONSOLE_LOG_FILE });
    expect(CONSOLE_LOG_FILE).toMatch(/^data\//);
    expect(logPlace({ consoleChat: true, stderrIsTerminal: false })).toEqual({ kind: 'stderr' });
    expect(logPlace({ consoleChat: false, stderrIsTerminal: true })).toEqual({ kind: 'stderr' });
  });

  it('follows the console chat: no platform configured and not one of several processes', () => {
    expect(runsConsoleChat(loadConfig({}))).toBe(true);
    expect(runsConsoleChat(loadConfig({ TELEGRAM_BOT_TOKEN: '123:abc', TMDS_BASE_URL: 'simulator' }))).toBe(false);
  });

  it('writes the file at LOG_LEVEL, making its folder', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tokenwatch-logs-')), 'data', 'tokenwatch.log');
    const logger = createLogger('info', logDestination({ kind: 'file', path }, 'info'));
    logger.debug('a debug line');
    logger.info({ chat: 'console' }, 'an info line');
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'an info line' })]);
  });

  it('is named in the banner', () => {
    expect(logPlaceLine({ kind: 'file', path: CONSOLE_LOG_FILE }, 'debug')).toBe(
      'Logs (LOG_LEVEL debug) go to data/tokenwatch.log, not to this terminal.',
    );
  });
});

describe('npm start at a terminal', () => {
  it('keeps the log lines out of the conversation, in data/tokenwatch.log, and says so', { timeout: 60_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tokenwatch-pty-'));
    const [node, args] = tsNode('src/main.ts');
    const quoted = [node, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    // script(1) runs the bot on a pseudo-terminal: its standard output and error are a terminal, as at a desk.
    const child = spawn('script', ['-qec', quoted, '/dev/null'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // The command, then end of input (Ctrl-D at the start of a line): the bot answers and stops.
    child.stdin.write('/tokn\n\u0004');
    expect(await exited).toBe(0);

    expect(out).toContain('Logs (LOG_LEVEL info) go to data/tokenwatch.log, not to this terminal.');
    expect(out).toContain('Did you mean /token?');
    expect(out).not.toContain('"level":');
    const log = join(cwd, 'data', 'tokenwatch.log');
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('"chat":"console"');
  });
});
