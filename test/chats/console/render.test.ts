import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { Card, CardColor, CardField, RichText, Span } from '../../../src/cards/card';
import { bold, code, field, link, rich, text } from '../../../src/cards/card';
import { renderCardText } from '../../../src/chats/console/render';
import { HOSTILE_METADATA } from 'tmds-simulator';

/** What must never reach a terminal from a stranger, written out independently of the renderer. */
const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;
const OWN_COLOURS = /\u001b\[[0-9;]*m/g;

const ADDRESS = 'So11111111111111111111111111111111111111112';

function baseCard(overrides: Partial<Card> = {}): Card {
  return {
    title: 'Bonk (BONK)',
    url: `https://solscan.io/token/${ADDRESS}`,
    color: 'safe',
    fields: [field('Price', '$0.0₅2867', true), field('Holders', '12.3K', true), field('Deployer', code(ADDRESS))],
    actions: [
      { label: 'Chart', command: 'chart', args: [ADDRESS] },
      { label: 'Holders', command: 'holders', args: [ADDRESS] },
    ],
    ...overrides,
  };
}

function lines(output: string): string[] {
  return output.slice(0, -1).split('\n');
}

/** Lines may run past the width (in terminal columns) only to hold one word that must stay whole. */
function expectWithinWidth(output: string, width: number): void {
  for (const line of lines(output)) {
    if (stringWidth(line) > width) expect(line.trim(), `line over ${width}: ${line}`).not.toMatch(/\s/);
  }
}

/** Links shown as "<url>" or after "logo:" must be http(s); hostile names may still mention schemes as text. */
function expectOnlyWebLinks(output: string): void {
  expect(output).not.toMatch(/<(?!https?:\/\/)[a-z][a-z0-9+.-]*:/i);
  expect(output).not.toMatch(/^logo: (?!https?:\/\/)/m);
  expect(lines(output)[1] ?? '').not.toMatch(/^[a-z][a-z0-9+.-]*:(?!\/\/)/i);
}

function expectClean(output: string): void {
  expect(output).not.toMatch(FORBIDDEN);
  expect(output).not.toContain('\u001b');
  expect(output.endsWith('\n')).toBe(true);
}

describe('renderCardText', () => {
  it('lays a card out as readable text', () => {
    const card = baseCard({
      description: rich('A dog coin. See ', link('the site', 'https://bonk.com'), ' or ', link('this', 'javascript:alert(1)'), '.'),
      fields: [
        field('Price', '$0.0₅2867', true),
        field('Liquidity', '$3.4M', true),
        field('Risk', rich(bold('Mint authority present'), ' · metadata mutable')),
        field('Pools', 'Raydium · $2.1M\nOrca · $1.3M'),
      ],
      thumbnailUrl: 'https://bonk.com/logo.png',
      image: { filename: 'chart.png', contentType: 'image/png', data: new Uint8Array([1]) },
      footer: 'Token Market Data',
      timestamp: new Date('2024-05-01T12:00:00.000Z'),
    });
    expect(renderCardText(card)).toBe(
      [
        '[SAFE] Bonk (BONK)',
        `https://solscan.io/token/${ADDRESS}`,
        '',
        '  A dog coin. See the site <https://bonk.com/> or this.',
        '',
        'Price: $0.0₅2867 │ Liquidity: $3.4M',
        'Risk: Mint authority present · metadata mutable',
        'Pools:',
        '  Raydium · $2.1M',
        '  Orca · $1.3M',
        '',
        'logo: https://bonk.com/logo.png',
        '[image: chart.png]',
        'Token Market Data · 2024-05-01 12:00 UTC',
        `Try: /chart ${ADDRESS} ·`,
        `  /holders ${ADDRESS}`,
        '',
      ].join('\n'),
    );
  });

  it('keeps punctuation that follows a link against it, and a space where the text has one', () => {
    const card = baseCard({
      description: rich(
        link('one', 'https://a.example/'),
        ', ',
        link('two', 'https://b.example/'),
        '. Go',
        link('', 'https://c.example/'),
        ' end',
      ),
    });
    expect(renderCardText(card).split('\n')[3]).toBe('  one <https://a.example/>, two <https://b.example/>. Go https://c.example/ end');
  });

  it('marks the risk status from the colour', () => {
    const markers: Record<CardColor, string> = {
      safe: '[SAFE] ',
      warning: '[WARNING] ',
      danger: '[DANGER] ',
      error: '[ERROR] ',
      info: '',
      neutral: '',
    };
    for (const [color, marker] of Object.entries(markers)) {
      expect(renderCardText(baseCard({ color: color as CardColor })).split('\n')[0]).toBe(`${marker}Bonk (BONK)`);
    }
  });

  it('colours only when asked, and colour changes nothing but the escapes', () => {
    const card = baseCard({ color: 'danger', description: [bold('bold'), text(' and '), link('a link', 'https://x.com')] });
    const plain = renderCardText(card);
    const coloured = renderCardText(card, { color: true });
    expect(plain).not.toContain('\u001b');
    expect(coloured).toContain('\u001b[1;31m[DANGER]\u001b[0m');
    expect(coloured.replace(OWN_COLOURS, '')).toBe(plain);
  });

  it('wraps to the width, keeping URLs and addresses whole', () => {
    const card = baseCard({
      description: [text('word '.repeat(60))],
      fields: [field('Pools', [link('Meteora', `https://app.meteora.ag/pools/${ADDRESS}`)]), field('Deployer', code(ADDRESS))],
    });
    for (const width of [20, 40, 80]) {
      const output = renderCardText(card, { width });
      expectWithinWidth(output, width);
      expect(output).toContain(`https://app.meteora.ag/pools/${ADDRESS}`);
      expect(output).toContain(ADDRESS);
    }
  });

  it('renders a card alike before and after a far larger one', () => {
    const card = baseCard();
    const before = renderCardText(card, { color: true });
    const huge = baseCard({ fields: [{ name: 'Words', value: Array.from({ length: 12 }, () => text('w '.repeat(500))) }] });
    expect(renderCardText(huge).split('\n').length).toBeGreaterThan(100);
    expect(renderCardText(card, { color: true })).toBe(before);
  });

  it('counts wide characters as two columns and combining marks as none, cuts between graphemes, and keeps a cut word in its colour', () => {
    const accents = 'e\u0301'.repeat(20);
    const card = baseCard({
      title: '熊猫币 🐼 PANDA',
      color: 'warning',
      url: undefined,
      description: [text('流動性は'), bold('ロックされていません。'.repeat(2)), text(` café ${accents} 👍🏽👍🏽👍🏽 ${'🐼'.repeat(10)}`)],
      fields: [field('名前', '熊猫币', true)],
      actions: [],
    });
    const plain = renderCardText(card, { width: 20 });
    expect(plain).toBe(
      [
        '[WARNING] 熊猫币 🐼',
        '  PANDA',
        '',
        // Nine wide characters fill the 18 columns a line has after its indent.
        '  流動性はロックされ',
        '  ていません。ロック',
        '  されていません。',
        // Each é is one column however it is written; the 20 of them are cut after the 13 that fit.
        `  café ${'é'.repeat(13)}`,
        // Ten pandas (20 columns) are wider than a line: cut to fill the room left.
        `  ${'é'.repeat(7)} 👍🏽👍🏽👍🏽 🐼`,
        `  ${'🐼'.repeat(9)}`,
        '',
        '名前: 熊猫币',
        '',
      ].join('\n'),
    );
    for (const line of lines(plain)) {
      expect(stringWidth(line), line).toBeLessThanOrEqual(20);
      expect(line, 'a combining mark never starts a line').not.toMatch(/^\s*\p{M}/u);
    }
    const coloured = renderCardText(card, { width: 20, color: true });
    expect(coloured.replace(OWN_COLOURS, '')).toBe(plain);
    // The bold words run over three lines: each line of them opens the bold again after its indent.
    const boldLines = lines(coloured).slice(3, 6);
    expect(boldLines.map((line) => line.replace(OWN_COLOURS, ''))).toEqual(lines(plain).slice(3, 6));
    // (A close may come first, left from where the rest of the word was cut again: bold is on either way.)
    for (const line of boldLines.slice(1)) expect(line, JSON.stringify(line)).toMatch(/^ {2}(?:\u001b\[22m)?\u001b\[1m[^\u001b]/);
  });

  it('survives an empty card', () => {
    expect(renderCardText({ title: '', color: 'neutral', fields: [], actions: [] })).toBe('(untitled)\n');
  });

  it('drops unsafe card links, logos and action garbage', () => {
    const output = renderCardText(
      baseCard({
        url: 'javascript:alert(1)',
        thumbnailUrl: 'data:image/png;base64,AAAA',
        fields: [
          field('Site', link('site', 'https://ok.example')),
          { name: 'Raw', value: [{ text: 'click', url: 'javascript:alert(1)' }] },
        ],
        actions: [{ label: 'x', command: '\u001b[31m', args: [] }],
      }),
    );
    expect(output).not.toMatch(/javascript|data:/);
    expect(output).toContain('Raw: click');
    expect(output).toContain('site <https://ok.example/>');
    expect(output).not.toContain('Try:');
  });
});

describe('renderCardText with hostile text', () => {
  const HOSTILE_STRINGS = [
    '@everyone FREE',
    '<@&123456789012345678>',
    '<b>Bold</b></a>',
    '**RUG** ||spoiler|| `x`',
    'USD\u200BC\uFEFF',
    '\u202Egnp.exe',
    '\u001b[31mred\u001b[0m\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
    'A'.repeat(300),
    'Long Name With Spaces '.repeat(15),
    'javascript:alert(1)',
    '',
    'Legit\n\nRisk: SAFE ✅\nLiquidity: locked',
    '\r\n\u0000\u0007\u009b2J',
  ];

  it('keeps the structure and lets nothing forbidden through', () => {
    for (const hostile of HOSTILE_STRINGS) {
      const card = baseCard({
        title: hostile,
        color: 'danger',
        description: [text(hostile), link(hostile, hostile)],
        fields: [
          field('Name', hostile, true),
          field('Symbol', hostile, true),
          { name: hostile, value: [text(hostile)] },
          field('Website', link(hostile, hostile)),
        ],
        footer: hostile,
        thumbnailUrl: hostile,
        actions: [{ label: hostile, command: 'chart', args: [hostile] }],
      });
      for (const color of [false, true]) {
        const output = renderCardText(card, { color });
        const plain = output.replace(OWN_COLOURS, '');
        expectClean(plain);
        expectWithinWidth(plain, 80);
        const all = lines(plain);
        expect(all[0]?.startsWith('[DANGER] ')).toBe(true);
        expect(all.some((line) => line.startsWith('Name: '))).toBe(true);
        expect(all.some((line) => line.startsWith('Website:'))).toBe(true);
        expect(all.some((line) => line.startsWith('Try: /chart'))).toBe(true);
        // A stranger's newlines never make a line that starts like a real field.
        expect(all.filter((line) => /^(Risk|Liquidity):/.test(line))).toEqual([]);
        expectOnlyWebLinks(plain);
      }
    }
  });

  it('renders every hostile token of the simulator', () => {
    for (const token of HOSTILE_METADATA) {
      const links = Object.entries(token.links ?? {}).map(([name, url]) => link(name, url));
      const card: Card = {
        title: `${token.name} (${token.symbol})`,
        url: token.website ?? undefined,
        description: token.description ? [text(token.description)] : undefined,
        color: 'warning',
        fields: [
          field('Symbol', token.symbol, true),
          field('Links', links.length > 0 ? links : '—'),
          field('Website', link('website', token.website)),
        ],
        thumbnailUrl: token.logo,
        actions: [{ label: 'Chart', command: 'chart', args: [ADDRESS] }],
      };
      const output = renderCardText(card);
      expectClean(output);
      expectWithinWidth(output, 80);
      expect(output.startsWith('[WARNING] '), token.label).toBe(true);
      expect(output, token.label).toMatch(/^Symbol: /m);
      expectOnlyWebLinks(output);
    }
  });

  const hostileText = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.constantFrom(
          '\u001b[31m',
          '\u001b]0;x\u0007',
          '\u202e',
          '\u200b',
          '\n',
          '\r',
          '\t',
          '@everyone',
          '<@&1>',
          'https://ok.example/a',
          'javascript:x',
          ' ',
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  const span: fc.Arbitrary<Span> = fc.record(
    { text: hostileText, style: fc.constantFrom('bold' as const, 'italic' as const, 'code' as const), url: hostileText },
    { requiredKeys: ['text'] },
  );
  const richText: fc.Arbitrary<RichText> = fc.array(span, { maxLength: 5 });
  const cardField: fc.Arbitrary<CardField> = fc.record({ name: hostileText, value: richText, inline: fc.boolean() });
  const card: fc.Arbitrary<Card> = fc.record({
    title: hostileText,
    url: fc.option(hostileText, { nil: undefined }),
    description: fc.option(richText, { nil: undefined }),
    color: fc.constantFrom<CardColor>('safe', 'warning', 'danger', 'neutral', 'info', 'error'),
    fields: fc.array(cardField, { maxLength: 6 }),
    thumbnailUrl: fc.option(hostileText, { nil: undefined }),
    footer: fc.option(hostileText, { nil: undefined }),
    timestamp: fc.option(fc.date(), { nil: undefined }),
    actions: fc.array(fc.record({ label: hostileText, command: hostileText, args: fc.array(hostileText, { maxLength: 3 }) }), {
      maxLength: 3,
    }),
  });

  it('any card: clean, within the width, same text with and without colour', () => {
    fc.assert(
      fc.property(card, fc.integer({ min: 20, max: 120 }), (c, width) => {
        const plain = renderCardText(c, { width });
        expectClean(plain);
        expectWithinWidth(plain, width);
        expect(renderCardText(c, { width, color: true }).replace(OWN_COLOURS, '')).toBe(plain);
        expect(lines(plain)[0]).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});
