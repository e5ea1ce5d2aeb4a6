import { describe, expect, it } from 'vitest';
import { marketMoves, movesFrom, MOVE_CANDLE_SECS } from '../../src/cards/marketMoves';
import type { Candle } from '../../src/market/schemas';

const NOW = Date.parse('2025-01-15T12:02:00Z');
const MIN = 60_000;
/** A 5-minute candle starting at `startIso`, with its open, close and volume. */
function candle(startIso: string, open: number, close: number, volume = 0): Candle {
  const timestamp = Date.parse(startIso);
  return { time: startIso, timestamp, open, high: Math.max(open, close), low: Math.min(open, close), close, volume };
}

function byLabel(moves: ReturnType<typeof marketMoves>, label: string) {
  const found = moves.changes.find((change) => change.label === label);
  if (!found) throw new Error(`no ${label}`);
  return found;
}

describe('price changes from 5-minute candles', () => {
  // The day: a candle before it (its start), then prices the test sets for each window's start.
  const candles = [
    candle('2025-01-14T11:55:00Z', 1.0, 2.0, 100), // ended 12:00 the day before, before the 24h window (12:02): its close starts the day
    candle('2025-01-15T05:55:00Z', 3.0, 4.0, 10), // ended 06:00, the newest before the 6h window (06:02)
    candle('2025-01-15T10:55:00Z', 4.5, 5.0, 20), // ended 11:00, the newest before the 1h window (11:02)
    candle('2025-01-15T11:50:00Z', 6.0, 8.0, 30), // ended 11:55, the newest before the 5m window (11:57)
    candle('2025-01-15T11:55:00Z', 9.0, 9.5, 40), // ended 12:00: inside the 5m window
    candle('2025-01-15T12:00:00Z', 9.5, 10.0, 50), // the candle under way: its close is the price now
  ];

  it('compares the newest close with the close of the newest candle that ended before each window began', () => {
    const moves = marketMoves(candles, NOW, Date.parse('2024-01-01T00:00:00Z') / 1000);
    expect(byLabel(moves, '5m')).toEqual({ label: '5m', kind: 'change', pct: 25 }); // 8 → 10
    expect(byLabel(moves, '1h')).toEqual({ label: '1h', kind: 'change', pct: 100 }); // 5 → 10
    expect(byLabel(moves, '6h')).toEqual({ label: '6h', kind: 'change', pct: 150 }); // 4 → 10
    expect(byLabel(moves, '24h')).toEqual({ label: '24h', kind: 'change', pct: 400 }); // 2 → 10
  });

  it('sums the volume of the candles that began within the day, in tokens and in SOL at each close', () => {
    const moves = marketMoves(candles, NOW, null);
    expect(moves.volume24h.tokens).toBe(10 + 20 + 30 + 40 + 50);
    expect(moves.volume24h.sol).toBeCloseTo(10 * 4 + 20 * 5 + 30 * 8 + 40 * 9.5 + 50 * 10, 9);
  });

  it('says the token is younger than a window instead of a change over time it did not exist', () => {
    const created = (NOW - (3 * 60 + 10) * MIN) / 1000; // 3h 10m old
    const moves = marketMoves(candles, NOW, created);
    expect(byLabel(moves, '1h').kind).toBe('change');
    expect(byLabel(moves, '6h')).toEqual({ label: '6h', kind: 'younger', ageSecs: (3 * 60 + 10) * 60 });
    expect(byLabel(moves, '24h')).toEqual({ label: '24h', kind: 'younger', ageSecs: (3 * 60 + 10) * 60 });
  });

  it('takes the first price inside a window when no candle ended before it, and nothing without candles', () => {
    const quiet = [candle('2025-01-15T11:20:00Z', 2.0, 3.0), candle('2025-01-15T11:45:00Z', 4.0, 6.0)];
    const moves = marketMoves(quiet, NOW, null);
    expect(byLabel(moves, '5m')).toEqual({ label: '5m', kind: 'change', pct: 0 }); // nothing traded since 11:50: 6 → 6
    expect(byLabel(moves, '1h')).toEqual({ label: '1h', kind: 'change', pct: 200 }); // first price in the hour, 2 → 6
    expect(marketMoves([], NOW, null).changes.every((change) => change.kind === 'unknown')).toBe(true);
    expect(marketMoves([], NOW, null).volume24h).toEqual({ tokens: 0, sol: 0 });
  });

  it('leaves out candles from the future and unreadable prices, in any order', () => {
    const mixed = [
      candle('2025-01-15T12:30:00Z', 50, 50, 1000),
      candle('2025-01-15T12:00:00Z', 9.5, 10.0, 5),
      candle('2025-01-15T11:00:00Z', 0, 0, 7),
      candle('2025-01-15T10:00:00Z', 4, 5, 1),
    ];
    const moves = marketMoves(mixed, NOW, null);
    expect(byLabel(moves, '1h')).toEqual({ label: '1h', kind: 'change', pct: 100 });
    expect(moves.volume24h.tokens).toBe(6);
  });

  it('asks from a 5-minute boundary a candle before the day, the same for five minutes', () => {
    const from = movesFrom(NOW);
    expect(from % MOVE_CANDLE_SECS).toBe(0);
    expect(from).toBe(Date.parse('2025-01-14T11:55:00Z') / 1000);
    expect(movesFrom(Date.parse('2025-01-15T12:04:59Z'))).toBe(from);
  });
});
