/**
 * The production build: `npm run build` emits JavaScript to dist/, and `node dist/src/main.js`,
 * with no TypeScript tooling at run time, answers in the console on the built-in simulator as
 * `npm start` does, its commands loaded as .js files.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { Market } from 'tmds-simulator';
import { runToEnd, type Run } from './support/processes';

const ROOT = process.cwd();

function run(command: string, args: string[], input: string): Promise<Run> {
  return runToEnd(command, args, { input });
}

/**
 * What must agree between two runs: the lines of the cards with the figures and their signs taken
 * out, since the simulated market trades on its own clock and each run starts it anew (a change
 * can be +0.4% in one run and 0% in the other).
 */
function shape(stdout: string): string[] {
  return stdout
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/[+\-−]?\d[\d.,₀-₉]*/g, '#').replace(/(synced|ago|just now|in #\w).*$/, '…'));
}

const token = new Market({ seed: 42 }).listing().tokens[0]!.address;

describe('npm run build', () => {
  beforeAll(async () => {
    // npm test type-checks the same sources beside this run, so the build here only emits.
    await promisify(execFile)('npm', ['run', 'build', '--', '--noCheck'], { cwd: ROOT, timeout: 240_000 });
  }, 240_000);

  it('emits the bot and every command as JavaScript', () => {
    expect(existsSync(join(ROOT, 'dist', 'src', 'main.js'))).toBe(true);
    const sources = readdirSync(join(ROOT, 'commands')).filter((file) => file.endsWith('.ts'));
    const built = readdirSync(join(ROOT, 'dist', 'commands')).filter((file) => file.endsWith('.js'));
    expect(built.map((file) => file.replace(/\.js$/, ''))).toEqual(sources.map((file) => file.replace(/\.ts$/, '')));
  });

  it('runs under plain node and answers /token as npm start does', async () => {
    const input = `/token ${token}\n/help\n`;
    const [built, source] = await Promise.all([
      run(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], input),
      run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'src', 'main.ts')], input),
    ]);
    expect(built.code, built.stderr).toBe(0);
    expect(source.code, source.stderr).toBe(0);
    expect(built.stdout.split('\n')[0]).toContain('built-in simulator');
    expect(built.stdout).toContain(`/token ${token}`);
    expect(built.stdout).toContain('Commands');
    expect(built.stdout).not.toContain('[ERROR]');
    expect(shape(built.stdout)).toEqual(shape(source.stdout));
  }, 120_000);
});
