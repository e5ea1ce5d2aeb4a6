/**
 * The live service's frames against the detectors: its token_updates frames leave the pools out
 * (`liquidityPools: {}`) while the pools keep trading, and its pools name the token as suspected
 * base on whichever side it sits. A pull is a fact (a token-data answer without the pool, or SOL
 * reserves that fall), never a pool missing from a frame; and an alert built from such a frame
 * still carries the last known pools and prices, with their age.
 */
import { describe, expect, it } from 'vitest';
import { alertCard } from '../../src/alerts/alertCard';
import { detectTokenChanges } from '../../src/alerts/detect';
import { detectLiquidity } from '../../src/alerts/kinds/liquidity';
import { snapshotOfToken } from '../../src/alerts/snapshot';
import { plainText, type Card } from '../../src/cards/card';
import { TokenSchema, type Token } from '../../src/market/schemas';
import type { TokenSnapshot } from '../../src/model/snapshot';
import { RECORDED_POOL, recordedTokenAnswer, recordedTokenFrame } from '../support/recordedStyle';

const T0 = Date.parse('2025-01-29T03:15:30.000Z');
const SECOND = 1_000;

const answer = (options: Parameters<typeof recordedTokenAnswer>[0] = {}): Token => TokenSchema.parse(recordedTokenAnswer(options));
const frame = (options: Parameters<typeof recordedTokenFrame>[0] = {}): Token => TokenSchema.parse(recordedTokenFrame(options));

function cardText(card: Card): string {
  return [card.title, ...card.fields.map((f) => `${f.name}: ${plainText(f.value)}`)].join('\n');
}

describe('the SOL side of a pool where SOL is token0 and the token is named suspected base', () => {
  it('the snapshot keeps the SOL reserves (59.64 SOL), not the token’s', () => {
    const snapshot = snapshotOfToken(answer(), null, T0);
    // The pool's protocol is kept too: a pool on another protocol is a graduation (docs/alerts.md).
    expect(snapshot.pools).toEqual([
      { poolAddress: RECORDED_POOL, quoteReserves: '59641293545', peakQuoteReserves: '59641293545', protocol: 'RAYDIUM' },
    ]);
    expect(snapshot.priceNative).toBe(0.00000020911685541634);
  });

  it('a liquidity alert of a drained pool says the SOL it held, in SOL', () => {
    const before = snapshotOfToken(answer(), null, T0);
    const after = snapshotOfToken(answer({ pool: { solReserves: '1000000000', tokenReserves: '9000000000000000' } }), before, T0 + SECOND);
    const events = detectLiquidity(before, after);
    expect(events).toHaveLength(1);
    const text = cardText(alertCard(events[0] as NonNullable<(typeof events)[0]>, null));
    expect(text).toContain('59.64 SOL → 1 SOL');
    expect(text).not.toContain('285K SOL');
  });
});

describe('pools left out of a stream frame', () => {
  function afterAnswer(): TokenSnapshot {
    return snapshotOfToken(answer(), null, T0);
  }

  it('are not shown: the frame keeps the last known pools and price, and raises no alert', () => {
    const rest = afterAnswer();
    const streamed = snapshotOfToken(frame(), rest, T0 + 5 * SECOND, null, 'stream');
    expect(streamed.pools).toBe(rest.pools);
    expect(streamed.priceNative).toBe(rest.priceNative);
    expect(detectTokenChanges(rest, streamed)).toEqual([]);
  });

  it('a missing map is not shown either', () => {
    const rest = afterAnswer();
    const raw = recordedTokenFrame();
    delete raw.liquidityPools;
    const streamed = snapshotOfToken(TokenSchema.parse(raw), rest, T0 + 5 * SECOND, null, 'stream');
    expect(streamed.pools).toBe(rest.pools);
  });

  it('no alert flaps: answers with the pool and frames without it, over and over, alert nothing', () => {
    let last = afterAnswer();
    const found = [];
    for (let step = 1; step <= 14; step++) {
      const next =
        step % 2 === 0
          ? snapshotOfToken(answer(), last, T0 + step * SECOND)
          : snapshotOfToken(frame(), last, T0 + step * SECOND, null, 'stream');
      found.push(...detectTokenChanges(last, next));
      last = next;
    }
    expect(found).toEqual([]);
  });

  it('a token-data answer without the pool is a pull, told once; the frames after it tell nothing more', () => {
    const rest = afterAnswer();
    const streamed = snapshotOfToken(frame(), rest, T0 + SECOND, null, 'stream');
    const confirmed = snapshotOfToken(frame(), streamed, T0 + 2 * SECOND, null, 'reconcile');
    const pulled = detectLiquidity(streamed, confirmed);
    expect(pulled).toHaveLength(1);
    expect(pulled[0]?.pools).toEqual([{ poolAddress: RECORDED_POOL, from: '59641293545', to: null, gone: true, dropPct: 100 }]);
    const later = snapshotOfToken(frame(), confirmed, T0 + 3 * SECOND, null, 'stream');
    const again = snapshotOfToken(frame(), later, T0 + 4 * SECOND, null, 'reconcile');
    expect([...detectTokenChanges(confirmed, later), ...detectTokenChanges(later, again)]).toEqual([]);
  });

  it('reserves that fall in a frame that shows the pool are a pull', () => {
    const rest = afterAnswer();
    const drained = snapshotOfToken(answer({ pool: { solReserves: '20000000000' } }), rest, T0 + SECOND, null, 'stream');
    expect(detectLiquidity(rest, drained)).toHaveLength(1);
  });

  it('an alert built from such a frame carries the last known price and liquidity, with their age', () => {
    const rest = afterAnswer();
    const streamed = snapshotOfToken(frame({ riskStatus: 'DANGER' }), rest, T0 + 5 * 60 * SECOND, 200, 'stream');
    const events = detectTokenChanges(rest, streamed);
    const risk = events.find((event) => event.kind === 'risk-status');
    expect(risk).toBeDefined();
    const text = cardText(alertCard(risk as NonNullable<typeof risk>, null));
    expect(text).not.toMatch(/Price: —/);
    expect(text).not.toMatch(/Liquidity: —/);
    expect(text).toMatch(/Liquidity: .*59\.64 SOL.*5m ago/);
    expect(text).toMatch(/Price: .*SOL.*5m ago/);
    expect(text).toMatch(/Market cap: .*SOL/);
  });

  it('says no age while the pools are fresh', () => {
    const rest = afterAnswer();
    const streamed = snapshotOfToken(frame({ riskStatus: 'DANGER' }), rest, T0 + 10 * SECOND, 200, 'stream');
    const risk = detectTokenChanges(rest, streamed).find((event) => event.kind === 'risk-status');
    const text = cardText(alertCard(risk as NonNullable<typeof risk>, null));
    expect(text).toMatch(/Liquidity: .*59\.64 SOL/);
    expect(text).not.toContain('ago');
  });
});
