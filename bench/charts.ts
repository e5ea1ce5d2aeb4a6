/**
 * Pictures: how long the /chart candlestick picture takes from 500 candles to PNG bytes (drawn
 * and encoded; `chart_render_ms`, the median of 21 rounds after 3 warm-up rounds; goal ≤ 50 ms),
 * the same for ten thousand candles merged to fit, and a price-move picture for an alert.
 * 500 candles is more than the picture draws side by side (362), so they merge as a hostile or
 * generous answer would; the figure covers that work.
 */
import { performance } from 'node:perf_hooks';
import { renderCandleChart } from '../src/charts/candleChart';
import { renderMoveChart, type PricePoint } from '../src/charts/moveChart';
import type { Candle } from '../src/market/schemas';
import { recordResult } from './results';

const ROUNDS = 21;
const WARM_UP = 3;

export interface ChartBenchRow {
  what: string;
  figure: string;
}

/** A random walk of tiny prices, as a young token's candles look; seeded, so every run draws the same. */
function candles(count: number, intervalSecs: number): Candle[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const start = Math.floor(Date.parse('2025-03-01T00:00:00Z') / 1000);
  let price = 0.0000028;
  return Array.from({ length: count }, (_, i) => {
    const open = price;
    const close = open * (1 + (random() - 0.49) * 0.04);
    price = close;
    return {
      time: null,
      timestamp: (start + i * intervalSecs) * 1000,
      open,
      close,
      high: Math.max(open, close) * (1 + random() * 0.01),
      low: Math.min(open, close) * (1 - random() * 0.01),
      volume: 1e6 * random(),
    };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Median wall time of a round, and median CPU time of the process over it (drawing runs on the
 * main thread, PNG encoding on a pool thread; both count). On a shared machine the wall time
 * includes waiting for a core, which the CPU time shows apart.
 */
async function medianMs(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < WARM_UP; i += 1) await run();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await run();
    walls.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuBefore);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

function shown(ms: { wall: number; cpu: number }): string {
  return `${ms.wall.toFixed(1)} ms (CPU ${ms.cpu.toFixed(1)} ms)`;
}

export async function benchCharts(): Promise<ChartBenchRow[]> {
  const fiveHundred = candles(500, 900);
  let bytes = 0;
  const renderMs = await medianMs(async () => {
    bytes = (await renderCandleChart({ candles: fiveHundred, intervalSecs: 900, symbol: 'BONK', name: 'Bonk', rangeLabel: '7d' }))
      .byteLength;
  });
  recordResult('chart_render_ms', renderMs.wall, 'ms');
  // The same rounds in CPU time: what the picture costs apart from waiting for a busy machine's cores.
  recordResult('chart_render_cpu_ms', renderMs.cpu, 'ms');

  const tenThousand = candles(10_000, 60);
  const manyMs = await medianMs(() => renderCandleChart({ candles: tenThousand, intervalSecs: 60, symbol: 'BONK', rangeLabel: '7d' }));

  const points: PricePoint[] = fiveHundred.slice(0, 120).map((c) => [c.timestamp, c.close]);
  const moveMs = await medianMs(() => renderMoveChart(points, { symbol: 'BONK' }));

  return [
    { what: 'chart picture: 500 candles to PNG bytes (chart_render_ms)', figure: `${shown(renderMs)}, ${(bytes / 1024).toFixed(0)} KB` },
    { what: 'chart picture: 10,000 candles merged to fit, to PNG', figure: shown(manyMs) },
    { what: 'price-move picture (120 points) to PNG', figure: shown(moveMs) },
  ];
}
