/**
 * The command line: --list prints the market's listing as one JSON line; a start prints the two
 * settings lines first and serves until SIGTERM; bad flags exit 2 with one line on stderr; the
 * API key is never printed.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SimulatorUsageError as UsageError, USAGE, parseCliArgs } from 'tmds-simulator/cli';
import { Market } from 'tmds-simulator';
import { tsNode } from '../support/processes';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = 'src/cli/simulator.ts';

// Each test starts node with tsx's loader: seconds on idle cores, far longer with none free.
describe('simulator CLI', { timeout: 60_000 }, () => {
  it.concurrent('--list prints {tokens, wallets} on one line, the same as the in-process market', async () => {
    const { stdout } = await run(...tsNode(CLI, '--seed', '42', '--list'), { cwd: ROOT });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const listing: unknown = JSON.parse(lines[0] ?? '');
    expect(listing).toEqual(new Market({ seed: 42 }).listing());
    expect(listing).toMatchObject({ tokens: expect.any(Array), wallets: expect.any(Array) });
    const { tokens } = listing as { tokens: Array<Record<string, unknown>> };
    for (const token of tokens) expect(Object.keys(token)).toEqual(['address', 'symbol', 'name', 'riskStatus']);
  });

  it.concurrent('starts, prints TMDS_BASE_URL and TMDS_WS_URL first, serves, and closes on SIGTERM', async () => {
    const secret = 'cli-secret-key-93f1';
    const child = spawn(...tsNode(CLI, '--port', '0', '--api-key', secret, '--seed', '7'), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up lines; stderr: ${stderr}`)), 45_000);
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.split('\n').length > 2) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const [base, ws] = stdout.split('\n');
      expect(base).toMatch(/^TMDS_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(ws).toBe(base?.replace('TMDS_BASE_URL=http://', 'TMDS_WS_URL=ws://'));
      const baseUrl = base?.slice('TMDS_BASE_URL='.length) ?? '';
      const address = new Market({ seed: 7 }).tokenAddresses()[0] ?? '';
      const answer = await fetch(`${baseUrl}/api/token-data?address=${address}`, { headers: { 'x-api-key': secret } });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout + stderr).not.toContain(secret);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.concurrent('a bad flag: one line on stderr, exit code 2', async () => {
    const failure: unknown = await run(...tsNode(CLI, '--port', 'abc'), { cwd: ROOT }).then(
      () => new Error('expected a failure'),
      (error: unknown) => error,
    );
    const { code, stderr, stdout } = failure as { code: number; stderr: string; stdout: string };
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^simulator: --port/);
    expect(stdout).toBe('');
  });
});

describe('simulator flags', () => {
  it('defaults', () => {
    expect(parseCliArgs([])).toEqual({
      port: 8787,
      host: '127.0.0.1',
      apiKey: 'demo-key',
      seed: 42,
      control: false,
      tradesPerSecond: 2,
      subscriptionsPerSocket: 1_000,
      style: 'spec',
      list: false,
      help: false,
    });
  });

  it('every flag', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--api-key',
        'k',
        '--seed',
        '7',
        '--control',
        '--trades-per-second',
        '2.5',
        '--subscriptions-per-socket',
        '1',
        '--style',
        'real',
        '--list',
        '--help',
      ]),
    ).toEqual({
      port: 0,
      host: '0.0.0.0',
      apiKey: 'k',
      seed: 7,
      control: true,
      tradesPerSecond: 2.5,
      subscriptionsPerSocket: 1,
      style: 'real',
      list: true,
      help: true,
    });
  });

  it('bad flags give one clear line that never contains the key', () => {
    const cases = [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--bogus'],
      ['--seed', '-1'],
      ['--seed', '1.5'],
      ['--trades-per-second', 'fast'],
      ['--subscriptions-per-socket', '0'],
      ['--subscriptions-per-socket', '1001'],
      ['--style', 'live'],
      ['--style'],
      ['--api-key'],
      ['--api-key', ''],
      ['--control=yes'],
      ['positional-secret'],
    ];
    for (const args of cases) {
      let message = '';
      try {
        parseCliArgs(args);
      } catch (error) {
        expect(error, args.join(' ')).toBeInstanceOf(UsageError);
        message = error instanceof Error ? error.message : '';
      }
      expect(message, args.join(' ')).not.toBe('');
      expect(message).not.toContain('\n');
    }
    try {
      parseCliArgs(['--api-key', 'top-secret-key', '--port', 'x']);
    } catch (error) {
      expect(error instanceof Error ? error.message : '').not.toContain('top-secret-key');
    }
  });

  it('the usage names every flag', () => {
    for (const flag of [
      '--port',
      '--host',
      '--api-key',
      '--seed',
      '--control',
      '--trades-per-second',
      '--subscriptions-per-socket',
      '--style',
      '--list',
      '--help',
    ]) {
      expect(USAGE).toContain(flag);
    }
  });
});
