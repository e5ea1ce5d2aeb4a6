/**
 * A small picture of a price move, for price-move alerts: a line of the price over time, in the
 * up colour when the move ended at or above where it started and the down colour otherwise, with
 * the area under it shaded, a dashed line at the reference price, a dot and label at the last
 * price, and a title with the symbol, the change and how long the move took.
 *
 *   import { renderMoveChart } from '../charts/moveChart';
 *   const png: Uint8Array = await renderMoveChart(
 *     [[Date.parse('2025-01-01T12:00Z'), 0.0000021], [Date.parse('2025-01-01T12:15Z'), 0.0000027]],
 *     { symbol: 'BONK', quote: 'SOL', basePrice: 0.0000021 },
 *   );
 *   card.image = { filename: 'move.png', contentType: 'image/png', data: png };
 *
 * Points are [Unix milliseconds, price], in any order; points that are not finite, or have a
 * negative price, are left out. 600 × 300 unless sized otherwise (200–2000 × 120–1200). Zero
 * points draw an empty frame that says so; one point or flat prices draw a level line (no scale
 * divides by zero); thousands of points draw as one path. The same bundled font and colours as
 * the candlestick picture; PNG encoding runs off the event loop.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { changeWindow, percent, price } from '../text/format';
import { chartFont, ensureChartFonts } from './fonts';
import { priceLabels } from './priceLabel';
import { paddedPriceSpan, priceTicks, timeLabel } from './scale';
import { fitText, pictureText } from './text';
import { CHART_COLORS, rgbOf } from './theme';

export type PricePoint = readonly [epochMs: number, price: number];

export interface MoveChartOptions {
  /** Token symbol for the title (untrusted; cleaned here). */
  symbol?: string;
  /** Unit of the prices, shown after the last price ("SOL" unless given). */
  quote?: string;
  /** The price the move is measured from, drawn as a dashed line; the first point's when not given. */
  basePrice?: number;
  /**
   * The change and the window the alert card states: the title says them as the card does. Without
   * it the title reads the change from the points, over their span.
   */
  change?: { pct: number; windowSecs: number };
  width?: number;
  height?: number;
}

export const MOVE_CHART_WIDTH = 600;
export const MOVE_CHART_HEIGHT = 300;

function clampSize(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.round(Math.min(max, Math.max(min, value)));
}

/** Readable points, oldest first. */
export function movePoints(points: ReadonlyArray<PricePoint>): Array<[number, number]> {
  return points
    .filter(([t, p]) => Number.isFinite(t) && Number.isFinite(p) && p >= 0)
    .map(([t, p]): [number, number] => [t, p])
    .sort((a, b) => a[0] - b[0]);
}

/** The plot area and the scales that place a point in it, shared by every drawing step. */
interface MovePlot {
  ctx: SKRSContext2D;
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Readable points, oldest first; never empty. */
  data: Array<[number, number]>;
  first: [number, number];
  last: [number, number];
  /** The reference price the move is measured from. */
  base: number;
  /** The up or the down colour, by where the move ended against the reference. */
  color: string;
  minPrice: number;
  maxPrice: number;
  spanMs: number;
  x: (t: number) => number;
  y: (p: number) => number;
}

/** The move picture as PNG bytes. */
export async function renderMoveChart(points: ReadonlyArray<PricePoint>, options: MoveChartOptions = {}): Promise<Uint8Array> {
  ensureChartFonts();
  const width = clampSize(options.width, MOVE_CHART_WIDTH, 200, 2000);
  const height = clampSize(options.height, MOVE_CHART_HEIGHT, 120, 1200);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = CHART_COLORS.background;
  ctx.fillRect(0, 0, width, height);

  const data = movePoints(points);
  const symbol = pictureText(options.symbol, '');
  const quote = pictureText(options.quote ?? 'SOL', 'SOL');
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const plot = movePlot(ctx, width, height, data, options.basePrice);
  if (plot === null) {
    drawNoPrices(ctx, width, height, symbol);
    return encode(canvas);
  }
  const lastY = plot.y(plot.last[1]);
  drawGrid(plot, lastY);
  drawReference(plot);
  drawMoveLine(plot, lastY);
  drawLastPrice(plot, lastY);
  drawTitle(plot, symbol, quote, options.change);
  drawTimes(plot);
  return encode(canvas);
}

/** The plot's geometry and scales, or null when no point is left to draw. */
function movePlot(
  ctx: SKRSContext2D,
  width: number,
  height: number,
  data: Array<[number, number]>,
  basePrice: number | undefined,
): MovePlot | null {
  const first = data[0];
  const last = data[data.length - 1];
  if (first === undefined || last === undefined) return null;
  const left = 12;
  const right = width - 84;
  const top = 46;
  const bottom = height - 28;
  const base = basePrice !== undefined && Number.isFinite(basePrice) && basePrice >= 0 ? basePrice : first[1];
  const color = last[1] >= base ? CHART_COLORS.up : CHART_COLORS.down;
  // The reference is in the scale too, so its dashed line is always inside the frame.
  let low = base;
  let high = base;
  for (const [, p] of data) {
    low = Math.min(low, p);
    high = Math.max(high, p);
  }
  const [minPrice, maxPrice] = paddedPriceSpan(low, high, 0.1);
  const startMs = first[0];
  const spanMs = Math.max(1, last[0] - first[0]);
  // One point stands at the right edge: its level line runs from the left edge to it.
  const x = (t: number) => (data.length === 1 ? right : left + ((t - startMs) / spanMs) * (right - left));
  const y = (p: number) => bottom - ((p - minPrice) / (maxPrice - minPrice)) * (bottom - top);
  return { ctx, width, height, left, right, top, bottom, data, first, last, base, color, minPrice, maxPrice, spanMs, x, y };
}

