import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanMultilineText,
  cleanText,
  defuseMentions,
  graphemeCount,
  untrusted,
  MAX_URL_LENGTH,
  safeUrl,
  stripUnsafeChars,
  truncateText,
} from '../../src/text/sanitize';

/** The classes the brief forbids, written out here independently of the implementation. */
const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]/u;
const LONE_SURROGATE = /\p{Cs}/u;

const HOSTILE_PIECES = [
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u001b[0m',
  '\u001b]8;;https://evil.example\u0007',
  '\u001b]0;title\u001b\\',
  '\u009b2J',
  '\u001b',
  '\r\n',
  '\n',
  '\t',
  '\u2028',
  '\u200b',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u3164',
  '\udc00',
  '\ud83d',
  '🚀',
  '👍🏽',
  'e\u0301',
  '@everyone',
  '<@&123>',
  '**',
  '||',
  '<b>',
  '  ',
];

/** Strings that mix arbitrary code points with the pieces hostile names are made of. */
const hostileString = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom(...HOSTILE_PIECES)), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('cleanText', () => {
  it('examples', () => {
    expect(cleanText('  Bonk\u200b \n\n Inu\u202e ', 64)).toBe('Bonk Inu');
    expect(cleanText('\u001b[31mRED\u001b[0m', 64)).toBe('RED');
    expect(cleanText('a\tb\r\nc', 64)).toBe('a b c');
    expect(cleanText('', 64, '(unnamed)')).toBe('(unnamed)');
    expect(cleanText(null, 64, '(unnamed)')).toBe('(unnamed)');
    expect(cleanText('\u200b\u202e  ', 64, '(unnamed)')).toBe('(unnamed)');
    expect(cleanText('x'.repeat(300), 64)).toBe(`${'x'.repeat(63)}…`);
    expect(cleanText('hello world', 7)).toBe('hello…');
    expect(cleanText('hello', 0)).toBe('');
  });

  it('never splits a grapheme when cutting', () => {
    expect(cleanText('👍🏽'.repeat(10), 9)).toBe('👍🏽👍🏽…');
    expect(cleanText('e\u0301'.repeat(10), 5)).toBe('e\u0301e\u0301…');
  });

  it('keeps newlines in the multiline variant', () => {
    expect(cleanMultilineText('\r\n\r\nOfficial:\r\n  send   SOL \n\n\n\nnow ', 200)).toBe('Official:\nsend SOL\n\nnow');
    expect(cleanMultilineText('', 40, '(no description)')).toBe('(no description)');
    expect(cleanText('', 8, '(no description)')).toBe('(no des…');
  });

  it('output has no forbidden characters, fits, is trimmed and idempotent', () => {
    fc.assert(
      fc.property(hostileString, fc.integer({ min: 0, max: 80 }), (s, max) => {
        const once = cleanText(s, max);
        expect(once).not.toMatch(FORBIDDEN);
        expect(once).not.toMatch(LONE_SURROGATE);
        expect(once).not.toMatch(/[\n\u001b]|\s{2}|^\s|\s$/u);
        expect(once.length).toBeLessThanOrEqual(max);
        expect(cleanText(once, max)).toBe(once);
      }),
    );
  });

  it('the multiline variant too', () => {
    fc.assert(
      fc.property(hostileString, fc.integer({ min: 0, max: 80 }), (s, max) => {
        const once = cleanMultilineText(s, max);
        expect(once).not.toMatch(FORBIDDEN);
        expect(once).not.toMatch(/\r|\n{3}|[^\S\n]{2}|^\s|\s$/u);
        expect(once.length).toBeLessThanOrEqual(max);
        expect(cleanMultilineText(once, max)).toBe(once);
      }),
    );
  });

  it('stripUnsafeChars keeps spaces but nothing forbidden', () => {
    expect(stripUnsafeChars(' a\u200b b ')).toBe(' a b ');
    fc.assert(
      fc.property(hostileString, (s) => {
        expect(stripUnsafeChars(s)).not.toMatch(FORBIDDEN);
      }),
    );
  });

  it('truncateText never exceeds its length', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 20 }), (s, max) => {
        const cut = truncateText(s, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        if (s.length <= max) expect(cut).toBe(s);
      }),
    );
  });
});

