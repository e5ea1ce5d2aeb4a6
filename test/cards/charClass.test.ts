import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLANK, KEPT, ONE_UNIT, ONE_UNIT_RANGES, charClass } from '../../src/cards/charClass';
import { cleanText, graphemeCount, stripUnsafeChars, truncateText } from '../../src/cards/sanitize';

describe('charClass', () => {
  it('says of every UTF-16 code unit what its definitions say', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const found = charClass(code);
      expect((found & BLANK) !== 0, `blank ${code.toString(16)}`).toBe(code !== 0x0a && /\s/.test(char));
      expect((found & ONE_UNIT) !== 0, `one unit ${code.toString(16)}`).toBe(ONE_UNIT_RANGES.some(([from, to]) => code >= from && code <= to));
      const surrogate = code >= 0xd800 && code <= 0xdfff;
      expect((found & KEPT) !== 0, `kept ${code.toString(16)}`).toBe(!surrogate && stripUnsafeChars(`a${char}b`) === `a${char}b`);
      // The same answer the second time, from the table.
      expect(charClass(code)).toBe(found);
    }
  });
});

describe('cleanText on text that is already clean', () => {
  // The long way, as cleanText is documented: unsafe characters stripped, white space collapsed and trimmed, cut.
  const cleanedLongWay = (s: string, max: number, fallback: string) => {
    const once = (t: string) => truncateText(stripUnsafeChars(t).replace(/\s+/gu, ' ').trim(), max);
    const result = once(s);
    return result === '' ? once(fallback) : result;
  };
  const unit = fc.constantFrom('a', 'Z', '0', ' ', '  ', '·', '…', '₅', '│', 'é', '\u00a0', '\u00ad', '\u2028', '\t', '\n', '\u200b', '✅', '⚠️', '\u0301', '😀', '\ud800', '\u001b[1m', '<', '@');
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
