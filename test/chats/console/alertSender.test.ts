/**
 * The console's alert sender: an alert is printed as one piece of text, and a picture it carries
 * (a price move's chart) is written under the out folder with its path printed, as /chart's is.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { alertCard, alertCardWithChart } from '../../../src/alerts/alertCard';
import { createConsoleAlertSender } from '../../../src/chats/console/alertSender';
import { CONSOLE_CHAT } from '../../../src/chats/console/chat';
import type { PriceEvent } from '../../../src/model/events';
import { T1 } from '../../watch/support/fixtures';

const AT = Date.UTC(2026, 10, 23, 12, 0, 0);
const MOVE: PriceEvent = {
  kind: 'price',
  key: 'price:move',
  at: AT,
  token: { address: T1, symbol: 'FIX', name: 'Fixture Token', decimals: 6, riskStatus: 'SAFE' },
  from: 0.001,
  to: 0.00125,
  changePct: 25,
  previousChangePct: 3,
  windowSecs: 1_800,
  priceUsd: 0.19,
  points: [
    [AT - 1_800_000, 0.001],
    [AT - 900_000, 0.0011],
    [AT, 0.00125],
  ],
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sender() {
  const dir = mkdtempSync(join(tmpdir(), 'tokenwatch-console-'));
  dirs.push(dir);
  const outDir = join(dir, 'out');
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  return { outDir, sender: createConsoleAlertSender({ output, interactive: false, outDir }), printed: () => printed };
}

describe('the console alert sender', () => {
  it('writes an alert’s picture under the out folder and prints its path after the alert', async () => {
    const { outDir, sender: send, printed } = sender();
    const card = await alertCardWithChart(MOVE, null);
    expect(card.image).toBeDefined();
    expect(await send.send(CONSOLE_CHAT, card, [])).toEqual({ status: 'sent' });
    const text = printed();
    expect(text.startsWith('alert ▸ [SAFE] Price up 25%: Fixture Token (FIX)')).toBe(true);
    const path = /picture saved: (\S+)\n/.exec(text)?.[1];
    expect(path?.startsWith(`${outDir}/`)).toBe(true);
    expect(path?.endsWith('-price-move.png')).toBe(true);
    expect(new Uint8Array(readFileSync(path ?? ''))).toEqual(card.image?.data);
  });

  it('prints an alert without a picture as before, with no picture line', async () => {
    const { sender: send, printed } = sender();
    await send.send(CONSOLE_CHAT, alertCard(MOVE, null), []);
    expect(printed()).toContain('Price up 25%');
    expect(printed()).not.toContain('picture');
  });
});