describe('safeUrl', () => {
  const HOSTILE_URLS = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0000javascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/x',
    'ws://example.com',
    '//evil.example/x',
    '/relative/path',
    'example.com',
    'http:example.com',
    'https:/example.com',
    'https:\\\\evil.example',
    'https://good.example\\@evil.example',
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'https://evil.example:443@good.example/',
    'https://exa mple.com/',
    'https://example.com/ x',
    'https://example.com/\u202egnp.exe',
    'https://exa\u200bmple.com/',
    'https://localhost/',
    'https://',
    'https://:80/',
    'https://[::1',
    'http://%zz/',
    '[x](javascript:alert(1))',
    `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`,
    '',
    '   ',
  ];

  it('rejects hostile and malformed links', () => {
    for (const url of HOSTILE_URLS) expect(safeUrl(url), JSON.stringify(url)).toBeNull();
    expect(safeUrl(null)).toBeNull();
    expect(safeUrl(undefined)).toBeNull();
  });

  it('accepts normal links, normalized', () => {
    expect(safeUrl('https://bonk.com')).toBe('https://bonk.com/');
    expect(safeUrl('HTTPS://Bonk.COM/Path?q=1#top')).toBe('https://bonk.com/Path?q=1#top');
    expect(safeUrl(' https://x.com/bonk ')).toBe('https://x.com/bonk');
    expect(safeUrl('http://192.168.1.1:8080/a')).toBe('http://192.168.1.1:8080/a');
    expect(safeUrl('https://münchen.de/')).toBe('https://xn--mnchen-3ya.de/');
    expect(safeUrl('https://evil.example/"><script>alert(1)</script>')).toBe(
      'https://evil.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E',
    );
    expect(safeUrl('https://t.me/bonk_inu')).toBe('https://t.me/bonk_inu');
  });

  it('anything it returns is a short http(s) link with no spaces, quotes or angle brackets, and stays as it is', () => {
    const candidates = fc.oneof(
      fc.string({ unit: 'binary' }),
      hostileString,
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('http://', 'https://', 'HTTP://', ' https://'), hostileString).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(candidates, (s) => {
        const url = safeUrl(s);
        if (url === null) return;
        expect(url).toMatch(/^https?:\/\//);
        expect(url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
        expect(url).not.toMatch(/[\s"<>`\\]|[^\x21-\x7e]/);
        expect(safeUrl(url)).toBe(url);
      }),
    );
  });

  it('accepts the usual web URLs', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }), (s) => {
        const host = new URL(s).hostname;
        fc.pre(host.includes('.') && !/^[\d.]+$/.test(host));
        expect(safeUrl(s)).not.toBeNull();
      }),
    );
  });
});

describe('defuseMentions', () => {
  it('makes mass, user, role and channel mentions inert', () => {
    expect(defuseMentions('@everyone and @here')).toBe('＠everyone and ＠here');
    expect(defuseMentions('<@123> <@!123> <@&123> <#123>')).toBe('<＠123> <＠!123> <＠&123> <＃123>');
    expect(defuseMentions('mail me at a@b.c')).toBe('mail me at a@b.c');
  });

  it('leaves no mention Discord would parse, and is idempotent', () => {
    const text = fc
      .array(fc.oneof(fc.string(), fc.constantFrom('@everyone', '@EVERYONE', '@here', '<@123>', '<@!1>', '<@&1>', '<#1>', '@', '<')), {
        maxLength: 20,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (s) => {
        const once = defuseMentions(s);
        expect(once).not.toMatch(/@(everyone|here)|<[@#]/i);
        expect(defuseMentions(once)).toBe(once);
        expect(once.replace(/＠/g, '@').replace(/<＃/g, '<#')).toBe(s.replace(/＠/g, '@').replace(/<＃/g, '<#'));
      }),
    );
  });

  it('survives cleanText in either order, and catches a mention hidden by invisible characters', () => {
    expect(cleanText(defuseMentions('@everyone'), 20)).toBe('＠everyone');
    expect(untrusted('@every\u200bone', 20)).toBe('＠everyone');
  });
});

describe('graphemeCount', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const reference = (s: string): number => [...segmenter.segment(s)].length;
  const pieces = fc.constantFrom(
    'a',
    ' ',
    '€',
    '₅',
    '│',
    'é',
    'e\u0301',
    '\u00ad',
    '\u200d',
    '👍🏽',
    '🇫🇷',
    '한',
    '\u202e',
    '·',
    '…',
    '\u0300',
  );

  it('agrees with Intl.Segmenter on any mix of plain and joining characters', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), (parts, random) => {
        const s = parts.join('') + random;
        expect(graphemeCount(s)).toBe(reference(s));
      }),
    );
  });
});
