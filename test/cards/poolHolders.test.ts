/**
 * Pools are not holders on /holders: the pump.fun bonding curve of the recorded young token, first
 * in its holders list under the pool's own address, and the Raydium AMM authority are shown as
 * pools, without a rank, and left out of the top-10 share the card works out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/cards/card';
import { buildHoldersCard } from '../../src/cards/holdersCard';
import { HolderSchema, type Holder, TokenSchema } from '../../src/market/schemas';
import { formatTokenAmount, percent, shortAddress } from '../../src/text/format';
import { expectSafeCard } from '../support/cardSafety';

const RECORDING = new URL('../../../shared/spec/recordings/token-data-pump-curve-and-amm.json', import.meta.url);
const TOKEN = '2QjvRCTuXrEAgq5MARaKLG1jBtDtwamcfvpHc4Nxpump';
/** The token's PUMP pool: the bonding curve, which holds the unsold supply under its own address. */
const CURVE = '8mQKsFRz9xepon8rSmj2N27SV5dTUGX4KS1PaveHLvC6';
const RAYDIUM_AUTHORITY = '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1';
const NOW = new Date('2025-01-24T12:00:00Z');
const WALLETS = [
  'Ay7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'By7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Cy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Dy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Ey7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Fy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Gy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Hy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Jy7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Ky7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'Ly7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
  'My7mQ2xNp9Kc4Rv6Lb8Hd3Fw5Gj1Sz2Ty7Ue4Yn9Pq6M',
];

function recordedToken() {
  const answer = JSON.parse(readFileSync(RECORDING, 'utf8')) as { data: Record<string, unknown> };
  return TokenSchema.parse(answer.data[TOKEN]);
}

function holder(address: string, amount: bigint, tags: string[] = []): Holder {
  return HolderSchema.parse({ address, currentlyHoldingAmount: amount.toString(), tags, holderSince: NOW.getTime() / 1000 - 3600 });
}

const token = recordedToken();
const supply = 999033802128331n;
const curveAmount = 792_340_000_000_000n;
const authorityAmount = 50_000_000_000_000n;
/** Twelve wallets of 12, 11, … 1 million tokens (1.2% down to 0.1%). */
const wallets = WALLETS.map((address, index) => holder(address, BigInt(12 - index) * 1_000_000_000_000n, index === 0 ? ['sniper'] : []));
const byBalance = [holder(CURVE, curveAmount), holder(RAYDIUM_AUTHORITY, authorityAmount), ...wallets];

describe('pool accounts on the /holders card', () => {
  const card = buildHoldersCard({ token, holders: byBalance, sortBy: 'balance', now: NOW });

  it('shows the bonding curve and the AMM authority as pools, in their place, without a rank', () => {
    expect(token.totalSupply).toBe(supply);
    const names = card.fields.map((f) => f.name);
    expect(names.slice(0, 3)).toEqual([
      `Pool · ${percent((Number(curveAmount) / Number(supply)) * 100)} of supply`,
      `Pool · ${percent((Number(authorityAmount) / Number(supply)) * 100)} of supply`,
      `#1 · ${percent((12e12 / Number(supply)) * 100)} of supply`,
    ]);
    expect(names).toHaveLength(12);
    expect(names[11]).toMatch(/^#10 · /);
    expect(plainText(card.fields[0]?.value ?? []).split('\n')).toEqual([
      `${shortAddress(CURVE)} · ${formatTokenAmount(curveAmount, 6)} STABLECOIN`,
      'PUMP pool: a pool, not a wallet; no rank, not in the top 10',
    ]);
    expect(plainText(card.fields[1]?.value ?? []).split('\n')[1]).toBe(
      'Raydium AMM authority: a pool, not a wallet; no rank, not in the top 10',
    );
    expect(card.footer).toBe(`${shortAddress(TOKEN)} · 10 of 12 wallets that ever held it · 2 pool accounts`);
    expectSafeCard(card);
  });

  it('works the top-10 share out of the ten largest wallets, the pools left out', () => {
    // 12 + 11 + … + 3 million whole tokens, of 999,033,802 (the curve alone would be 79%).
    const share = (75e12 / Number(supply)) * 100;
    expect(plainText(card.description ?? [])).toBe(
      `Order: Largest balance · 192 holders · top 10 wallets hold ${percent(share)} (pools left out)`,
    );
  });

  it('in another order the ten largest are not known: no top-10 share rather than one that may count the curve', () => {
    const bySince = buildHoldersCard({
      token: { ...token, top10HoldersSupply: 850_000_000_000_000n },
      holders: byBalance,
      sortBy: 'holderSince',
      now: NOW,
    });
    expect(plainText(bySince.description ?? [])).toBe('Order: Earliest holders · 192 holders');
  });

  it('a wallet-only list keeps the service’s figure', () => {
    const plain = buildHoldersCard({
      token: { ...token, top10HoldersSupply: 75_000_000_000_000n },
      holders: wallets,
      sortBy: 'holderSince',
      now: NOW,
    });
    expect(plainText(plain.description ?? [])).toBe(`Order: Earliest holders · 192 holders · top 10 hold ${percent(7.507253)}`);
    expect(plain.fields.map((f) => f.name)[0]).toMatch(/^#1 · /);
  });
});
