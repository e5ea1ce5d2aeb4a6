/**
 * The contract of Card → Discord message: every kind of card the bot makes, built by the real query
 * service over the simulator from its hostile tokens and from every ordinary one, plus cards made
 * larger than any limit, goes through the renderer, and each result is checked against every
 * limit Discord sets and read back by an independent markdown reader.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card, CardColor, CardField, RichText, Span } from '../../../src/cards/card';
import { bold, code, field, italic, link, rich, text } from '../../../src/cards/card';
import { cardForError } from '../../../src/cards/errorCard';
import { cleanText, defuseMentions } from '../../../src/text/sanitize';
import type { ActionButton } from '../../../src/model/chat';
import { embedLength, EMBED_COLORS, renderCardMessage, type DiscordCardMessage } from '../../../src/chats/discord/embed';
import { UsageError } from '../../../src/dispatch/parseArgs';
import { loadCommands } from '../../../src/dispatch/registry';
import { helpCard } from '../../../src/cards/helpCard';
import { MarketError } from '../../../src/market/errors';
import { HOLDERS_HISTORY_SORTS as HOLDER_SORTS } from 'tmds-simulator';
import { HOSTILE_METADATA } from 'tmds-simulator';
import { expectSafeMarkdown, expectSafePlain, readMarkdown } from '../../support/discord/markdownCheck';
import { startTestMarket, type TestMarket } from '../../support/market';

/** Every limit, written out here rather than imported, so a wrong constant in src cannot hide. */
const LIMIT = {
  title: 256,
  description: 4096,
  fields: 25,
  name: 256,
  value: 1024,
  footer: 2048,
  total: 6000,
  customId: 100,
  label: 80,
  perRow: 5,
  rows: 5,
};

function expectWithinLimits(message: DiscordCardMessage, keys: readonly string[], where: string): void {
  expect(message.embeds, where).toHaveLength(1);
  const embed = message.embeds[0]!;
  const title = embed.title ?? '';
  expect(title.length, `${where}: title`).toBeGreaterThan(0);
  expect(title.length, `${where}: title`).toBeLessThanOrEqual(LIMIT.title);
  expect(embed.description?.length ?? 0, `${where}: description`).toBeLessThanOrEqual(LIMIT.description);
  if (embed.description !== undefined) expect(embed.description.trim(), `${where}: empty description`).not.toBe('');
  const fields = embed.fields ?? [];
  expect(fields.length, `${where}: fields`).toBeLessThanOrEqual(LIMIT.fields);
  for (const f of fields) {
    expect(f.name.trim().length, `${where}: empty field name`).toBeGreaterThan(0);
    expect(f.value.trim().length, `${where}: empty field value`).toBeGreaterThan(0);
    expect(f.name.length, `${where}: field name`).toBeLessThanOrEqual(LIMIT.name);
    expect(f.value.length, `${where}: field value`).toBeLessThanOrEqual(LIMIT.value);
  }
  expect(embed.footer?.text.length ?? 0, `${where}: footer`).toBeLessThanOrEqual(LIMIT.footer);
  const sum =
    title.length +
    (embed.description?.length ?? 0) +
    fields.reduce((n, f) => n + f.name.length + f.value.length, 0) +
    (embed.footer?.text.length ?? 0);
  expect(sum, `${where}: total`).toBeLessThanOrEqual(LIMIT.total);
  expect(embedLength(embed)).toBe(sum);
  expect(Object.values(EMBED_COLORS)).toContain(embed.color);
  for (const url of [embed.url, embed.thumbnail?.url]) if (url !== undefined) expect(url, where).toMatch(/^https?:\/\/[^\s]+$/);

  expect(message.components.length, `${where}: rows`).toBeLessThanOrEqual(LIMIT.rows);
  for (const row of message.components) {
    expect(row.components.length, `${where}: buttons in a row`).toBeGreaterThan(0);
    expect(row.components.length, `${where}: buttons in a row`).toBeLessThanOrEqual(LIMIT.perRow);
    for (const button of row.components) {
      expect(button.custom_id.length).toBeLessThanOrEqual(LIMIT.customId);
      expect(keys, `${where}: a button carries a key it was given`).toContain(button.custom_id);
      expect(button.label?.length ?? 0).toBeGreaterThan(0);
      expect(button.label?.length ?? 0).toBeLessThanOrEqual(LIMIT.label);
      expectSafePlain(button.label ?? '', `${where}: button`);
    }
  }

  if (message.files.length > 0) {
    expect(message.files).toHaveLength(1);
    const file = message.files[0]!;
    expect(file.name).toMatch(/^[A-Za-z0-9_-]+\.(png|jpg|gif|webp)$/);
    expect(embed.image?.url).toBe(`attachment://${file.name}`);
  } else {
    expect(embed.image).toBeUndefined();
  }
}

