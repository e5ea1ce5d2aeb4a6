/**
 * Draws the README's pictures of a card and of an alert (docs/card-example.png,
 * docs/alert-example.png) from console text, in the font the charts use. Run by hand after a card
 * or an alert changes: `npx tsx scripts/docImages.ts CARD.txt ALERT.txt`, each file the console's
 * output for one card (`printf '/token ADDR\n' | npm start`). Nothing in CI runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { CHART_FONT_FAMILY, ensureChartFonts } from '../src/charts/fonts';

const SIZE = 18;
const LINE = 26;
const PAD = 24;

function draw(text: string, out: string): void {
  // The font has no colour emoji: the check mark is drawn as its plain sign.
  const lines = text
    .replace(/\s+$/, '')
    .replace(/✅/g, '✓')
    .replace(/\uFE0F/g, '')
    .split('\n');
  const probe = createCanvas(10, 10).getContext('2d');
  probe.font = `${SIZE}px ${CHART_FONT_FAMILY}`;
  const width = Math.ceil(Math.max(...lines.map((line) => probe.measureText(line).width))) + 2 * PAD;
  const canvas = createCanvas(Math.min(width, 1400), lines.length * LINE + 2 * PAD);
  const context = canvas.getContext('2d');
  context.fillStyle = '#16181d';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.font = `${SIZE}px ${CHART_FONT_FAMILY}`;
  context.textBaseline = 'top';
  lines.forEach((line, index) => {
    context.fillStyle = index === 0 ? '#f5c542' : line.startsWith('simulated data') ? '#8a8f98' : '#e6e6e6';
    context.fillText(line, PAD, PAD + index * LINE);
  });
  writeFileSync(out, canvas.toBuffer('image/png'));
}

ensureChartFonts();
const [card, alert] = process.argv.slice(2);
if (card === undefined || alert === undefined) throw new Error('usage: npx tsx scripts/docImages.ts CARD.txt ALERT.txt');
draw(readFileSync(card, 'utf8'), 'docs/card-example.png');
draw(readFileSync(alert, 'utf8'), 'docs/alert-example.png');
