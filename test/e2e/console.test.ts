/**
 * The walk-through a new user follows, as separate processes over real sockets:
 *
 *   npm run simulator -- --port 0 --api-key K --control
 *   TMDS_BASE_URL=… TMDS_WS_URL=… TMDS_API_KEY=K npm start
 *   > /track token ADDR
 *   POST /_control/risk {"tokenAddress":ADDR,"riskStatus":"DANGER"}
 *
 * prints one alert naming the old and the new status, and no repeat after it; and
 *
 *   > /target ADDR price above VALUE
 *   POST /_control/price {"tokenAddress":ADDR,"changePct":40}
 *
 * prints one "Target reached" alert, after which the target is done.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Market } from 'tmds-simulator';
import { tsNode } from '../support/processes';

const KEY = 'walkthrough-key-3e9d';
const ROOT = process.cwd();
const WAIT = { timeout: 20_000, interval: 50 };

interface Proc {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
}

const procs: Proc[] = [];

function run([script, ...rest]: [string, ...string[]], env: Record<string, string>, cwd: string): Proc {
  const [command, args] = tsNode(script, ...rest);
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const proc = { child, out: () => out, err: () => err };
  procs.push(proc);
  return proc;
}

function exited(proc: Proc): Promise<number | null> {
  if (proc.child.exitCode !== null) return Promise.resolve(proc.child.exitCode);
  return new Promise((resolve) => proc.child.once('close', (code) => resolve(code)));
}

afterEach(async () => {
  for (const proc of procs.splice(0)) {
    if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
    await exited(proc);
  }
});

const market = new Market({ seed: 42 });
const token = market
  .listing()
  .tokens.find((item) => /^[A-Za-z0-9 ]+$/.test(item.name) && item.name.trim() !== '' && item.riskStatus !== 'DANGER');

describe('the console walk-through', () => {
  it('/track token, then a forced risk change: one alert naming old and new status, no repeat', { timeout: 90_000 }, async () => {
    if (token === undefined) throw new Error('no ordinary token in the seed-42 market');
    const cwd = mkdtempSync(join(tmpdir(), 'tokenwatch-walkthrough-'));
    const sim = run([join(ROOT, 'src/cli/simulator.ts'), '--port', '0', '--api-key', KEY, '--control'], {}, cwd);
    await vi.waitFor(() => expect(sim.out()).toMatch(/TMDS_WS_URL=\S+/), WAIT);
    const baseUrl = /TMDS_BASE_URL=(\S+)/.exec(sim.out())?.[1] ?? '';
    const wsUrl = /TMDS_WS_URL=(\S+)/.exec(sim.out())?.[1] ?? '';

    const bot = run(
      [join(ROOT, 'src/main.ts')],
      {
        TMDS_BASE_URL: baseUrl,
        TMDS_WS_URL: wsUrl,
        TMDS_API_KEY: KEY,
        DATABASE_PATH: join(cwd, 'tokenwatch.db'),
        // Reconciliation every second instead of every minute, so the test sees it run after the alert.
        RECONCILE_CRON: '* * * * * *',
        // Debug lines say when the token's subscription is served (its baseline).
        LOG_LEVEL: 'debug',
      },
      cwd,
    );
    await vi.waitFor(() => expect(bot.out()).toContain('TokenWatch console chat on'), WAIT);
    bot.child.stdin.write(`/track token ${token.address} risk\n`);
    await vi.waitFor(() => expect(bot.out()).toContain('Now tracking in this chat'), WAIT);
    // The watcher's first sight of the token is its baseline: a change alerts only after it.
    await vi.waitFor(() => expect(bot.err()).toContain(`"address":"${token.address}","msg":"token baseline set"`), WAIT);
    const before = market.token(token.address)?.riskStatus;

    const answer = await fetch(`${baseUrl}/_control/risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ tokenAddress: token.address, riskStatus: 'DANGER' }),
    });
    expect(answer.status).toBe(200);
    await vi.waitFor(() => expect(bot.out()).toContain('alert ▸'), WAIT);
    // Two scheduled reconciliations after the alert read the same change: no second alert comes.
    const runs = () =>
      bot
        .err()
        .split('\n')
        .filter((line) => line.includes('"reason":"schedule"')).length;
    const seen = runs();
    await vi.waitFor(() => expect(runs()).toBeGreaterThanOrEqual(seen + 2), WAIT);
    bot.child.stdin.write('/status\n');
    await vi.waitFor(() => expect(bot.out()).toContain('TokenWatch status'), WAIT);
    bot.child.stdin.end();
    expect(await exited(bot)).toBe(0);

    const alerts = bot.out().split('alert ▸').slice(1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain(`Risk ${before} → DANGER`);
    expect(bot.err()).not.toContain(KEY);
  });

  it('/target, then a forced price move: one alert that the target is reached, and the target done', { timeout: 90_000 }, async () => {
    if (token === undefined) throw new Error('no ordinary token in the seed-42 market');
    const cwd = mkdtempSync(join(tmpdir(), 'tokenwatch-walkthrough-'));
    const sim = run([join(ROOT, 'src/cli/simulator.ts'), '--port', '0', '--api-key', KEY, '--control'], {}, cwd);
    await vi.waitFor(() => expect(sim.out()).toMatch(/TMDS_WS_URL=\S+/), WAIT);
    const baseUrl = /TMDS_BASE_URL=(\S+)/.exec(sim.out())?.[1] ?? '';
    const wsUrl = /TMDS_WS_URL=(\S+)/.exec(sim.out())?.[1] ?? '';
    const bot = run(
      [join(ROOT, 'src/main.ts')],
      { TMDS_BASE_URL: baseUrl, TMDS_WS_URL: wsUrl, TMDS_API_KEY: KEY, DATABASE_PATH: join(cwd, 'tokenwatch.db'), LOG_LEVEL: 'debug' },
      cwd,
    );
    await vi.waitFor(() => expect(bot.out()).toContain('TokenWatch console chat on'), WAIT);
    // A target far above says where the price is now; the one the walk-through sets is 20% above it.
    bot.child.stdin.write(`/target ${token.address} price above 1000\n`);
    await vi.waitFor(() => expect(bot.out()).toMatch(/Price now: \$[\d.]+/), WAIT);
    const now = Number(/Price now: \$([\d.]+)/.exec(bot.out())?.[1]);
    bot.child.stdin.write(`/untarget ${token.address}\n/target ${token.address} price above ${(now * 1.2).toFixed(12)}\n`);
    await vi.waitFor(() => expect(bot.out().split('Target set:')).toHaveLength(3), WAIT);
    await vi.waitFor(() => expect(bot.err()).toContain(`"address":"${token.address}","msg":"token baseline set"`), WAIT);

    const answer = await fetch(`${baseUrl}/_control/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ tokenAddress: token.address, changePct: 40 }),
    });
    expect(answer.status).toBe(200);
    await vi.waitFor(() => expect(bot.out()).toContain('alert ▸'), WAIT);
    bot.child.stdin.write('/targets\n');
    await vi.waitFor(() => expect(bot.out()).toContain('No targets here'), WAIT);
    bot.child.stdin.end();
    expect(await exited(bot)).toBe(0);
    const alerts = bot.out().split('alert ▸').slice(1);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(/Target reached: .+ price above \$/);
    expect(alerts[0]).toContain('This target is done');
  });
});
