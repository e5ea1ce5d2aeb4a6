/**
 * The detectors, pure: each alert kind from a last-seen snapshot and new data, no alert on first
 * sight, the same change always the same key, a flip back and forth alerting at every flip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectTokenChanges } from '../../src/alerts/detect';
import { detectLiquidity } from '../../src/alerts/kinds/liquidity';
import { detectPriceMove } from '../../src/alerts/kinds/price';
import { detectRiskFlags } from '../../src/alerts/kinds/riskFlag';
import { detectRiskStatus } from '../../src/alerts/kinds/riskStatus';
import { detectWalletTrades } from '../../src/alerts/kinds/walletTrade';
import { detectWhale } from '../../src/alerts/kinds/whale';
import { PRICE_WINDOW_MS, snapshotOfToken, snapshotOfWallet, snapshotWithHolder } from '../../src/alerts/snapshot';
import { type TokenSnapshot } from '../../src/model/snapshot';
import { POOL_A, POOL_B, T1, W1, W2, makeToken, makeTrade, type TokenShape } from '../watch/support/fixtures';

const T0 = 1_800_000_000_000;

function snap(shape: TokenShape, previous: TokenSnapshot | null = null, at = T0): TokenSnapshot {
  return snapshotOfToken(makeToken(shape), previous, at);
}

describe('snapshotOfToken', () => {
  it('reads status, flags, pools, price and supply from a Token', () => {
    const s = snap({ riskStatus: 'WARNING', mintAuthority: W1, isMutable: true, ownerBalance: '42', price: 0.002 });
    expect(s).toMatchObject({
      address: T1,
      riskStatus: 'WARNING',
      mintAuthority: W1,
      freezeAuthority: null,
      isMutable: true,
      ownerBalance: '42',
      priceNative: 0.002,
      totalSupply: '1000000000000000',
      pools: [{ poolAddress: POOL_A, quoteReserves: '100000000000' }],
      priceHistory: [[T0, 0.002]],
      seenAt: T0,
    });
  });

  it('keeps one price a minute within the hour window, the first of each minute', () => {
    let s = snap({ price: 1 });
    s = snap({ price: 2 }, s, T0 + 10_000);
    s = snap({ price: 3 }, s, T0 + 20_000);
    expect(s.priceHistory).toEqual([
      [T0, 1],
      [T0 + 20_000, 3],
    ]);
    s = snap({ price: 4 }, s, T0 + PRICE_WINDOW_MS + 30_000);
    expect(s.priceHistory).toEqual([[T0 + PRICE_WINDOW_MS + 30_000, 4]]);
  });
});

describe('risk status', () => {
  it('no alert on first sight, one on a change, naming from, to and the flags with it', () => {
    const first = snap({ riskStatus: 'SAFE' });
    expect(detectTokenChanges(null, first)).toEqual([]);
    const next = snap({ riskStatus: 'DANGER', mintAuthority: W1 }, first, T0 + 1_000);
    const events = detectRiskStatus(first, next);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'risk-status',
      from: 'SAFE',
      to: 'DANGER',
      flags: [{ flag: 'mintAuthority', from: null, to: W1 }],
    });
    // The flag rides in the status alert, not in a second one.
    expect(detectRiskFlags(first, next)).toEqual([]);
  });

  it('carries every flag as it stands, so that a change with no flag changed names what makes it, and the market at the time', () => {
    const first = snap({ riskStatus: 'SAFE', mintAuthority: W1, isMutable: true, ownerBalance: '42', price: 0.002 });
    const next = snap({ riskStatus: 'DANGER', mintAuthority: W1, isMutable: true, ownerBalance: '42', price: 0.003 }, first, T0 + 60_000);
    const [event] = detectRiskStatus(first, next);
    expect(event?.flags).toEqual([]);
    expect(event?.flagsNow).toEqual([
      { flag: 'mintAuthority', value: W1 },
      { flag: 'freezeAuthority', value: null },
      { flag: 'mutable', value: 'true' },
      { flag: 'ownerBalance', value: '42' },
    ]);
    // 1,000,000,000 tokens (6 decimals) at 0.003 SOL, 100 SOL in the one pool, up 50% over the minute kept.
    expect(event?.token.market).toEqual({
      priceNative: 0.003,
      priceUsd: null,
      changePct: 50,
      changeSecs: 60,
      marketCapSol: 3_000_000,
      liquiditySol: 100,
    });
  });

  it('ignores case and an unread status', () => {
    const first = snap({ riskStatus: 'safe' });
    expect(detectRiskStatus(first, snap({ riskStatus: 'SAFE' }, first, T0 + 1))).toEqual([]);
    expect(detectRiskStatus(first, snap({ riskStatus: null }, first, T0 + 1))).toEqual([]);
  });

  it('a flip back and forth alerts at every flip, each with its own key', () => {
    const a = snap({ riskStatus: 'SAFE' });
    const b = snap({ riskStatus: 'DANGER' }, a, T0 + 1_000);
    const c = snap({ riskStatus: 'SAFE' }, b, T0 + 2_000);
    const d = snap({ riskStatus: 'DANGER' }, c, T0 + 3_000);
    const keys = [detectRiskStatus(a, b), detectRiskStatus(b, c), detectRiskStatus(c, d)].map((events) => events[0]?.key);
    expect(new Set(keys).size).toBe(3);
  });

  it('the same change seen twice (stream, then reconciliation) has the same key', () => {
    const last = snap({ riskStatus: 'SAFE' });
    const viaStream = detectRiskStatus(last, snap({ riskStatus: 'WARNING' }, last, T0 + 1_000));
    const viaRest = detectRiskStatus(last, snap({ riskStatus: 'WARNING' }, last, T0 + 45_000));
    expect(viaStream[0]?.key).toBe(viaRest[0]?.key);
  });
});

describe('risk flags', () => {
  it('mint and freeze authority set and cleared, metadata made mutable', () => {
    const a = snap({});
    const b = snap({ mintAuthority: W1, freezeAuthority: W2, isMutable: true }, a, T0 + 1);
    expect(detectRiskFlags(a, b)[0]?.changes).toEqual([
      { flag: 'mintAuthority', from: null, to: W1 },
      { flag: 'freezeAuthority', from: null, to: W2 },
      { flag: 'mutable', from: 'false', to: 'true' },
    ]);
    const c = snap({ freezeAuthority: W2, isMutable: true }, b, T0 + 2);
    expect(detectRiskFlags(b, c)[0]?.changes).toEqual([{ flag: 'mintAuthority', from: W1, to: null }]);
  });

  it('owner balance: a jump of 1% of supply alerts, a nudge does not', () => {
    const a = snap({ ownerBalance: '1000' });
    expect(detectRiskFlags(a, snap({ ownerBalance: '2000' }, a, T0 + 1))).toEqual([]);
    const jump = detectRiskFlags(a, snap({ ownerBalance: '20000000000000' }, a, T0 + 1));
    expect(jump[0]?.changes).toEqual([{ flag: 'ownerBalance', from: '1000', to: '20000000000000' }]);
  });
});

describe('liquidity', () => {
  it('a pool gone or drained by 30% alerts; smaller drops do not', () => {
    const a = snap({ pools: { [POOL_A]: '100000000000', [POOL_B]: '50000000000' } });
    expect(detectLiquidity(a, snap({ pools: { [POOL_A]: '80000000000', [POOL_B]: '50000000000' } }, a, T0 + 1))).toEqual([]);
    const gone = detectLiquidity(a, snap({ pools: { [POOL_A]: '100000000000' } }, a, T0 + 1));
    expect(gone[0]?.pools).toEqual([{ poolAddress: POOL_B, from: '50000000000', to: null, gone: true, dropPct: 100 }]);
    const pulled = detectLiquidity(a, snap({ pools: { [POOL_A]: '0', [POOL_B]: '50000000000' } }, a, T0 + 1));
    expect(pulled[0]?.pools[0]).toMatchObject({ poolAddress: POOL_A, gone: false, dropPct: 100 });
  });

  it('a pool drained in small steps alerts once the total passes 30%, then needs another 30%', () => {
    let s = snap({ pools: { [POOL_A]: '100' } });
    const alerts: number[] = [];
    for (const [step, quote] of ['90', '80', '72', '65', '60', '50', '45'].entries()) {
      const next = snap({ pools: { [POOL_A]: quote } }, s, T0 + step + 1);
      const found = detectLiquidity(s, next);
      if (found.length > 0) alerts.push(Number(quote));
      s = next;
    }
    // 100 → 65 is the first 30% drop; the peak resets to 65, and 45 is 30.8% under it.
    expect(alerts).toEqual([65, 45]);
  });
});

describe('price move', () => {
  it('emits as a move grows past 1% against the start of the window, with the change before', () => {
    const a = snap({ price: 1 });
    const b = snap({ price: 1.005 }, a, T0 + 1_000);
    expect(detectPriceMove(a, b)).toEqual([]);
    const c = snap({ price: 1.12 }, b, T0 + 2_000);
    const [event] = detectPriceMove(b, c);
    expect(event).toMatchObject({ kind: 'price', from: 1, to: 1.12 });
    expect(event?.changePct).toBeCloseTo(12);
    expect(event?.previousChangePct).toBeCloseTo(0.5);
    // Falling back toward the start is no new event.
    expect(detectPriceMove(c, snap({ price: 1.1 }, c, T0 + 3_000))).toEqual([]);
  });

  it('a fall is a move too', () => {
    const a = snap({ price: 1 });
    const [event] = detectPriceMove(a, snap({ price: 0.7 }, a, T0 + 60_000));
    expect(event?.changePct).toBeCloseTo(-30);
  });
});

describe('wallet trades', () => {
  const S = T0 / 1000;
  const old = makeTrade({ hash: 'h-old', timestamp: S - 100 });
  it('first sight is the baseline; newer trades alert once each, oldest first', () => {
    const base = snapshotOfWallet(W1, null, [old], T0);
    expect(detectWalletTrades(null, W1, [old], T0)).toEqual([]);
    const newer = [makeTrade({ hash: 'h2', timestamp: S + 2, side: 'sell', usd: 5 }), makeTrade({ hash: 'h1', timestamp: S + 1 })];
    const events = detectWalletTrades(base, W1, [old, ...newer], T0);
    expect(events.map((event) => [event.transactionHash, event.side])).toEqual([
      ['h1', 'buy'],
      ['h2', 'sell'],
    ]);
    expect(events[0]).toMatchObject({ wallet: W1, token: { address: T1 }, nativeAmount: '1000000000', amountUsd: 150.5 });
    const after = snapshotOfWallet(W1, base, newer, T0 + 1);
    expect(after.newestTimestamp).toBe(S + 2);
    expect(detectWalletTrades(after, W1, [old, ...newer], T0 + 2)).toEqual([]);
  });

  it('trades of the same second are told apart by id', () => {
    const a = makeTrade({ hash: 'ha', timestamp: S });
    const base = snapshotOfWallet(W1, null, [a], T0);
    const b = makeTrade({ hash: 'hb', timestamp: S });
    expect(detectWalletTrades(base, W1, [a, b], T0 + 1).map((event) => event.transactionHash)).toEqual(['hb']);
    const after = snapshotOfWallet(W1, base, [a, b], T0 + 1);
    expect(detectWalletTrades(after, W1, [a, b], T0 + 2)).toEqual([]);
  });

  it('a trade dated long before the last look is not news, though no snapshot had it', () => {
    const base = snapshotOfWallet(W1, null, [makeTrade({ hash: 'h-new', timestamp: S - 60 })], T0);
    const hoursOld = makeTrade({ hash: 'h-hours', timestamp: S - 3 * 3600 });
    expect(detectWalletTrades(base, W1, [hoursOld], T0 + 1)).toEqual([]);
  });
});

describe('whale', () => {
  it('crossing 1% of supply in and out alerts; below it nothing', () => {
    let s = snap({ totalSupply: '1000000' });
    s = snapshotWithHolder(s, { address: W2, currentlyHoldingAmount: 5n }, T0);
    expect(detectWhale(s, { holder: { address: W1, currentlyHoldingAmount: 9_999n }, snapshot: false, at: T0 })).toEqual([]);
    const [into] = detectWhale(s, { holder: { address: W1, currentlyHoldingAmount: 20_000n }, snapshot: false, at: T0 });
    expect(into).toMatchObject({ kind: 'whale', wallet: W1, direction: 'in', fromPct: null, toPct: 2 });
    s = snapshotWithHolder(s, { address: W1, currentlyHoldingAmount: 20_000n }, T0 + 1);
    const [out] = detectWhale(s, { holder: { address: W1, currentlyHoldingAmount: 0n }, snapshot: false, at: T0 + 2 });
    expect(out).toMatchObject({ direction: 'out', fromPct: 2, toPct: 0 });
  });

  it('before holders were ever read, a snapshot frame is a baseline', () => {
    const s = snap({ totalSupply: '1000000' });
    expect(detectWhale(s, { holder: { address: W1, currentlyHoldingAmount: 500_000n }, snapshot: true, at: T0 })).toEqual([]);
  });
});

describe('the token on an event', () => {
  it('carries the status, supply and decimals of the snapshot it was seen in, for the card to colour and share by', () => {
    // A rise on a DANGER token: the event must say DANGER, or its card would have to guess.
    const a = snap({ riskStatus: 'DANGER', price: 1, ownerBalance: '0' });
    const b = snap({ riskStatus: 'DANGER', price: 1.5, ownerBalance: '50000000000000' }, a, T0 + 60_000);
    const events = detectTokenChanges(a, b);
    expect(events.map((event) => event.kind).sort()).toEqual(['price', 'risk-flag']);
    for (const event of events)
      expect(event.token).toMatchObject({ riskStatus: 'DANGER', totalSupply: '1000000000000000', decimals: b.decimals });
    let s = snapshotWithHolder(snap({ riskStatus: 'WARNING', totalSupply: '1000000' }), { address: W2, currentlyHoldingAmount: 5n }, T0);
    s = { ...s, holdersSeenAt: T0 };
    const [whale] = detectWhale(s, { holder: { address: W1, currentlyHoldingAmount: 20_000n }, snapshot: false, at: T0 + 1 });
    expect(whale?.token.riskStatus).toBe('WARNING');
  });
});

describe('properties', () => {
  const shape = fc.record({
    riskStatus: fc.constantFrom('SAFE', 'WARNING', 'DANGER', null),
    mintAuthority: fc.constantFrom(null, W1, W2),
    freezeAuthority: fc.constantFrom(null, W1),
    isMutable: fc.boolean(),
    ownerBalance: fc.bigInt({ min: 0n, max: 10n ** 15n }).map(String),
    price: fc.double({ min: 1e-9, max: 1e3, noNaN: true }),
    pools: fc.dictionary(fc.constantFrom(POOL_A, POOL_B), fc.bigInt({ min: 0n, max: 10n ** 13n }).map(String), { minKeys: 0, maxKeys: 2 }),
  });

  it('no alert on first sight; no alert when nothing changed', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const first = snap(s);
        expect(detectTokenChanges(null, first)).toEqual([]);
        expect(detectTokenChanges(first, snap(s, first, T0 + 1_000))).toEqual([]);
      }),
    );
  });

  it('the same two states always give the same events and keys, whenever compared', () => {
    fc.assert(
      fc.property(shape, shape, fc.integer({ min: 1, max: 3_000_000 }), (a, b, later) => {
        const last = snap(a);
        const once = detectTokenChanges(last, snap(b, last, T0 + 1_000));
        const again = detectTokenChanges(last, snap(b, last, T0 + 1_000));
        expect(again).toEqual(once);
        // Seen later (a reconciliation): the same risk and liquidity keys.
        const late = detectTokenChanges(last, snap(b, last, T0 + 1_000 + later)).filter((event) => event.kind !== 'price');
        expect(late.map((event) => event.key)).toEqual(once.filter((event) => event.kind !== 'price').map((event) => event.key));
        for (const event of once) expect(event.key.length).toBeLessThanOrEqual(200);
      }),
    );
  });
});
