/**
 * The life-event detectors, pure: graduation from the pools' protocols, the developer's sales from
 * its holder record, insiders selling from tagged holders; each tolerant of the spec's "not shown"
 * forms (an empty protocol, a record without tags or without what it sold), each told once.
 */
import { describe, expect, it } from 'vitest';
import { detectDeveloperSold } from '../../src/alerts/kinds/developerSold';
import { detectGraduation } from '../../src/alerts/kinds/graduation';
import { detectInsidersSelling } from '../../src/alerts/kinds/insidersSelling';
import type { HolderRecord } from '../../src/alerts/holderRecord';
import { snapshotWithHolder } from '../../src/alerts/snapshot';
import type { PoolSnapshot, TokenSnapshot } from '../../src/model/snapshot';
import { POOL_A, POOL_B, T1, W1, W2 } from '../watch/support/fixtures';

const T0 = 1_800_000_000_000;
const DEV = 'Dev1111111111111111111111111111111111111111';

function state(pools: PoolSnapshot[], extra: Partial<TokenSnapshot> = {}): TokenSnapshot {
  return {
    address: T1,
    symbol: 'MOCHI',
    name: 'Mochi',
    riskStatus: 'SAFE',
    mintAuthority: null,
    freezeAuthority: null,
    isMutable: false,
    ownerBalance: null,
    pools,
    priceNative: 0.001,
    priceUsd: null,
    holdersCount: 10,
    priceHistory: [],
    whales: {},
    seenAt: T0,
    totalSupply: '1000000',
    holdersSeenAt: T0 - 1000,
    decimals: 0,
    deployer: DEV,
    createdAt: (T0 - 3_600_000) / 1000,
    ...extra,
  };
}

const pool = (poolAddress: string, protocol: string | null | undefined): PoolSnapshot => ({
  poolAddress,
  quoteReserves: '5000000000',
  peakQuoteReserves: '5000000000',
  ...(protocol === undefined ? {} : { protocol }),
});

describe('graduation', () => {
  it('a pool on another protocol than every pool before is one graduation, keyed by the pool', () => {
    const last = state([pool(POOL_A, 'pump')]);
    const next = state([pool(POOL_A, 'pump'), pool(POOL_B, 'raydium-amm')], { seenAt: T0 + 1000 });
    const found = detectGraduation(last, next);
    expect(found).toMatchObject([
      { kind: 'graduation', poolAddress: POOL_B, protocol: 'raydium-amm', launchProtocol: 'pump', quoteReserves: '5000000000' },
    ]);
    expect(detectGraduation(last, { ...next, seenAt: T0 + 9000 })[0]?.key).toBe(found[0]?.key);
    // After it, the pools are on two protocols: a third pool is no second graduation.
    expect(detectGraduation(next, state([...next.pools, pool('Pool3333333333333333333333333333333333333333', 'orca')]))).toEqual([]);
  });

  it('is not found from a protocol not shown, on either side, nor from a token’s first pools or its launch protocol again', () => {
    expect(detectGraduation(state([pool(POOL_A, '')]), state([pool(POOL_A, ''), pool(POOL_B, 'raydium-amm')]))).toEqual([]);
    expect(detectGraduation(state([pool(POOL_A, undefined)]), state([pool(POOL_A, undefined), pool(POOL_B, 'raydium-amm')]))).toEqual([]);
    expect(detectGraduation(state([pool(POOL_A, 'pump')]), state([pool(POOL_A, 'pump'), pool(POOL_B, null)]))).toEqual([]);
    expect(detectGraduation(state([]), state([pool(POOL_B, 'raydium-amm')]))).toEqual([]);
    expect(detectGraduation(state([pool(POOL_A, 'PUMP')]), state([pool(POOL_A, 'PUMP'), pool(POOL_B, 'pump')]))).toEqual([]);
  });
});

const record = (address: string, held: bigint, sold: bigint | null | undefined, tags?: string[]): HolderRecord => ({
  address,
  currentlyHoldingAmount: held,
  ...(sold === undefined ? {} : { totalSoldAmount: sold }),
  totalSoldETH: 12.5,
  ...(tags === undefined ? {} : { tags }),
});

