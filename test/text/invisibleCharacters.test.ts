/**
 * Characters that render as nothing, or as a blank, cannot reach a card: Unicode's whole
 * Default_Ignorable_Code_Point set (read from the engine's own Unicode property data, not from a
 * list kept here) and the blank-looking letters that are not in it. A name made only of them reads
 * "Unnamed token".
 */
import { describe, expect, it } from 'vitest';
import { tokenName, tokenTitle, UNNAMED_TOKEN } from '../../src/cards/tokenFacts';
import { cleanText, stripUnsafeChars } from '../../src/text/sanitize';

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

/** The ones found passing into titles, named one by one so that a narrower property reading would be caught too. */
const SEEN_PASSING = [0x034f, 0xfe00, 0xfe0e, 0xfe0f, 0xe0100, 0xe01ef, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x1d173, 0x1d17a];
/** Blank-looking letters and symbols: drawn as nothing but, for Unicode, visible. */
const BLANK_LOOKING = [0x2800, 0x3164, 0x115f, 0x1160, 0xffa0];

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

describe('invisible and blank-looking characters', () => {
  it('removes every Default_Ignorable_Code_Point between letters', () => {
    const passing: string[] = [];
    let count = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (!DEFAULT_IGNORABLE.test(char)) continue;
      count += 1;
      if (stripUnsafeChars(`a${char}b`) !== 'ab') passing.push(hex(code));
    }
    // The property's size as of Unicode 15: a far smaller count would mean the data was not read.
    expect(count).toBeGreaterThan(4000);
    expect(passing).toEqual([]);
  });

  it('removes the characters seen passing and the blank-looking ones', () => {
    for (const code of [...SEEN_PASSING, ...BLANK_LOOKING])
      expect(stripUnsafeChars(`U${String.fromCodePoint(code)}SDC`), hex(code)).toBe('USDC');
  });

  it('keeps an emoji presentation selector after a pictograph, where it hides nothing', () => {
    expect(stripUnsafeChars('⚠️ risk')).toBe('⚠️ risk');
    expect(stripUnsafeChars('✅')).toBe('✅');
    expect(stripUnsafeChars('a\ufe0fb')).toBe('ab');
  });

  it('reads a name made only of blanks as "Unnamed token"', () => {
    for (const code of BLANK_LOOKING) {
      const blank = String.fromCodePoint(code).repeat(3);
      expect(tokenName({ name: blank }), hex(code)).toBe(UNNAMED_TOKEN);
      expect(tokenTitle({ name: blank, symbol: `${blank} ` }), hex(code)).toBe(UNNAMED_TOKEN);
    }
    expect(cleanText('\u2800 \u034f\ufe00', 64, 'fallback')).toBe('fallback');
  });
});
