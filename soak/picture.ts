/**
 * The soak's picture: one panel a group of curves against simulated days, in the charts' font and
 * colours (src/charts/fonts.ts, theme.ts), drawn with @napi-rs/canvas as the charts are. Day 1 is
 * marked: the slopes are read after it.
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CHART_COLORS } from '../src/charts/theme';
import { chartFont, ensureChartFonts } from '../src/charts/fonts';
import type { Sample } from './sample';

interface Panel {
  title: string;
  curves: Array<{ column: keyof Sample; label: string; color: string; perHour?: boolean }>;
}

const PANELS: Panel[] = [
  {
    title: 'Memory (MB)',
    curves: [
      { column: 'rss_mb', label: 'RSS', color: '#4c8dff' },
      { column: 'heap_mb', label: 'heap used', color: '#26a69a' },
      { column: 'external_mb', label: 'external', color: '#ffb74d' },
    ],
  },
  {
    title: 'Disk (MB)',
    curves: [
      { column: 'db_mb', label: 'database', color: '#4c8dff' },
      { column: 'wal_mb', label: 'WAL', color: '#ffb74d' },
      { column: 'log_mb', label: 'log', color: '#ef5350' },
    ],
  },
  {
    title: 'Handles',
    curves: [
      { column: 'open_files', label: 'open files', color: '#4c8dff' },
      { column: 'timers', label: 'timers', color: '#26a69a' },
      { column: 'sockets', label: 'sockets', color: '#ffb74d' },
    ],
  },
  {
    title: 'Rows (thousands)',
    curves: [
      { column: 'rows_outbox', label: 'outbox', color: '#4c8dff' },
      { column: 'rows_events', label: 'events', color: '#26a69a' },
      { column: 'rows_action_keys', label: 'action keys', color: '#ffb74d' },
      { column: 'rows_calls', label: 'calls', color: '#ef5350' },
      { column: 'rows_follows', label: 'follows', color: '#ba68c8' },
    ],
  },
  {
    title: 'Alerts delivered an hour, outbox backlog',
    curves: [
      { column: 'alerts_delivered', label: 'delivered / h', color: '#4c8dff', perHour: true },
      { column: 'outbox_backlog', label: 'backlog', color: '#ef5350' },
    ],
  },
  {
    title: 'Event-loop delay (ms)',
    curves: [
      { column: 'loop_p99_ms', label: 'p99', color: '#4c8dff' },
      { column: 'loop_max_ms', label: 'max', color: '#ef5350' },
    ],
  },
];

const WIDTH = 1400;
const PANEL_H = 300;
const COLS = 2;

function valuesOf(samples: readonly Sample[], curve: Panel['curves'][number], scale: number): number[] {
  if (curve.perHour !== true) return samples.map((sample) => sample[curve.column] / scale);
  // Cumulative counts turned into a rate per simulated hour (a restart's reset counts nothing).
  return samples.map((sample, index) => {
    const before = samples[index - 1];
    if (before === undefined) return 0;
    const hours = (sample.sim_day - before.sim_day) * 24;
    return hours > 0 ? Math.max(0, sample[curve.column] - before[curve.column]) / hours : 0;
  });
}

function drawPanel(ctx: SKRSContext2D, panel: Panel, samples: readonly Sample[], x0: number, y0: number, w: number, h: number): void {
  const left = x0 + 60;
  const right = x0 + w - 20;
  const top = y0 + 40;
  const bottom = y0 + h - 40;
  const scale = panel.title.startsWith('Rows') ? 1000 : 1;
  const series = panel.curves.map((curve) => valuesOf(samples, curve, scale));
  const maxY = Math.max(1e-9, ...series.flat()) * 1.1;
  const maxX = Math.max(1, ...samples.map((sample) => sample.sim_day));
  const px = (day: number) => left + (day / maxX) * (right - left);
  const py = (value: number) => bottom - (value / maxY) * (bottom - top);
  ctx.fillStyle = CHART_COLORS.title;
  ctx.font = chartFont(18, 'bold');
  ctx.fillText(panel.title, left, y0 + 24);
  ctx.strokeStyle = CHART_COLORS.grid;
  ctx.lineWidth = 1;
  ctx.font = chartFont(12);
  ctx.fillStyle = CHART_COLORS.axisText;
  for (let step = 0; step <= 4; step++) {
    const value = (maxY / 4) * step;
    ctx.beginPath();
    ctx.moveTo(left, py(value));
    ctx.lineTo(right, py(value));
    ctx.stroke();
    ctx.fillText(value >= 100 ? value.toFixed(0) : value.toFixed(1), x0 + 8, py(value) + 4);
  }
  const dayStep = Math.max(1, Math.ceil(maxX / 10));
  for (let day = 0; day <= maxX; day += dayStep) ctx.fillText(`d${day}`, px(day) - 8, bottom + 18);
  // Day 1: the slopes are read after it.
  ctx.strokeStyle = CHART_COLORS.subtitle;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(px(1), top);
  ctx.lineTo(px(1), bottom);
  ctx.stroke();
  ctx.setLineDash([]);
  panel.curves.forEach((curve, index) => {
    const values = series[index] ?? [];
    ctx.strokeStyle = curve.color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    samples.forEach((sample, at) => {
      const y = py(values[at] ?? 0);
      if (at === 0) ctx.moveTo(px(sample.sim_day), y);
      else ctx.lineTo(px(sample.sim_day), y);
    });
    ctx.stroke();
    ctx.fillStyle = curve.color;
    ctx.fillText(curve.label, right - 120, top + 4 + index * 16);
  });
}

export function drawSoak(samples: readonly Sample[], subtitle: string): Buffer {
  ensureChartFonts();
  const rows = Math.ceil(PANELS.length / COLS);
  const height = 70 + rows * PANEL_H;
  const canvas = createCanvas(WIDTH, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = CHART_COLORS.background;
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.fillStyle = CHART_COLORS.title;
  ctx.font = chartFont(22, 'bold');
  ctx.fillText('TokenWatch soak: simulated days', 20, 32);
  ctx.fillStyle = CHART_COLORS.subtitle;
  ctx.font = chartFont(14);
  ctx.fillText(subtitle, 20, 54);
  PANELS.forEach((panel, index) => {
    const col = index % COLS;
    const row = Math.floor(index / COLS);
    drawPanel(ctx, panel, samples, col * (WIDTH / COLS), 70 + row * PANEL_H, WIDTH / COLS, PANEL_H);
  });
  return canvas.toBuffer('image/png');
}