describe('developer sold', () => {
  const update = (holder: HolderRecord) => ({ holder, snapshot: false, at: T0 });

  it('tells the highest line first reached, once, with the share, SOL and time since launch', () => {
    const last = state([], { devSoldLine: 0 });
    const found = detectDeveloperSold(last, update(record(DEV, 700n, 300n)));
    expect(found).toMatchObject([
      { kind: 'developer-sold', line: 25, soldPct: 30, solReceived: 12.5, launchedAt: (T0 - 3_600_000) / 1000 },
    ]);
    const after = snapshotWithHolder(last, record(DEV, 700n, 300n), T0);
    expect(after.devSoldLine).toBe(25);
    expect(detectDeveloperSold(after, update(record(DEV, 600n, 400n)))).toEqual([]);
    expect(detectDeveloperSold(after, update(record(DEV, 0n, 1000n)))).toMatchObject([{ line: 100 }]);
  });

  it('the deployer’s first record is its baseline; another wallet, or a record not showing what it sold, tells nothing', () => {
    const fresh = state([]);
    expect(detectDeveloperSold(fresh, update(record(DEV, 100n, 900n)))).toEqual([]);
    expect(snapshotWithHolder(fresh, record(DEV, 100n, 900n), T0).devSoldLine).toBe(50);
    const known = state([], { devSoldLine: 0 });
    expect(detectDeveloperSold(known, update(record(W1, 0n, 900n)))).toEqual([]);
    expect(detectDeveloperSold(known, update(record(DEV, 100n, undefined)))).toEqual([]);
    expect(detectDeveloperSold(known, update(record(DEV, 100n, null)))).toEqual([]);
    expect(detectDeveloperSold(state([], { devSoldLine: 0, deployer: null }), update(record(DEV, 100n, 900n)))).toEqual([]);
  });
});

describe('insiders selling', () => {
  /** Feeds records in order through snapshot and detector, as the watcher does; returns what was told. */
  function feed(
    start: TokenSnapshot,
    records: Array<[HolderRecord, number]>,
  ): { events: ReturnType<typeof detectInsidersSelling>; last: TokenSnapshot } {
    let last = start;
    const events: ReturnType<typeof detectInsidersSelling> = [];
    for (const [holder, at] of records) {
      events.push(...detectInsidersSelling(last, { holder, snapshot: false, at }));
      last = snapshotWithHolder(last, holder, at);
    }
    return { events, last };
  }

  it('a quarter of the tagged holders’ total gone within the hour is told once, naming the sellers', () => {
    const { events, last } = feed(state([]), [
      [record(W1, 600n, 0n, ['sniper']), T0],
      [record(W2, 400n, 0n, ['Bots']), T0],
      [record(DEV, 5000n, 0n, ['dev', 'insider']), T0],
      [record('Plain11111111111111111111111111111111111111', 9000n, 0n, ['whale']), T0],
      [record(W1, 400n, 200n, ['sniper']), T0 + 60_000],
      [record(W2, 300n, 100n), T0 + 120_000],
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'insiders-selling',
      sellerCount: 2,
      fromAmount: '1000',
      toAmount: '700',
      droppedPct: 30,
      supplyPct: 0.03,
    });
    expect(events[0]?.sellers.sort()).toEqual([W1, W2].sort());
    // The window starts again from 700: another 10% is no second alert.
    expect(feed(last, [[record(W1, 330n, 270n), T0 + 180_000]]).events).toEqual([]);
  });

  it('a drop slower than the window, or from holders whose tags are not shown, is not told', () => {
    expect(
      feed(state([]), [
        [record(W1, 1000n, 0n, ['sniper']), T0],
        [record(W1, 500n, 500n, ['sniper']), T0 + 2 * 3_600_000],
      ]).events,
    ).toEqual([]);
    expect(
      feed(state([]), [
        [record(W1, 1000n, 0n), T0],
        [record(W1, 100n, 900n), T0 + 60_000],
      ]).events,
    ).toEqual([]);
  });
});
