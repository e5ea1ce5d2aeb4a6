/**
 * The candlestick picture of /chart: 1200 × 675 PNG (fills a Discord embed and a Telegram photo),
 * dark background, drawn by hand on @napi-rs/canvas's 2D context and encoded by it.
 *
 *   ┌ title: SYMBOL · interval · range   change ──────────────────────────────┐
 *   │ subtitle: name · prices in SOL · candles · UTC                           │
 *   │ price pane: candles (up green, down red), round price ticks    │ price  │
 *   │ dashed line at the last close ─────────────────────────────────│[label] │
 *   │ volume pane: bars in the candle colours                        │        │
 *   │ time axis: UTC ticks in the range's units                      │  UTC   │
 *   └ note (when given): what the picture had to change ───────────────────────┘
 *
 * Bars sit at their time, so gaps between candles stay gaps. The picture holds at most
 * CHART_MAX_BARS bars; more candles merge into wider bars (see bars.ts). Zero candles draw an
 * empty frame that says so (the /chart card sends no picture then; this is for other callers).
 * Flat prices get a band around the price, so no scale divides by zero.
 *
 * Encoding runs on libuv's thread pool (canvas.encode), so the event loop is not held while the
 * PNG is compressed.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { duration, percent, price } from '../text/format';
import type { Candle } from '../market/schemas';
import { barsFor, type Bar, type BarSeries } from './bars';
import { chartFont, ensureChartFonts } from './fonts';
import { priceLabels } from './priceLabel';
import { paddedPriceSpan, priceTicks, timeLabel, timeTicks } from './scale';
import { fitText, pictureText } from './text';
import { CHART_COLORS } from './theme';

export const CHART_WIDTH = 1200;
export const CHART_HEIGHT = 675;

/** Where each part of the picture lies, in pixels. */
export const CHART_LAYOUT = {
  plotLeft: 14,
  plotRight: 1100,
  titleBaseline: 34,
  subtitleBaseline: 60,
  priceTop: 80,
  priceBottom: 520,
  volumeTop: 530,
  volumeBottom: 618,
  timeBaseline: 640,
  noteBaseline: 664,
} as const;

/** Narrowest slot a bar gets: a 2-pixel body and a 1-pixel gap. */
export const MIN_SLOT_PX = 3;
/** Most bars side by side: 362, so six hours of one-minute candles (361 slots) fit unmerged. */
export const CHART_MAX_BARS = Math.floor((CHART_LAYOUT.plotRight - CHART_LAYOUT.plotLeft) / MIN_SLOT_PX);

export interface CandleChartInput {
  /** Candles in any order; those outside [fromSecs, toSecs] are not drawn. */
  candles: readonly Candle[];
  /** Width of one candle, seconds. */
  intervalSecs: number;
  /** The range, Unix seconds; from the candles when not given. */
  fromSecs?: number;
  toSecs?: number;
  /** Token symbol and name: untrusted, cleaned here. */
  symbol: string;
  name?: string;
  /** The range as the reader asked for it, such as "24h". */
  rangeLabel: string;
  /** Unit of the prices, "SOL" unless given. */
  quote?: string;
  /** One line under the picture, such as why the interval differs from the one asked for. */
  note?: string;
}

export interface CandleChartGeometry {
  series: BarSeries;
  /** Lowest and highest price of the price pane. */
  minPrice: number;
  maxPrice: number;
  maxVolume: number;
  /** Left edge and width in pixels of a bar's slot. */
  slotX(bar: Bar): number;
  slotWidth: number;
  priceY(value: number): number;
}

/** The scales of a picture, without drawing it: used to draw, and by tests to find the candles. */
export function candleChartGeometry(input: CandleChartInput): CandleChartGeometry {
  const series = barsFor(input.candles, {
    fromSecs: input.fromSecs,
    toSecs: input.toSecs,
    intervalSecs: input.intervalSecs,
    maxBars: CHART_MAX_BARS,
  });
  let low = Infinity;
  let high = -Infinity;
  let maxVolume = 0;
  for (const bar of series.bars) {
    low = Math.min(low, bar.low);
    high = Math.max(high, bar.high);
    maxVolume = Math.max(maxVolume, bar.volume);
  }
  const [minPrice, maxPrice] = series.bars.length === 0 ? [0, 1] : paddedPriceSpan(low, high);
  const { plotLeft, plotRight, priceTop, priceBottom } = CHART_LAYOUT;
  const spanSecs = Math.max(1, series.toSecs - series.fromSecs);
  const pxPerSec = (plotRight - plotLeft) / spanSecs;
  return {
    series,
    minPrice,
    maxPrice,
    maxVolume,
    slotWidth: series.slotSecs * pxPerSec,
    slotX: (bar) => plotLeft + (bar.startMs / 1000 - series.fromSecs) * pxPerSec,
    priceY: (value) => priceBottom - ((value - minPrice) / (maxPrice - minPrice)) * (priceBottom - priceTop),
  };
}