function expectSafeMessage(message: DiscordCardMessage, where: string): void {
  const embed = message.embeds[0]!;
  expectSafeMarkdown(embed.title ?? '', `${where}: title`, { plain: true });
  if (embed.description !== undefined) expectSafeMarkdown(embed.description, `${where}: description`);
  for (const f of embed.fields ?? []) {
    expectSafeMarkdown(f.name, `${where}: field name`, { plain: true });
    expectSafeMarkdown(f.value, `${where}: field value`);
  }
  if (embed.footer !== undefined) expectSafePlain(embed.footer.text, `${where}: footer`);
}

function check(card: Card, buttons: ActionButton[], where: string): DiscordCardMessage {
  const message = renderCardMessage(card, buttons);
  expectWithinLimits(
    message,
    buttons.map((b) => b.key),
    where,
  );
  expectSafeMessage(message, where);
  return message;
}

/** Buttons as the pipeline issues them: one per card action, with short keys. */
function buttonsOf(card: Card): ActionButton[] {
  return card.actions.map((action, i) => ({ label: action.label, key: `k${i}_${action.command}`.slice(0, 20) }));
}

describe('renderCardMessage on every card the bot makes', () => {
  let m: TestMarket;
  const now = new Date();
  const cards: Array<{ where: string; card: Card }> = [];

  beforeAll(async () => {
    m = await startTestMarket({ now: () => now });
    const hostile = new Set(m.sim.market.hostileTokens());
    const wallets = m.listing.wallets;
    for (const token of m.listing.tokens) {
      const label = `${hostile.has(token.address) ? 'hostile' : 'ordinary'} ${token.address}`;
      cards.push({ where: `token ${label}`, card: await m.query.token(token.address) });
      cards.push({ where: `technicals ${label}`, card: await m.query.technicals(token.address) });
      cards.push({ where: `chart ${label}`, card: await m.query.chart({ address: token.address }) });
      for (const sort of hostile.has(token.address) ? HOLDER_SORTS : HOLDER_SORTS.slice(0, 1)) {
        cards.push({ where: `holders ${sort} ${label}`, card: await m.query.holders(token.address, sort) });
      }
      if (hostile.has(token.address)) {
        cards.push({ where: `trades ${label}`, card: await m.query.trades(token.address, wallets.slice(0, 20)) });
      }
    }
    for (let i = 0; i < wallets.length; i += 10) cards.push({ where: `wallet ${i}`, card: await m.query.wallet(wallets.slice(i, i + 10)) });
    const commands = await loadCommands();
    cards.push({ where: 'help', card: helpCard(commands) });
    for (const command of commands) cards.push({ where: `help ${command.name}`, card: helpCard(commands, command.name) });
    cards.push({
      where: 'usage error',
      card: cardForError(new UsageError('Missing <address>. Usage: /token <address>', commands[0] ?? null)),
    });
    cards.push({ where: 'unknown command', card: cardForError(new UsageError('"/nope" is not a command', null)) });
    cards.push({
      where: 'market error',
      card: cardForError(new MarketError({ kind: 'rate-limited', endpoint: null, message: 'busy', retryAfterMs: 45_000 })),
    });
    cards.push({ where: 'crash', card: cardForError(new Error('at /secret/path.ts:1')) });
  }, 120_000);
  afterAll(async () => {
    await m.close();
  });

  it('keeps every card within every limit, safe to show', () => {
    expect(cards.length).toBeGreaterThan(150);
    for (const { where, card } of cards) {
      const message = check(card, buttonsOf(card), where);
      // Every field of the card is there, under its name, unless more than 25 were given.
      expect(message.embeds[0]?.fields?.length ?? 0, where).toBe(Math.min(card.fields.length, 25));
      expect(message.components.flatMap((row) => row.components).length, where).toBe(Math.min(25, card.actions.length));
    }
  });

  it('shows the longest real cards whole, without cutting a thing', () => {
    const ordinary = cards.filter(({ where }) => where.includes('ordinary'));
    const longest = ordinary
      .map(({ where, card }) => ({ where, message: renderCardMessage(card, buttonsOf(card)) }))
      .sort((a, b) => embedLength(b.message.embeds[0]!) - embedLength(a.message.embeds[0]!))
      .slice(0, 5);
    for (const { where, message } of longest) {
      const embed = message.embeds[0]!;
      expect(embedLength(embed), where).toBeGreaterThan(300);
      for (const f of embed.fields ?? [])
        expect(f.value.endsWith('…') && !f.value.endsWith(' …'), `${where}: ${f.name} was cut`).toBe(false);
    }
  });

  it('colours the embed from the card, and shows hostile names as written, escaped', () => {
    for (const { where, card } of cards) {
      const embed = renderCardMessage(card).embeds[0]!;
      expect(embed.color, where).toBe(EMBED_COLORS[card.color]);
      const title = cleanText(card.title, 256);
      if (title.length < 200) expect(readMarkdown(embed.title ?? '').visible, where).toBe(defuseMentions(title) || '(untitled)');
    }
  });
});

