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
import { createCanvas, type Canvas } from '@napi-rs/canvas';
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
  const first = data[0];
  const last = data[data.length - 1];
  const left = 12;
  const right = width - 84;
  const top = 46;
  const bottom = height - 28;
  const symbol = pictureText(options.symbol, '');
  const quote = pictureText(options.quote ?? 'SOL', 'SOL');

  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  if (first === undefined || last === undefined) {
    ctx.font = chartFont(16, 'bold');
    ctx.fillStyle = CHART_COLORS.title;
    ctx.fillText(fitText(ctx, symbol, width - 2 * left), left, 28);
    ctx.font = chartFont(14);
    ctx.fillStyle = CHART_COLORS.subtitle;
    ctx.textAlign = 'center';
    ctx.fillText('No prices to draw', width / 2, (top + bottom) / 2);
    return encode(canvas);
  }

  const base =
    options.basePrice !== undefined && Number.isFinite(options.basePrice) && options.basePrice >= 0 ? options.basePrice : first[1];
  const up = last[1] >= base;
  const color = up ? CHART_COLORS.up : CHART_COLORS.down;
  let low = base;
  let high = base;
  for (const [, p] of data) {
    low = Math.min(low, p);
    high = Math.max(high, p);
  }
  const [minPrice, maxPrice] = paddedPriceSpan(low, high, 0.1);
  const startMs = first[0];
  const spanMs = Math.max(1, last[0] - first[0]);
  const x = (t: number) => (data.length === 1 ? right : left + ((t - startMs) / spanMs) * (right - left));
  const y = (p: number) => bottom - ((p - minPrice) / (maxPrice - minPrice)) * (bottom - top);

  // Grid and price labels.
  const ticks = priceTicks(minPrice, maxPrice, 4);
  const labels = priceLabels(ticks.values, ticks.step);
  const lastY = y(last[1]);
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

  // Reference price.
  ctx.strokeStyle = CHART_COLORS.axisText;
  ctx.setLineDash([3, 4]);
  ctx.beginPath();
  ctx.moveTo(left, Math.round(y(base)) + 0.5);
  ctx.lineTo(right, Math.round(y(base)) + 0.5);
  ctx.stroke();
  ctx.setLineDash([]);

  // Shaded area, then the line over it.
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

  // Last price label on the axis.
  ctx.font = chartFont(11, 'bold');
  const label = price(last[1]);
  const labelWidth = Math.min(width - right - 2, ctx.measureText(label).width + 10);
  ctx.fillStyle = color;
  ctx.fillRect(right + 2, lastY - 9, labelWidth, 18);
  ctx.fillStyle = CHART_COLORS.lastPriceText;
  ctx.fillText(fitText(ctx, label, labelWidth - 6), right + 6, lastY + 1);

  // Title: symbol, change from the reference, how long; and the times at each end.
  const stated = options.change;
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
  ctx.font = chartFont(11);
  ctx.fillStyle = CHART_COLORS.axisText;
  const stepSecs = spanMs / 1000;
  ctx.fillText(timeLabel(Math.floor(first[0] / 1000), stepSecs), left, height - 10);
  ctx.textAlign = 'right';
  ctx.fillText(`${timeLabel(Math.floor(last[0] / 1000), stepSecs)} UTC`, right, height - 10);
  return encode(canvas);
}

async function encode(canvas: Canvas): Promise<Uint8Array> {
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