function colorOf(bar: Bar): string {
  return bar.close >= bar.open ? CHART_COLORS.up : CHART_COLORS.down;
}

function drawGrid(ctx: SKRSContext2D, geometry: CandleChartGeometry, lastY: number | null): void {
  const { plotLeft, plotRight, priceTop, priceBottom, volumeBottom, timeBaseline } = CHART_LAYOUT;
  const ticks = priceTicks(geometry.minPrice, geometry.maxPrice, 8);
  const labels = priceLabels(ticks.values, ticks.step);
  ctx.font = chartFont(12);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ticks.values.forEach((value, i) => {
    const y = Math.round(geometry.priceY(value)) + 0.5;
    if (y < priceTop || y > priceBottom) return;
    ctx.strokeStyle = CHART_COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(plotLeft, y);
    ctx.lineTo(plotRight, y);
    ctx.stroke();
    // The last-price label takes precedence over a tick label it would cover.
    if (lastY !== null && Math.abs(lastY - y) < 14) return;
    ctx.fillStyle = CHART_COLORS.axisText;
    ctx.fillText(labels[i] ?? '', plotRight + 8, y);
  });

  const { series } = geometry;
  const time = timeTicks(series.fromSecs, series.toSecs, 10);
  const pxPerSec = (plotRight - plotLeft) / Math.max(1, series.toSecs - series.fromSecs);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  let lastRight = -Infinity;
  for (const t of time.values) {
    const x = Math.round(plotLeft + (t - series.fromSecs) * pxPerSec) + 0.5;
    ctx.strokeStyle = CHART_COLORS.grid;
    ctx.beginPath();
    ctx.moveTo(x, priceTop);
    ctx.lineTo(x, volumeBottom);
    ctx.stroke();
    const label = timeLabel(t, time.stepSecs);
    const half = ctx.measureText(label).width / 2;
    // A label that would leave the picture on the left or reach the "UTC" on the right is left out.
    if (x - half < Math.max(2, lastRight + 8) || x + half > plotRight + 4) continue;
    ctx.fillStyle = CHART_COLORS.axisText;
    ctx.fillText(label, x, timeBaseline);
    lastRight = x + half;
  }
  ctx.textAlign = 'left';
  ctx.fillText('UTC', plotRight + 8, timeBaseline);
}

function drawBars(ctx: SKRSContext2D, geometry: CandleChartGeometry): void {
  const { volumeTop, volumeBottom } = CHART_LAYOUT;
  const slot = geometry.slotWidth;
  // Bodies fill 70% of a slot, at least 1 pixel; odd widths keep the wick centred on a pixel.
  const body = Math.max(1, Math.min(40, Math.round(slot * 0.7)));
  for (const bar of geometry.series.bars) {
    const color = colorOf(bar);
    const left = Math.round(geometry.slotX(bar) + (slot - body) / 2);
    const wickX = left + Math.floor(body / 2);
    const highY = Math.round(geometry.priceY(bar.high));
    const lowY = Math.round(geometry.priceY(bar.low));
    const openY = geometry.priceY(bar.open);
    const closeY = geometry.priceY(bar.close);
    ctx.fillStyle = color;
    ctx.fillRect(wickX, highY, 1, Math.max(1, lowY - highY));
    const top = Math.round(Math.min(openY, closeY));
    const height = Math.max(1, Math.round(Math.abs(openY - closeY)));
    ctx.fillRect(left, top, body, height);

    if (geometry.maxVolume > 0 && bar.volume > 0) {
      const h = Math.max(1, Math.round((bar.volume / geometry.maxVolume) * (volumeBottom - volumeTop)));
      ctx.globalAlpha = CHART_COLORS.volumeAlpha;
      ctx.fillRect(left, volumeBottom - h, body, h);
      ctx.globalAlpha = 1;
    }
  }
}