/** An empty frame that says so: the symbol as the title and a line in the middle. */
function drawNoPrices(ctx: SKRSContext2D, width: number, height: number, symbol: string): void {
  const left = 12;
  const top = 46;
  const bottom = height - 28;
  ctx.font = chartFont(16, 'bold');
  ctx.fillStyle = CHART_COLORS.title;
  ctx.fillText(fitText(ctx, symbol, width - 2 * left), left, 28);
  ctx.font = chartFont(14);
  ctx.fillStyle = CHART_COLORS.subtitle;
  ctx.textAlign = 'center';
  ctx.fillText('No prices to draw', width / 2, (top + bottom) / 2);
}

/** Grid lines and their price labels; a label that would sit under the last price's is left out. */
function drawGrid({ ctx, left, right, minPrice, maxPrice, y }: MovePlot, lastY: number): void {
  const ticks = priceTicks(minPrice, maxPrice, 4);
  const labels = priceLabels(ticks.values, ticks.step);
  ctx.font = chartFont(11);
  ctx.textBaseline = 'middle';
  ticks.values.forEach((value, i) => {
    const ty = Math.round(y(value)) + 0.5;
    ctx.strokeStyle = CHART_COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(left, ty);
    ctx.lineTo(right, ty);
    ctx.stroke();
    if (Math.abs(ty - lastY) < 13) return;
    ctx.fillStyle = CHART_COLORS.axisText;
    ctx.fillText(labels[i] ?? '', right + 6, ty);
  });
}

/** The dashed line at the reference price. */
function drawReference({ ctx, left, right, base, y }: MovePlot): void {
  ctx.strokeStyle = CHART_COLORS.axisText;
  ctx.setLineDash([3, 4]);
  ctx.beginPath();
  ctx.moveTo(left, Math.round(y(base)) + 0.5);
  ctx.lineTo(right, Math.round(y(base)) + 0.5);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** The shaded area, then the line over it, then the dot at the last price. */
function drawMoveLine({ ctx, top, bottom, left, data, first, last, color, x, y }: MovePlot, lastY: number): void {
  const [r, g, b] = rgbOf(color);
  const gradient = ctx.createLinearGradient(0, top, 0, bottom);
  gradient.addColorStop(0, `rgba(${r}, ${g}, ${b}, 0.35)`);
  gradient.addColorStop(1, `rgba(${r}, ${g}, ${b}, 0.02)`);
  ctx.beginPath();
  ctx.moveTo(data.length === 1 ? left : x(first[0]), bottom);
  if (data.length === 1) ctx.lineTo(left, y(first[1]));
  for (const [t, p] of data) ctx.lineTo(x(t), y(p));
  ctx.lineTo(x(last[0]), bottom);
  ctx.closePath();
  ctx.fillStyle = gradient;
  ctx.fill();
  ctx.beginPath();
  if (data.length === 1) ctx.moveTo(left, y(first[1]));
  data.forEach(([t, p], i) => (i === 0 && data.length > 1 ? ctx.moveTo(x(t), y(p)) : ctx.lineTo(x(t), y(p))));
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x(last[0]), lastY, 4, 0, Math.PI * 2);
  ctx.fillStyle = color;
  ctx.fill();
}

/** The last price in a tag on the price axis, in the move's colour. */
function drawLastPrice({ ctx, width, right, last, color }: MovePlot, lastY: number): void {
  ctx.font = chartFont(11, 'bold');
  const label = price(last[1]);
  const labelWidth = Math.min(width - right - 2, ctx.measureText(label).width + 10);
  ctx.fillStyle = color;
  ctx.fillRect(right + 2, lastY - 9, labelWidth, 18);
  ctx.fillStyle = CHART_COLORS.lastPriceText;
  ctx.fillText(fitText(ctx, label, labelWidth - 6), right + 6, lastY + 1);
}

/** The title: symbol and last price, then the change from the reference and how long it took, as the card states them if given. */
function drawTitle(plot: MovePlot, symbol: string, quote: string, stated: MoveChartOptions['change']): void {
  const { ctx, width, left, last, base, color, data, spanMs } = plot;
  const change =
    stated !== undefined
      ? percent(stated.pct, { signed: true })
      : base > 0
        ? percent(((last[1] - base) / base) * 100, { signed: true })
        : '';
  const took =
    stated !== undefined ? ` in ${changeWindow(stated.windowSecs)}` : data.length > 1 ? ` in ${changeWindow(spanMs / 1000)}` : '';
  ctx.textBaseline = 'alphabetic';
  ctx.font = chartFont(16, 'bold');
  const head = fitText(
    ctx,
    symbol === '' ? `${price(last[1])} ${quote}` : `${symbol} ${price(last[1])} ${quote}`,
    (width - 2 * left) * 0.6,
  );
  ctx.fillStyle = CHART_COLORS.title;
  ctx.fillText(head, left, 28);
  if (change !== '') {
    ctx.fillStyle = color;
    ctx.fillText(
      fitText(ctx, `  ${change}${took}`, width - 2 * left - ctx.measureText(head).width),
      left + ctx.measureText(head).width,
      28,
    );
  }
}

/** The times of the first and the last point, under each end of the plot. */
function drawTimes({ ctx, height, left, right, first, last, spanMs }: MovePlot): void {
  ctx.font = chartFont(11);
  ctx.fillStyle = CHART_COLORS.axisText;
  const stepSecs = spanMs / 1000;
  ctx.fillText(timeLabel(Math.floor(first[0] / 1000), stepSecs), left, height - 10);
  ctx.textAlign = 'right';
  ctx.fillText(`${timeLabel(Math.floor(last[0] / 1000), stepSecs)} UTC`, right, height - 10);
}

async function encode(canvas: Canvas): Promise<Uint8Array> {
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
