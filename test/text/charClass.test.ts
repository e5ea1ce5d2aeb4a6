import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLANK, KEPT, ONE_UNIT, charClass } from '../../src/text/charClass';
import { cleanText, graphemeCount, stripUnsafeChars, truncateText } from '../../src/text/sanitize';

/** What `\s` matches in JavaScript (ECMAScript's WhiteSpace and LineTerminator), the line feed aside. */
const BLANKS = new Set([
  0x09,
  0x0b,
  0x0c,
  0x0d,
  0x20,
  0xa0,
  0x1680,
  ...Array.from({ length: 11 }, (_, index) => 0x2000 + index),
  0x2028,
  0x2029,
  0x202f,
  0x205f,
  0x3000,
  0xfeff,
]);

describe('charClass', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const graphemes = (s: string) => [...segmenter.segment(s)].length;

  it('says of every UTF-16 code unit what its definitions say', () => {
    // Every unit is checked, and the disagreements are gathered and compared once: an expect per
    // unit cost 2 s of the suite's time (65,536 of them), the checks themselves about 0.1 s.
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const hex = code.toString(16);
      const found = charClass(code);
      if (((found & BLANK) !== 0) !== BLANKS.has(code)) wrong.push(`blank ${hex}`);
      const surrogate = code >= 0xd800 && code <= 0xdfff;
      if (((found & KEPT) !== 0) !== (!surrogate && stripUnsafeChars(`a${char}b`) === `a${char}b`)) wrong.push(`kept ${hex}`);
      // One unit: a grapheme of its own between letters, spaces, and copies of itself.
      if ((found & ONE_UNIT) !== 0 && graphemes(`a${char}a ${char}${char} `) !== 7) wrong.push(`one unit ${hex}`);
      // The same answer the second time, from the table.
      if (charClass(code) !== found) wrong.push(`second answer ${hex}`);
    }
    expect(wrong).toEqual([]);
  });

  it('counts printable ASCII, Latin letters, punctuation, arrows and box drawing as one unit', () => {
    for (const char of ['a', '~', ' ', 'é', 'ß', '·', '…', '₅', '€', '→', '│', '■'])
      expect(charClass(char.charCodeAt(0)) & ONE_UNIT, char).toBe(ONE_UNIT);
    for (const char of ['\u0301', '\u200b', '\u202e', '\ud83d', '\n']) expect(charClass(char.charCodeAt(0)) & ONE_UNIT, char).toBe(0);
  });
});

describe('cleanText on text that is already clean', () => {
  // The long way, as cleanText is documented: unsafe characters stripped, white space collapsed and trimmed, cut.
  const cleanedLongWay = (s: string, max: number, fallback: string) => {
    const once = (t: string) => truncateText(stripUnsafeChars(t).replace(/\s+/gu, ' ').trim(), max);
    const result = once(s);
    return result === '' ? once(fallback) : result;
  };
  const unit = fc.constantFrom(
    'a',
    'Z',
    '0',
    ' ',
    '  ',
    '·',
    '…',
    '₅',
    '│',
    'é',
    '\u00a0',
    '\u00ad',
    '\u2028',
    '\t',
    '\n',
    '\u200b',
    '✅',
    '⚠️',
    '\u0301',
    '😀',
    '\ud800',
    '\u001b[1m',
    '<',
    '@',
  );
  it('returns what cleaning it the long way returns', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), fc.integer({ min: 1, max: 24 }), (parts, max) => {
        const s = parts.join('');
        expect(cleanText(s, max, 'fallback')).toBe(cleanedLongWay(s, max, 'fallback'));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts graphemes of one-unit text by its length', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (parts) => {
        const s = parts.join('');
        expect(graphemeCount(s)).toBe([...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length);
      }),
      { numRuns: 2000 },
    );
  });
});
