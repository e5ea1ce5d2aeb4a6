/**
 * As a new user would: `printf '/chart ADDR\n' | npm start` on the built-in simulator writes the
 * candlestick picture under data/out/ and prints its path.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH } from '../../src/charts/candleChart';
import { CHART_COLORS } from '../../src/charts/theme';
import { Market } from 'tmds-simulator';
import { countColor, decodePng } from './pixels';
import { runToEnd, tsNode, type Run } from '../support/processes';

function start(input: string, cwd: string): Promise<Run> {
  return runToEnd(...tsNode('src/main.ts'), { input, cwd });
}

describe('/chart in the console chat', () => {
  it('writes the picture under data/out/ and prints its path', async () => {
    const token = new Market({ seed: 42 }).listing().tokens[0]?.address ?? '';
    const cwd = mkdtempSync(join(tmpdir(), 'tokenwatch-chart-'));
    const run = await start(`/chart ${token} 1h 7d\n`, cwd);
    expect(run.code, run.stderr).toBe(0);
    const saved = /picture saved: (data\/out\/\d+-chart-[A-Za-z0-9]{8}-1h-7d\.png)/.exec(run.stdout);
    expect(saved, run.stdout).not.toBeNull();
    const pixels = await decodePng(readFileSync(join(cwd, saved?.[1] ?? '')));
    expect([pixels.width, pixels.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(countColor(pixels, CHART_COLORS.up) + countColor(pixels, CHART_COLORS.down)).toBeGreaterThan(100);
  }, 60_000);
});
