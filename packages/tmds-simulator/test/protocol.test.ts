/**
 * Choosing the protocol: the option of startSimulator, the --protocol flag and SIMULATOR_PROTOCOL
 * (the flag wins), the refusal of the spec style with the vendor protocol; and what only the
 * vendor protocol does: launching new tokens, by the `launch` control and by a moving market,
 * the same launches for a seed.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOL_ENV, SimulatorUsageError, USAGE, parseCliArgs } from '../src/cli';
import { CONTROL_NAMES, ControlError, controlNames } from '../src/controls';
import { MarketDriver } from '../src/driver';
import { Market } from '../src/market';
import { LIFELIKE_PACE, tradesOnly } from '../src/pace';
import { SIMULATOR_PROTOCOLS, isSimulatorProtocol } from '../src/protocol';
import type { VendorTokenEnvelope } from '../src/vendorWireTypes';
import { KEY, get, start } from './helpers';

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SimulatorUsageError);
    return error instanceof Error ? error.message : '';
  }
  throw new Error('expected a SimulatorUsageError');
}

describe('the protocol names', () => {
  it('are spec and vendor', () => {
    expect(SIMULATOR_PROTOCOLS).toEqual(['spec', 'vendor']);
    expect(isSimulatorProtocol('vendor')).toBe(true);
    expect(isSimulatorProtocol('real')).toBe(false);
  });
});

describe('--protocol and SIMULATOR_PROTOCOL', () => {
  it('leave the protocol unsaid without either (the spec protocol), as before', () => {
    expect(parseCliArgs([]).protocol).toBeUndefined();
    expect(parseCliArgs([], {}).style).toBe('spec');
    expect(USAGE).toContain('--protocol');
    expect(USAGE).toContain(PROTOCOL_ENV);
  });

  it('take vendor from the flag or the environment, the flag winning, and write the live service’s style', () => {
    expect(parseCliArgs(['--protocol', 'vendor'])).toMatchObject({ protocol: 'vendor', style: 'real' });
    expect(parseCliArgs([], { SIMULATOR_PROTOCOL: 'vendor' })).toMatchObject({ protocol: 'vendor', style: 'real' });
    expect(parseCliArgs(['--protocol', 'spec'], { SIMULATOR_PROTOCOL: 'vendor' })).toMatchObject({ protocol: 'spec', style: 'spec' });
    expect(parseCliArgs(['--protocol', 'vendor'], { SIMULATOR_PROTOCOL: 'spec' }).protocol).toBe('vendor');
    expect(parseCliArgs([], { SIMULATOR_PROTOCOL: '' }).protocol).toBeUndefined();
    expect(parseCliArgs(['--protocol', 'vendor', '--style', 'real']).style).toBe('real');
    // --style keeps working as it did for the spec protocol.
    expect(parseCliArgs(['--style', 'real'])).toMatchObject({ style: 'real' });
  });

  it('refuse an unknown protocol, from either, and the spec style with the vendor protocol, in one line', () => {
    expect(usageError(() => parseCliArgs(['--protocol', 'live']))).toMatch(/^--protocol must be one of spec, vendor/);
    expect(usageError(() => parseCliArgs([], { SIMULATOR_PROTOCOL: 'live' }))).toMatch(/^SIMULATOR_PROTOCOL must be one of/);
    expect(usageError(() => parseCliArgs(['--protocol']))).not.toContain('\n');
    expect(usageError(() => parseCliArgs(['--protocol', 'vendor', '--style', 'spec']))).toContain('--style spec');
    expect(usageError(() => parseCliArgs(['--style', 'spec'], { SIMULATOR_PROTOCOL: 'vendor' }))).toContain('--style spec');
  });
});

describe('startSimulator’s protocol', () => {
  it('is spec by default and says which it speaks', async () => {
    const sim = await start();
    try {
      expect(sim.protocol).toBe('spec');
      expect(sim.market.protocol).toBe('spec');
    } finally {
      await sim.close();
    }
  });

  it('refuses the spec style with the vendor protocol, and a protocol it does not know', async () => {
    await expect(start({ protocol: 'vendor', style: 'spec' })).rejects.toThrow('style');
    await expect(start({ protocol: 'live' as 'spec' })).rejects.toThrow('protocol');
    expect(() => new Market({ protocol: 'vendor', style: 'spec' })).toThrow('style');
    expect(new Market({ protocol: 'vendor' }).style).toBe('real');
  });
});

describe('the launch control', () => {
  it('belongs to the vendor protocol: 409 in-process and no such control over HTTP in the spec protocol', async () => {
    expect(controlNames('spec')).not.toContain('launch');
    expect(controlNames('vendor')).toEqual(CONTROL_NAMES);
    const sim = await start({ control: true });
    try {
      let refused: unknown = null;
      try {
        sim.controls.launch({});
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(ControlError);
      expect((refused as ControlError).status).toBe(409);
      const answer = await fetch(`${sim.baseUrl}/_control/launch`, { method: 'POST', headers: { 'x-api-key': KEY }, body: '{}' });
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { message: string }).message).not.toContain('launch,');
      expect(sim.market.tokenAddresses()).toHaveLength(44);
    } finally {
      await sim.close();
    }
  });

  it('launches a token over HTTP in the vendor protocol, which REST then serves', async () => {
    const sim = await start({ control: true, protocol: 'vendor' });
    try {
      const answer = await fetch(`${sim.baseUrl}/_control/launch`, {
        method: 'POST',
        headers: { 'x-api-key': KEY },
        body: JSON.stringify({ origin: 'moonshot' }),
      });
      expect(answer.status).toBe(200);
      const { token } = (await answer.json()) as { token: { address: string; symbol: string } };
      expect(sim.market.tokenAddresses()).toContain(token.address);
      const data = await get<VendorTokenEnvelope>(sim, `/api/token-data?address=${token.address}`);
      expect(data.body.data[token.address]).toMatchObject({ origin: 'MOONSHOT', decimals: 9, symbol: token.symbol });
      const bad = await fetch(`${sim.baseUrl}/_control/launch`, { method: 'POST', headers: { 'x-api-key': KEY }, body: '{"origin":"x"}' });
      expect(bad.status).toBe(400);
    } finally {
      await sim.close();
    }
  });
});

describe('a moving market in the vendor protocol', () => {
  const now = () => Date.UTC(2026, 0, 1);

  function launched(pace: typeof LIFELIKE_PACE, minutes: number): string[] {
    const market = new Market({ seed: 42, protocol: 'vendor', now });
    const driver = new MarketDriver(market, pace, 8);
    driver.advance(minutes * 60_000);
    return market.tokenAddresses().slice(44);
  }

  it('launches a new token every minute or two, the same ones for a seed', () => {
    const first = launched(LIFELIKE_PACE, 10);
    expect(first.length).toBeGreaterThanOrEqual(5);
    expect(first.length).toBeLessThanOrEqual(14);
    expect(launched(LIFELIKE_PACE, 10)).toEqual(first);
    expect(launched(tradesOnly(2), 10).length).toBeGreaterThan(0);
  });

  it('launches nothing when still, or in the spec protocol', () => {
    expect(launched(tradesOnly(0), 10)).toEqual([]);
    const spec = new Market({ seed: 42, now });
    new MarketDriver(spec, LIFELIKE_PACE, 8).advance(10 * 60_000);
    expect(spec.tokenAddresses()).toHaveLength(44);
  });
});