function drawLastPrice(ctx: SKRSContext2D, geometry: CandleChartGeometry, last: Bar): void {
  const { plotLeft, plotRight } = CHART_LAYOUT;
  const y = Math.round(geometry.priceY(last.close)) + 0.5;
  const color = colorOf(last);
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(plotLeft, y);
  ctx.lineTo(plotRight, y);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.font = chartFont(12, 'bold');
  const label = price(last.close);
  const width = Math.min(CHART_WIDTH - plotRight - 2, ctx.measureText(label).width + 12);
  ctx.fillStyle = color;
  ctx.fillRect(plotRight + 2, y - 10, width, 20);
  ctx.fillStyle = CHART_COLORS.lastPriceText;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillText(fitText(ctx, label, width - 8), plotRight + 8, y + 1);
}

function drawTitle(ctx: SKRSContext2D, input: CandleChartInput, geometry: CandleChartGeometry): void {
  const { plotLeft, titleBaseline, subtitleBaseline } = CHART_LAYOUT;
  const { bars, slotSecs, candleCount } = geometry.series;
  const first = bars[0];
  const last = bars[bars.length - 1];
  const merged = slotSecs !== input.intervalSecs;
  const interval = merged ? `${duration(slotSecs)} (merged ${duration(input.intervalSecs)})` : duration(input.intervalSecs);
  const symbol = pictureText(input.symbol, '?');
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';

  let change = '';
  let changeColor: string = CHART_COLORS.subtitle;
  if (first !== undefined && last !== undefined && first.open > 0) {
    const pct = ((last.close - first.open) / first.open) * 100;
    change = percent(pct, { signed: true });
    changeColor = pct >= 0 ? CHART_COLORS.up : CHART_COLORS.down;
  }
  ctx.font = chartFont(22, 'bold');
  const tail = ` · ${interval} · ${pictureText(input.rangeLabel)}`;
  const changeWidth = change === '' ? 0 : ctx.measureText(`   ${change}`).width;
  const maxTitle = CHART_WIDTH - plotLeft * 2 - changeWidth;
  const symbolRoom = Math.max(40, maxTitle - ctx.measureText(tail).width);
  const title = fitText(ctx, `${fitText(ctx, symbol, symbolRoom)}${tail}`, maxTitle);
  ctx.fillStyle = CHART_COLORS.title;
  ctx.fillText(title, plotLeft, titleBaseline);
  if (change !== '') {
    ctx.fillStyle = changeColor;
    ctx.fillText(`   ${change}`, plotLeft + ctx.measureText(title).width, titleBaseline);
  }

  ctx.font = chartFont(14);
  const quote = pictureText(input.quote ?? 'SOL', 'SOL');
  const parts = [
    input.name === undefined ? '' : pictureText(input.name),
    `price in ${quote} per ${symbol}`,
    `${candleCount} candle${candleCount === 1 ? '' : 's'}`,
    'UTC',
  ].filter((part) => part !== '');
  ctx.fillStyle = CHART_COLORS.subtitle;
  ctx.fillText(fitText(ctx, parts.join(' · '), CHART_WIDTH - plotLeft * 2), plotLeft, subtitleBaseline);
}

function drawEmpty(ctx: SKRSContext2D): void {
  const { plotLeft, plotRight, priceTop, priceBottom } = CHART_LAYOUT;
  ctx.font = chartFont(18);
  ctx.fillStyle = CHART_COLORS.subtitle;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('No candles in this range', (plotLeft + plotRight) / 2, (priceTop + priceBottom) / 2);
}

/** Draws the picture on a fresh canvas; returns the canvas, for callers that encode themselves. */
export function drawCandleChart(input: CandleChartInput): Canvas {
  ensureChartFonts();
  const canvas = createCanvas(CHART_WIDTH, CHART_HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = CHART_COLORS.background;
  ctx.fillRect(0, 0, CHART_WIDTH, CHART_HEIGHT);
  const geometry = candleChartGeometry(input);
  const last = geometry.series.bars[geometry.series.bars.length - 1];
  const lastY = last === undefined ? null : Math.round(geometry.priceY(last.close)) + 0.5;
  drawGrid(ctx, geometry, lastY);
  if (last === undefined) drawEmpty(ctx);
  else {
    drawBars(ctx, geometry);
    drawLastPrice(ctx, geometry, last);
  }
  drawTitle(ctx, input, geometry);
  if (input.note !== undefined && input.note !== '') {
    ctx.font = chartFont(13);
    ctx.fillStyle = CHART_COLORS.subtitle;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(
      fitText(ctx, pictureText(input.note), CHART_WIDTH - CHART_LAYOUT.plotLeft * 2),
      CHART_LAYOUT.plotLeft,
      CHART_LAYOUT.noteBaseline,
    );
  }
  return canvas;
}

/** The candlestick picture as PNG bytes. */
export async function renderCandleChart(input: CandleChartInput): Promise<Uint8Array> {
  const png = await drawCandleChart(input).encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
