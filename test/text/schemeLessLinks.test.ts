import { describe, expect, it } from 'vitest';
import { linkUrl } from '../../src/text/linkUrl';
import { safeUrl } from '../../src/text/sanitize';

describe('linkUrl: a token’s link, with or without its scheme', () => {
  it('keeps a safe http(s) link as safeUrl gives it', () => {
    expect(linkUrl('https://x.com/foo')).toBe('https://x.com/foo');
    expect(linkUrl(' HTTPS://Bonk.COM/Path ')).toBe('https://bonk.com/Path');
  });

  it.each([
    ['x.com/foo', 'https://x.com/foo'],
    ['twitter.com/foo', 'https://twitter.com/foo'],
    ['www.x.com/foo?s=20', 'https://www.x.com/foo?s=20'],
    ['t.me/foo_chat', 'https://t.me/foo_chat'],
    ['discord.gg/AbC123', 'https://discord.gg/AbC123'],
    ['mochi.fun', 'https://mochi.fun/'],
    ['www.mochi-token.com/about', 'https://www.mochi-token.com/about'],
    ['docs.mochi.io/#intro', 'https://docs.mochi.io/#intro'],
  ])('shows the bare host and path %s as %s', (value, shown) => {
    expect(linkUrl(value)).toBe(shown);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<b>x</b>',
    'x.com:443/foo',
    '//x.com/foo',
    '/foo',
    'foo',
    'localhost/admin',
    '192.168.1.1/router',
    'x.com@evil.com/foo',
    'user:pass@x.com/',
    'x.com\\@evil.com',
    'x.com/foo bar',
    'mochi.notarealtld/x',
    'x..com/foo',
    '-x.com/foo',
    'x.com\u202e/oof',
    '',
    '   ',
  ])('drops %j', (value) => {
    expect(linkUrl(value)).toBeNull();
  });

  it('drops what is not text', () => {
    expect(linkUrl(null)).toBeNull();
    expect(linkUrl(undefined)).toBeNull();
  });

  it('gives only what safeUrl accepts as it is', () => {
    for (const value of ['x.com/foo', 'mochi.fun', 't.me/a']) {
      const shown = linkUrl(value);
      expect(shown).not.toBeNull();
      expect(safeUrl(shown)).toBe(shown);
    }
  });
});
