import { describe, expect, it } from 'vitest';
import { bold, code, field, italic, joinRich, link, plainText, rich, riskColor, text } from '../../src/cards/card';

describe('card constructors', () => {
  it('make styled spans', () => {
    expect(text('a')).toEqual({ text: 'a' });
    expect(bold('a')).toEqual({ text: 'a', style: 'bold' });
    expect(italic('a')).toEqual({ text: 'a', style: 'italic' });
    expect(code('a')).toEqual({ text: 'a', style: 'code' });
  });

  it('link keeps only safe http(s) URLs, normalized', () => {
    expect(link('site', 'https://Bonk.com')).toEqual({ text: 'site', url: 'https://bonk.com/' });
    expect(link('site', 'javascript:alert(1)')).toEqual({ text: 'site' });
    expect(link('site', 'data:text/html,x')).toEqual({ text: 'site' });
    expect(link('site', null)).toEqual({ text: 'site' });
  });

  it('rich flattens spans, rich texts and strings', () => {
    expect(rich('a ', bold('b'), [text(' c'), code('d')])).toEqual([text('a '), bold('b'), text(' c'), code('d')]);
  });

  it('joinRich puts separators between non-empty parts only', () => {
    const joined = joinRich([[bold('Mint')], [], 'Freeze', text(''), [text('Mutable')]]);
    expect(plainText(joined)).toBe('Mint · Freeze · Mutable');
    expect(joined[0]).toEqual(bold('Mint'));
    expect(plainText(joinRich(['a', 'b'], '\n'))).toBe('a\nb');
    expect(joinRich([])).toEqual([]);
  });

  it('field wraps its value as rich text', () => {
    expect(field('Price', '$1', true)).toEqual({ name: 'Price', value: [text('$1')], inline: true });
    expect(field('Risk', bold('DANGER'))).toEqual({ name: 'Risk', value: [bold('DANGER')], inline: false });
  });

  it('riskColor maps the known statuses and nothing else', () => {
    expect(riskColor('SAFE')).toBe('safe');
    expect(riskColor('warning')).toBe('warning');
    expect(riskColor(' DANGER ')).toBe('danger');
    expect(riskColor('UNKNOWN')).toBe('neutral');
    expect(riskColor('')).toBe('neutral');
    expect(riskColor(null)).toBe('neutral');
    expect(riskColor(undefined)).toBe('neutral');
  });
});
