/**
 * The package's bin, as `npx tmds-simulator` runs it: plain node on bin/tmds-simulator.mjs, which
 * loads the TypeScript through tsx with no build step. --help names the command, --list prints
 * the seed's market, a bad flag exits 2 with one line; `npm run simulator` in TokenWatch is the
 * same program under another name (test/cli/simulator.test.ts there).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { USAGE, usage } from '../src/cli';
import { Market } from '../src/market';

const run = promisify(execFile);
const BIN = new URL('../bin/tmds-simulator.mjs', import.meta.url).pathname;

// Each test starts node with tsx's loader: seconds on idle cores, far longer with none free.
describe('the tmds-simulator bin', { timeout: 60_000 }, () => {
  it.concurrent('--help prints the usage, naming the command', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--help']);
    expect(stdout).toBe(`${USAGE}\n`);
    expect(stdout.split('\n')[0]).toBe('Usage: tmds-simulator [options]');
  });

  it.concurrent('--seed 42 --list prints the in-process market’s listing on one line', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--seed', '42', '--list']);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual(new Market({ seed: 42 }).listing());
  });

  it.concurrent('a bad flag: one line on stderr under its own name, exit code 2', async () => {
    const failure: unknown = await run(process.execPath, [BIN, '--seed', 'x']).then(
      () => new Error('expected a failure'),
      (error: unknown) => error,
    );
    const { code, stderr, stdout } = failure as { code: number; stderr: string; stdout: string };
    expect(code).toBe(2);
    expect(stderr).toMatch(/^tmds-simulator: --seed must be an integer/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
  });
});

describe('usage', () => {
  it('names how the program is started, the rest of the help unchanged', () => {
    const other = usage('npm run simulator --');
    expect(other.split('\n')[0]).toBe('Usage: npm run simulator -- [options]');
    expect(other.split('\n').slice(1)).toEqual(USAGE.split('\n').slice(1));
  });
});
