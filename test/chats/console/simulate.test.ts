/**
 * /simulate on the built-in simulator, as the composition root hands it over (src/app/consoleSimulator.ts):
 * each event changes the market, and a refusal of the simulator's (a token it does not have, a
 * sell of nothing) is the person's mistake, said plainly, not an error of the bot's.
 */
import type { RunningSimulator } from 'tmds-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSimulator } from '../../../src/app/consoleSimulator';
import { simulateCommand, type SimulateCommand } from '../../../src/chats/console/simulateCommand';
import { parseWords } from '../../../src/dispatch/parseArgs';
import { UsageError } from '../../../src/usage';
import { quietSimulator } from '../../e2e/harness';

let sim: RunningSimulator;
let simulate: SimulateCommand;
let token: string;

const run = (line: string) => simulate.answer(parseWords(simulate.command, line));

describe('/simulate on the built-in simulator', () => {
  beforeAll(async () => {
    sim = await quietSimulator();
    simulate = simulateCommand(consoleSimulator(sim));
    const hostile = new Set(sim.market.hostileTokens());
    token = sim.market.tokenAddresses().find((address) => !hostile.has(address)) as string;
  });

  afterAll(async () => {
    await sim?.close();
  });

  it('makes a whale of a wallet that was none, and says which', async () => {
    const card = await run(`whale ${token}`);
    expect(card.title).toMatch(/^Simulated: whale \S+…\S+ bought 2% of the supply · /);
    // The whale is among the wallets holding about 2% of the supply now (what the pools let it buy).
    const supply = Number(sim.market.token(token)?.totalSupply);
    const whales = sim.market
      .wallets()
      .filter((wallet) => Number(sim.market.holder(token, wallet)?.currentlyHoldingAmount ?? 0) / supply >= 0.019);
    expect(whales.length).toBeGreaterThan(0);
  });

  it('sets a risk status and pulls liquidity', async () => {
    expect((await run(`risk ${token} danger`)).title).toContain('risk status set to DANGER');
    expect(sim.market.token(token)?.riskStatus).toBe('DANGER');
    expect((await run(`pull ${token} 50`)).title).toContain('50% of the liquidity pulled');
  });

  it('tells a token the market does not have, and a refused trade, as the person’s mistakes', async () => {
    const unknown = '9'.repeat(44);
    await expect(run(`whale ${unknown}`)).rejects.toThrow(UsageError);
    await expect(run(`whale ${unknown}`)).rejects.toThrow('the built-in market has no such token');
    await expect(run(`risk ${unknown} safe`)).rejects.toThrow('the built-in market has no such token');
    // A wallet that holds none of the token cannot sell it: the market refuses, and the person is told.
    const nobody = sim.market.wallets().find((wallet) => sim.market.holder(token, wallet) === null);
    expect(nobody).toBeDefined();
    await expect(run(`trade ${token} ${nobody} sell 100`)).rejects.toThrow(UsageError);
  });
});
