/**
 * /calls export's CSV against names written by strangers: control, bidi and zero-width characters
 * cleaned as on cards, and no cell a spreadsheet would run as a formula, whatever comes before the sign.
 */
import { describe, expect, it } from 'vitest';
import { callsCsv } from '../../src/cards/callsCsv';
import type { Call } from '../../src/store/calls';

const AT = new Date('2026-06-01T12:00:00Z');

function call(name: string, userName = 'alice'): Call {
  return {
    id: 1,
    chat: { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null },
    address: 'So11111111111111111111111111111111111111112',
    symbol: name,
    name,
    userId: 'u1',
    userName,
    messageId: null,
    calledAt: AT,
    priceSol: 0.001,
    priceUsd: 0.15,
    solUsd: 150,
    mcapSol: 1000,
    mcapUsd: 150_000,
    peakSol: 0.002,
    peakAt: AT,
    lastSol: 0.0015,
    lastAt: AT,
    checkedTo: 0,
    nextCheckAt: null,
    toldMultiple: 0,
  };
}

/** The name cell of the one row, unquoted. */
function nameCell(name: string): string {
  const row = callsCsv([call(name)]).split('\r\n')[1] ?? '';
  const match = /^"[^"]*","[^"]*","(?:[^"]|"")*","((?:[^"]|"")*)"/.exec(row);
  return (match?.[1] ?? '').replaceAll('""', '"');
}

describe('the calls CSV', () => {
  it('cleans names as cards do: no escape, NUL, bidi or zero-width character, one line', () => {
    const cell = nameCell('\u001b[31mRED\u0000 \u202eNAME\u200b\nNEXT');
    expect(cell).toBe('RED NAME NEXT');
    expect(callsCsv([call('\u0000x')])).not.toMatch(/[\u0000\u001b\u202e\u200b]/u);
  });

  it.each([
    ['=1+1', "'=1+1"],
    [' =1+1', "'=1+1"],
    ['\n=1+1', "'=1+1"],
    ['\u0000=1+1', "'=1+1"],
    ['\t@SUM(A1)', "'@SUM(A1)"],
    ['-2', "'-2"],
    ['plain', 'plain'],
  ])('makes %j inert as %j', (name, written) => {
    expect(nameCell(name)).toBe(written);
  });

  it('keeps every row on one line of CRLF, quotes doubled', () => {
    const csv = callsCsv([call('a"b\r\nc', 'x\ny')]);
    expect(csv.split('\r\n')).toHaveLength(3);
    expect(csv).toContain('"a""b c"');
  });
});
