/**
 * Pools are no whales and no insiders: holders-live's record of an account that holds for a pool
 * (the pump.fun bonding curve of the recorded young token, under the pool's own address, or a
 * pool program's authority) tells no whale and no insiders-selling alert, in or out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectHolderChanges } from '../../src/alerts/detect';
import { insidersAfter } from '../../src/alerts/insiders';
import { detectWhale } from '../../src/alerts/kinds/whale';
import { snapshotOfToken, snapshotWithHolder } from '../../src/alerts/snapshot';
import { POOL_AUTHORITIES, isPoolAccount } from '../../src/market/poolAccounts';
import { TokenSchema } from '../../src/market/schemas';
import type { TokenSnapshot } from '../../src/model/snapshot';

const RECORDING = new URL('../../../shared/spec/recordings/token-data-pump-curve-and-amm.json', import.meta.url);
const TOKEN = '2QjvRCTuXrEAgq5MARaKLG1jBtDtwamcfvpHc4Nxpump';
const CURVE = '8mQKsFRz9xepon8rSmj2N27SV5dTUGX4KS1PaveHLvC6';
const AMM_POOL = 'D29kHv4zGRsQzkPFeNTitPSRqUkTTz7YyksiNFhNt7QZ';
const RAYDIUM_AUTHORITY = '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1';
const WALLET = 'Ay7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M';
const T0 = 1_737_720_000_000;

/** The recorded token's snapshot as a reconciliation reads it, with holders-live already read once. */
function snapshot(): TokenSnapshot {
  const answer = JSON.parse(readFileSync(RECORDING, 'utf8')) as { data: Record<string, unknown> };
  return { ...snapshotOfToken(TokenSchema.parse(answer.data[TOKEN]), null, T0), holdersSeenAt: T0 - 60_000 };
}

describe('pool accounts among the holders', () => {
  it('knows the token’s pools from its snapshot, and the pool programs’ authorities', () => {
    const s = snapshot();
    expect(s.pools.map((pool) => pool.poolAddress).sort()).toEqual([AMM_POOL, CURVE].sort());
    expect(isPoolAccount(CURVE, s.pools)).toBe(true);
    expect(isPoolAccount(RAYDIUM_AUTHORITY, s.pools)).toBe(true);
    expect(isPoolAccount(WALLET, s.pools)).toBe(false);
    expect(new Set(POOL_AUTHORITIES.map((authority) => authority.address)).size).toBe(POOL_AUTHORITIES.length);
  });

  it('the bonding curve holding 79% of the supply is no whale, coming or going', () => {
    const s = snapshot();
    const curve = { address: CURVE, currentlyHoldingAmount: 792_340_000_000_000n };
    expect(detectWhale(s, { holder: curve, snapshot: false, at: T0 + 1 })).toEqual([]);
    expect(detectHolderChanges(s, { holder: curve, snapshot: false, at: T0 + 1 })).toEqual([]);
    // Even once kept in the whale list (the snapshot's own bookkeeping), its leaving is not told.
    const kept = snapshotWithHolder(s, curve, T0 + 1);
    expect(detectWhale(kept, { holder: { address: CURVE, currentlyHoldingAmount: 0n }, snapshot: false, at: T0 + 2 })).toEqual([]);
    expect(
      detectWhale(s, { holder: { address: RAYDIUM_AUTHORITY, currentlyHoldingAmount: 50_000_000_000_000n }, snapshot: false, at: T0 + 3 }),
    ).toEqual([]);
  });

  it('a wallet crossing 1% beside it still is a whale', () => {
    const [event] = detectWhale(snapshot(), {
      holder: { address: WALLET, currentlyHoldingAmount: 20_000_000_000_000n },
      snapshot: false,
      at: T0 + 1,
    });
    expect(event).toMatchObject({ kind: 'whale', wallet: WALLET, direction: 'in' });
  });

  it('a pool account tagged as a sniper is no insider: its selling tells nothing', () => {
    let s = snapshot();
    const tagged = (address: string, amount: bigint) => ({ address, currentlyHoldingAmount: amount, tags: ['sniper'] });
    expect(insidersAfter(s, tagged(CURVE, 792_340_000_000_000n), T0)).toBeNull();
    s = snapshotWithHolder(s, tagged(CURVE, 792_340_000_000_000n), T0);
    expect(s.insiders).toBeUndefined();
    // The curve sells most of what it holds: trading into the curve, not insiders leaving.
    const events = detectHolderChanges(s, { holder: tagged(CURVE, 100_000_000_000_000n), snapshot: false, at: T0 + 60_000 });
    expect(events).toEqual([]);
    // A tagged wallet is still counted.
    expect(insidersAfter(s, tagged(WALLET, 5_000_000_000_000n), T0)?.state.holdings).toEqual({ [WALLET]: '5000000000000' });
  });
});
