/**
 * The console chat end to end, as a person on a fresh machine runs it: `npm start` with commands
 * piped on standard input, the built-in simulator started in-process, one card per command.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Market } from 'tmds-simulator';
import { runToEnd, tsNode, type Run } from '../../support/processes';

/** A working directory of its own, so a run never reads a developer's .env or writes into data/. */
function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'tokenwatch-console-'));
}

function start(input: string, env: Record<string, string> = {}, cwd = freshDir()): Promise<Run> {
  return runToEnd(...tsNode('src/main.ts'), { input, env, cwd });
}

/** The seed-42 market, read in-process: the same addresses `npm run simulator -- --seed 42 --list` prints. */
const market = new Market({ seed: 42 });
const listing = market.listing();
const token = listing.tokens.find((item) => /^[A-Za-z0-9 ]+$/.test(item.name) && item.name.trim() !== '')!;
/** A listed wallet that has traded the token, so that /trades has something to show. */
const wallet = market.tokenTrades(token.address, listing.wallets)!.tradeHistory[0]!.makerData.address;

describe('npm start with piped commands', () => {
  it('prints a banner with addresses to try, then one card per command, and exits at the end of input', async () => {
    const lines = [
      `/token ${token.address}`,
      `/technicals ${token.address}`,
      `/holders ${token.address}`,
      `/chart ${token.address}`,
      `/wallet ${wallet}`,
      `/trades ${token.address} ${wallet}`,
      '/help',
    ];
    const run = await start(`${lines.join('\n')}\n`);
    expect(run.code, run.stderr).toBe(0);
    const [banner, ...afterBanner] = run.stdout.split('\n');
    // The banner's last line says where the logs go (standard error here: it is a pipe, not the terminal).
    const logsLine = afterBanner.findIndex((line) => line.startsWith('Logs ('));
    expect(afterBanner[logsLine]).toBe('Logs (LOG_LEVEL info) go to standard error.');
    const rest = afterBanner.slice(logsLine + 1);
    expect(banner).toContain('built-in simulator');
    expect(banner).toContain('seed 42');
    expect(banner).toMatch(/\/token [1-9A-HJ-NP-Za-km-z]{32,44}/);
    // The banner greets with ordinary tokens; the hostile ones are there to be found.
    for (const address of market.hostileTokens()) expect(banner).not.toContain(address);
    const output = rest.join('\n');
    // One card per command, in order, each under its own title line (a card starts after a blank
    // line, or at the top); the "Try:" lines of other cards cannot stand in for a missing one.
    const titles = output.split('\n').filter((line, i, all) => line !== '' && (i === 0 || all[i - 1] === '') && !line.startsWith(' '));
    const expected = [
      `[${token.riskStatus}] ${token.name} (${token.symbol})`,
      `[${token.riskStatus}] Technicals · ${token.name} (${token.symbol})`,
      `[${token.riskStatus}] Holders · ${token.name} (${token.symbol})`,
      `Chart of ${token.name} (${token.symbol})`,
      `Wallet ${wallet.slice(0, 4)}…${wallet.slice(-4)}`,
      `Trades in ${token.name} (${token.symbol})`,
      'Commands',
    ];
    expect(titles.filter((line) => expected.includes(line))).toEqual(expected);
    expect(output).not.toMatch(/\[ERROR\]/);
    expect(output).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);

  it('answers bad input with a readable error card and keeps going', async () => {
    const run = await start(`/token nonsense\n/bogus\nhello\n/token ${token.address}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('[ERROR]');
    expect(run.stdout).toContain('/token: "nonsense" is not a Solana address');
    expect(run.stdout).toContain('Unknown command');
    expect(run.stdout).toContain('"hello" is not a command');
    expect(run.stdout).toContain(token.symbol);
  }, 60_000);

  it('stops with one line naming a wrong setting', async () => {
    const run = await start('', { TMDS_BASE_URL: 'ftp://nowhere' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('TMDS_BASE_URL');
  }, 60_000);

  it('reads settings from a .env file in the working directory, the environment winning; SIMULATOR_SEED seeds the market', async () => {
    const seven = new Market({ seed: 7 });
    const hostile = new Set(seven.hostileTokens());
    const firstOrdinary = seven.tokenAddresses().find((address) => !hostile.has(address))!;
    const cwd = freshDir();
    writeFileSync(join(cwd, '.env'), 'SIMULATOR_SEED=7\nLOG_LEVEL=loud\n');
    const fromFile = await start('', {}, cwd);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain('LOG_LEVEL');
    const overridden = await start('/help\n', { LOG_LEVEL: 'warn' }, cwd);
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(overridden.stdout.split('\n')[0]).toContain('seed 7');
    expect(overridden.stdout.split('\n')[0]).toContain(firstOrdinary);
  }, 60_000);
});