describe('renderCardMessage on hostile and oversized cards', () => {
  const hostileStrings = [
    ...HOSTILE_METADATA.flatMap((token) => [token.name, token.symbol, token.description ?? '', ...Object.values(token.links ?? {})]),
    '@everyone FREE',
    '<@123456789012345678> <@!1> <@&2> <#3> <t:1700000000:R> </token:4> <:pepe:5> <a:wave:6>',
    '# Heading\n## Two\n-# subtext\n> quote\n>>> all\n- item\n* item\n+ item\n1. one',
    '[claim](https://evil.example) [x](<https://evil.example>) <https://evil.example>',
    '\\*\\*not bold\\*\\* \\',
    '```js\ncode block\n```',
    '**bold** *it* _it_ __under__ ~~strike~~ ||spoiler|| `code`',
  ];

  it('lets no stranger ping, format, quote or link', () => {
    for (const hostile of hostileStrings) {
      const card: Card = {
        title: hostile,
        url: hostile,
        color: 'danger',
        description: rich(text(hostile), ' ', link(hostile, hostile), ' ', bold(hostile), ' ', italic(hostile), ' ', code(hostile)),
        fields: [
          field(hostile, hostile, true),
          field('Link', link(hostile, 'https://ok.example/a_(b)')),
          { name: 'Bad link', value: [{ text: hostile, url: 'javascript:alert(1)' }] },
        ],
        thumbnailUrl: hostile,
        footer: hostile,
        actions: [],
      };
      const message = check(card, [{ label: hostile, key: 'abc' }], JSON.stringify(hostile).slice(0, 60));
      const embed = message.embeds[0]!;
      expect(readMarkdown(embed.fields?.[1]?.value ?? '').markup).toContain('link:https://ok.example/a_%28b%29');
      expect(message.components[0]?.components[0]?.custom_id).toBe('abc');
    }
  });

  it('cuts visibly, never refuses: title, description, 30 long fields, footer, 6,000 in all', () => {
    const long = (n: number) => 'Long **text** <@&1> '.repeat(Math.ceil(n / 20)).slice(0, n);
    const card: Card = {
      title: long(400),
      description: [text(long(5000))],
      color: 'warning',
      fields: Array.from({ length: 30 }, (_, i) => field(`${i} ${long(300)}`, [text(long(2000)), bold(' bold end')])),
      footer: long(3000),
      actions: [],
    };
    const message = check(card, [], 'oversized');
    const embed = message.embeds[0]!;
    expect(embed.title?.endsWith('…')).toBe(true);
    expect(embed.description?.endsWith('…')).toBe(true);
    expect(embed.footer?.text.endsWith('…')).toBe(true);
    expect(embed.fields).toHaveLength(25);
    expect(embed.fields?.[24]).toEqual({ name: '…', value: '6 more not shown', inline: false });
    expect(embedLength(embed)).toBeGreaterThan(5900);

    // Alone, each piece is cut only to its own limit.
    const alone = renderCardMessage({ title: long(400), description: [text(long(5000))], color: 'info', fields: [], actions: [] })
      .embeds[0]!;
    expect(alone.title?.length).toBeGreaterThan(240);
    expect(alone.description?.length).toBeGreaterThan(4000);
    expectSafeMarkdown(alone.description ?? '', 'alone');
  });

  it('cuts a long link, bold run or code span without breaking its markup', () => {
    for (const span of [
      link('x'.repeat(3000), 'https://ok.example/'),
      bold('b'.repeat(3000)),
      code('c'.repeat(3000)),
      italic('🚀'.repeat(3000)),
    ]) {
      const message = check(
        { title: 't', color: 'info', fields: [field('f', [text('a '), span])], actions: [] },
        [],
        `cut ${span.style ?? 'link'}`,
      );
      const value = message.embeds[0]!.fields![0]!.value;
      expect(value.length).toBeLessThanOrEqual(1024);
      expect(value.length).toBeGreaterThan(900);
      expect(value.endsWith('…')).toBe(true);
    }
  });

  it('attaches the picture and shows it in the embed', () => {
    const data = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const message = check(
      {
        title: 'Chart',
        color: 'info',
        fields: [],
        actions: [],
        image: { filename: '../../etc/chart of <@&1>.png', contentType: 'image/png', data, description: 'price <@&1>' },
      },
      [],
      'image',
    );
    expect(message.files[0]?.name).toBe('etc_chart_of_1.png');
    expect([...message.files[0]!.data]).toEqual([...data]);
    expect(message.embeds[0]?.image?.url).toBe('attachment://etc_chart_of_1.png');
  });

  it('makes buttons from keys, five to a row, at most five rows, dropping keys Discord would refuse', () => {
    const buttons: ActionButton[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ label: `Action ${i} `.repeat(12), key: `key_${i}` })),
      { label: 'bad', key: 'has space' },
      { label: 'long', key: 'k'.repeat(101) },
      { label: 'empty', key: '' },
    ];
    const message = check({ title: 't', color: 'info', fields: [], actions: [] }, buttons, 'buttons');
    expect(message.components.map((row) => row.components.length)).toEqual([5, 5, 5, 5, 5]);
    expect(message.components[0]?.components.map((b) => b.custom_id)).toEqual(['key_0', 'key_1', 'key_2', 'key_3', 'key_4']);
    expect(message.components[0]?.components[0]?.label?.endsWith('…')).toBe(true);
    expect(
      check({ title: 't', color: 'info', fields: [], actions: [] }, [{ label: '', key: 'k'.repeat(100) }], 'long key').components[0]
        ?.components[0],
    ).toMatchObject({
      custom_id: 'k'.repeat(100),
      label: 'Open',
    });
  });

  const hostileText = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.constantFrom(
          '\u001b[31m',
          '\u202e',
          '\u200b',
          '\n',
          '\r',
          '\t',
          '@everyone',
          '<@&1>',
          '<#2>',
          'https://ok.example/a',
          'javascript:x',
          ' ',
          '**',
          '`',
          '\\',
          '[',
          '](',
          '#',
          '> ',
          '- ',
          '1. ',
          '||',
          '~~',
          '__',
          '…',
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  const span: fc.Arbitrary<Span> = fc.record(
    {
      text: hostileText,
      style: fc.constantFrom('bold' as const, 'italic' as const, 'code' as const),
      url: fc.oneof(hostileText, fc.constant('https://ok.example/(x)')),
    },
    { requiredKeys: ['text'] },
  );
  const richText: fc.Arbitrary<RichText> = fc.array(span, { maxLength: 6 });
  const cardField: fc.Arbitrary<CardField> = fc.record({ name: hostileText, value: richText, inline: fc.boolean() });
  const anyCard: fc.Arbitrary<Card> = fc.record({
    title: hostileText,
    url: fc.option(hostileText, { nil: undefined }),
    description: fc.option(richText, { nil: undefined }),
    color: fc.constantFrom<CardColor>('safe', 'warning', 'danger', 'neutral', 'info', 'error'),
    fields: fc.array(cardField, { maxLength: 28 }),
    thumbnailUrl: fc.option(hostileText, { nil: undefined }),
    footer: fc.option(hostileText, { nil: undefined }),
    timestamp: fc.option(fc.date(), { nil: undefined }),
    actions: fc.constant([]),
  });
  const anyButtons = fc.array(fc.record({ label: hostileText, key: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/) }), { maxLength: 30 });

  it('any card and any buttons: within every limit, nothing a stranger steers', () => {
    fc.assert(
      fc.property(anyCard, anyButtons, (card, buttons) => {
        check(card, buttons, 'arbitrary');
      }),
      { numRuns: 200 },
    );
  });

  it('any card cut small: still within limits and safe at every length', () => {
    fc.assert(
      fc.property(fc.array(span, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 60 }), (value, repeat) => {
        const bigger = Array.from({ length: repeat }, () => value).flat();
        check({ title: 't', color: 'info', description: bigger, fields: [field('f', bigger)], actions: [] }, [], 'cut');
      }),
      { numRuns: 100 },
    );
  });
});
