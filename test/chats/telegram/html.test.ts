/**
 * The Telegram renderer's contract: every kind of card the bot builds — from every simulated token,
 * the hostile ones and the longest real ones, every command, every error — becomes valid Telegram
 * HTML within Telegram's limits, with an inline keyboard whose callback data fit 64 bytes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card, CardColor, CardField, RichText, Span } from '../../../src/cards/card';
import { bold, code, field, link, rich, text } from '../../../src/cards/card';
import { cardForError } from '../../../src/cards/errorCard';
import { helpCard } from '../../../src/cards/helpCard';
import type { ActionButton } from '../../../src/model/chat';
import {
  MAX_CALLBACK_DATA_BYTES,
  MAX_CAPTION_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_TEXT_MESSAGES,
  renderCardMessages,
  renderKeyboard,
  type TelegramMessage,
} from '../../../src/chats/telegram/html';
import type { AnyCommand, CommandContext } from '../../../src/dispatch/command';
import { UsageError } from '../../../src/usage';
import { loadCommands } from '../../../src/dispatch/registry';
import { withLoadedActions } from '../../../src/dispatch/loadedActions';
import { MarketError } from '../../../src/market/errors';
import { HOSTILE_METADATA } from 'tmds-simulator';
import { answered, commandContext } from '../../support/commandContext';
import { startTestMarket, type TestMarket } from '../../support/market';
import { parseTelegramHtml, type ParsedHtml } from '../../support/telegram/telegramHtml';

const ADDRESS = 'So11111111111111111111111111111111111111112';
/** The longest key the pipeline issues (20 bytes), so every card is checked at the worst case. */
const KEY = 'Abcdefghij_klmnop-qr';

function buttonsFor(card: Card): ActionButton[] {
  return card.actions.map((action, i) => ({ label: action.label, key: `${KEY.slice(0, 18)}${String(i).padStart(2, '0')}` }));
}

/** Every limit and rule a message must hold; returns each message's parsed HTML. */
function expectValidMessages(messages: TelegramMessage[], label: string): ParsedHtml[] {
  expect(messages.length, label).toBeGreaterThan(0);
  const parsed: ParsedHtml[] = [];
  messages.forEach((message, index) => {
    const html = message.kind === 'text' ? message.html : message.caption;
    let result: ParsedHtml;
    try {
      result = parseTelegramHtml(html);
    } catch (error) {
      throw new Error(`${label}, message ${index}: ${(error as Error).message}\n${html}`);
    }
    const limit = message.kind === 'text' ? MAX_MESSAGE_LENGTH : MAX_CAPTION_LENGTH;
    expect(result.length, `${label}, message ${index} length`).toBeLessThanOrEqual(limit);
    if (message.kind === 'text') expect(result.text.trim(), `${label}, message ${index} empty`).not.toBe('');
    // Nothing a stranger wrote can reach the reader as a live mention, an invisible or a bidi character.
    expect(result.text, label).not.toMatch(/@[A-Za-z0-9_]/);
    expect(result.text, label).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\p{Cs}/u,
    );
    for (const href of result.links) expect(href, label).toMatch(/^https?:\/\/[^\s"<>]+$/);
    if (message.kind === 'text' && message.previewUrl !== null) expect(message.previewUrl).toMatch(/^https?:\/\//);
    const keyboard = message.keyboard;
    if (keyboard !== null) {
      expect(index, `${label}: keyboard only on the last message`).toBe(messages.length - 1);
      for (const row of keyboard.inline_keyboard) {
        expect(row.length).toBeGreaterThan(0);
        for (const button of row) {
          expect(Buffer.byteLength(button.callback_data, 'utf8'), label).toBeLessThanOrEqual(MAX_CALLBACK_DATA_BYTES);
          expect(button.callback_data).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(button.text.trim(), label).not.toBe('');
        }
      }
    }
    parsed.push(result);
  });
  expect(messages.filter((m) => m.kind === 'text').length, label).toBeLessThanOrEqual(MAX_TEXT_MESSAGES);
  return parsed;
}

function renderValid(card: Card, label: string, buttons = buttonsFor(card)): ParsedHtml[] {
  const messages = renderCardMessages(card, buttons);
  const parsed = expectValidMessages(messages, label);
  const keyboards = messages.flatMap((m) => (m.keyboard === null ? [] : m.keyboard.inline_keyboard.flat()));
  expect(keyboards.length, `${label}: one button per action`).toBe(Math.min(buttons.length, 12));
  return parsed;
}

describe('renderCardMessages layout', () => {
  it('writes a card as Telegram HTML: marker, linked title, quoted description, fields, footer', () => {
    const card: Card = {
      title: 'Bonk (BONK)',
      url: `https://solscan.io/token/${ADDRESS}`,
      description: rich('A dog coin. See ', link('the site', 'https://bonk.com'), ' or ', link('this', 'javascript:alert(1)'), '.'),
      color: 'safe',
      fields: [
        field('Price', rich(bold('$0.0₅2867'), ' · 0.01 SOL'), true),
        field('Deployer', code(ADDRESS)),
        field('Pools', 'Raydium · $2.1M\nOrca · $1.3M'),
      ],
      thumbnailUrl: 'https://bonk.com/logo.png',
      footer: 'Token Market Data',
      timestamp: new Date('2024-05-01T12:00:00.000Z'),
      actions: [{ label: 'Chart', command: 'chart', args: [ADDRESS] }],
    };
    const [message, ...rest] = renderCardMessages(card, [{ label: 'Chart', key: 'k1' }]);
    expect(rest).toEqual([]);
    expect(message).toEqual({
      kind: 'text',
      html: [
        `🟢 <a href="https://solscan.io/token/${ADDRESS}"><b>Bonk (BONK)</b></a>`,
        '',
        '<blockquote>A dog coin. See <a href="https://bonk.com/">the site</a> or this.</blockquote>',
        '',
        '<b>Price:</b> <b>$0.0₅2867</b> · 0.01 SOL',
        `<b>Deployer:</b> <code>${ADDRESS}</code>`,
        '<b>Pools:</b>',
        'Raydium · $2.1M',
        'Orca · $1.3M',
        '',
        '<i>Token Market Data · 2024-05-01 12:00 UTC</i>',
      ].join('\n'),
      keyboard: { inline_keyboard: [[{ text: 'Chart', callback_data: 'k1' }]] },
      previewUrl: 'https://bonk.com/logo.png',
    });
  });

  it('escapes markup and makes mentions inert, keeping the text a reader sees', () => {
    const card: Card = {
      title: '<b>Bold</b> & "Co" @everyone',
      color: 'danger',
      description: [text('<a href="https://evil.example">claim</a> &amp; @admin')],
      fields: [field('<i>', '</code></blockquote><script>')],
      actions: [],
    };
    const [parsed] = renderValid(card, 'escaping', []);
    expect(parsed?.text).toBe(
      '🔴 <b>Bold</b> & "Co" ＠everyone\n\n<a href="https://evil.example">claim</a> &amp; ＠admin\n\n<i>: </code></blockquote><script>',
    );
    expect(parsed?.tags).toEqual(['b', 'blockquote', 'b']);
  });

  it('never nests code in a link or a bold run, as Telegram refuses', () => {
    const card: Card = {
      title: 'x',
      color: 'info',
      fields: [{ name: 'A', value: [{ text: 'addr', style: 'code', url: 'https://solscan.io/x' }, bold('b'), code('c')] }],
      actions: [],
    };
    const [message] = renderCardMessages(card);
    expect(message?.kind === 'text' && message.html).toContain('<b>A:</b> <a href="https://solscan.io/x">addr</a><b>b</b><code>c</code>');
  });

  it('splits a long card between lines over several messages, keyboard on the last, and cuts past the cap', () => {
    const fields: CardField[] = Array.from({ length: 60 }, (_, i) => field(`Field ${i}`, `${'word '.repeat(40)}${i}`));
    const card: Card = { title: 'Long', color: 'neutral', fields, actions: [{ label: 'Next', command: 'x', args: [] }] };
    const messages = renderCardMessages(card, [{ label: 'Next', key: 'k' }]);
    const parsed = expectValidMessages(messages, 'long card');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.length).toBeLessThanOrEqual(MAX_TEXT_MESSAGES);
    expect(messages[messages.length - 1]?.keyboard).not.toBeNull();
    // Every field line is whole, or the cut line at the very end.
    const all = parsed.map((p) => p.text).join('\n');
    expect(all).toContain('Field 0:');
    const huge: Card = { ...card, fields: Array.from({ length: 200 }, (_, i) => field(`F${i}`, 'x'.repeat(300))) };
    const cut = renderCardMessages(huge, []);
    const cutParsed = expectValidMessages(cut, 'huge card');
    expect(cut.length).toBe(MAX_TEXT_MESSAGES);
    expect(cutParsed[cutParsed.length - 1]?.text.endsWith('…')).toBe(true);
  });

  it('cuts one line longer than a message, keeping its tags balanced', () => {
    const card: Card = {
      title: 'T',
      color: 'neutral',
      fields: [field('Wall', rich(bold('B'.repeat(5000)), link('L'.repeat(3000), 'https://x.example/')))],
      actions: [],
    };
    const messages = renderCardMessages(card);
    const parsed = expectValidMessages(messages, 'wall');
    expect(parsed.some((p) => p.text.includes('…'))).toBe(true);
  });

  it('a card with a picture: one captioned photo when short, else the photo then the text', () => {
    const image = { filename: 'chart.png', contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    const short: Card = {
      title: 'Chart of X',
      color: 'info',
      fields: [field('Close', '1.2')],
      image,
      actions: [{ label: 'Refresh', command: 'chart', args: [] }],
    };
    const one = renderCardMessages(short, [{ label: 'Refresh', key: 'r' }]);
    expect(one.map((m) => m.kind)).toEqual(['photo']);
    expectValidMessages(one, 'short photo');
    expect(one[0]?.keyboard).not.toBeNull();

    const long: Card = { ...short, fields: Array.from({ length: 20 }, (_, i) => field(`Row ${i}`, 'v'.repeat(80))) };
    const two = renderCardMessages(long, [{ label: 'Refresh', key: 'r' }]);
    expect(two.map((m) => m.kind)).toEqual(['photo', 'text']);
    const parsed = expectValidMessages(two, 'long photo');
    expect(parsed[0]?.text).toBe('Chart of X');
    expect(two[0]?.keyboard).toBeNull();
    expect(two[1]?.keyboard).not.toBeNull();
  });

  it('drops buttons whose key cannot be callback data, and never sends an empty label', () => {
    const keyboard = renderKeyboard([
      { label: 'ok', key: 'abc_DEF-123' },
      { label: '', key: 'k2' },
      { label: 'long', key: 'x'.repeat(65) },
      { label: 'unicode', key: 'é' },
      { label: 'empty', key: '' },
      { label: 'spaces', key: 'a b' },
    ]);
    expect(keyboard).toEqual({
      inline_keyboard: [
        [
          { text: 'ok', callback_data: 'abc_DEF-123' },
          { text: 'Open', callback_data: 'k2' },
        ],
      ],
    });
    expect(renderKeyboard([])).toBeNull();
    const many = renderKeyboard(Array.from({ length: 20 }, (_, i) => ({ label: `B${i}`, key: `k${i}` })));
    expect(many?.inline_keyboard.flat().length).toBe(12);
    expect(many?.inline_keyboard.every((row) => row.length <= 3)).toBe(true);
  });

  it('previews only the card’s own logo, and only an http(s) one', () => {
    const card: Card = { title: 'T', color: 'neutral', fields: [], thumbnailUrl: 'javascript:alert(1)', actions: [] };
    expect(renderCardMessages(card)[0]).toMatchObject({ previewUrl: null });
  });
});

describe('every card the bot builds, through the renderer and the keyboard', () => {
  let market: TestMarket;
  let commands: AnyCommand[];
  let loaded: ReadonlySet<string>;
  let context: CommandContext;
  beforeAll(async () => {
    // Every token's /technicals from one chat: more than a chat's share of a minute, which is not what this test is about.
    market = await startTestMarket({ shares: { technicalsPerChatPerMinute: 1_000 } });
    commands = await loadCommands();
    loaded = new Set(commands.map((c) => c.name));
    context = commandContext({ commands, query: market.query });
  });
  afterAll(async () => {
    await market.close();
  });

  const run = async (name: string, args: Record<string, string | number | string[] | undefined>): Promise<Card> => {
    const command = commands.find((c) => c.name === name);
    if (command === undefined) throw new Error(`no command ${name}`);
    return answered(command.run(args, context).then((card) => withLoadedActions(card, loaded)));
  };

  it('every token: /token, /technicals, /holders; every holder order and /chart for the hostile and a few more', async () => {
    const hostile = new Set(market.sim.market.hostileTokens());
    expect(hostile.size).toBeGreaterThan(0);
    let longest = 0;
    // Every token's /token, /technicals and /holders. The other holder orders and the charts (a
    // picture each, which Telegram's text rules do not reach) for the hostile tokens, whose text
    // they carry, and a few ordinary ones: the rest differ only in figures.
    const everyView = new Set([
      ...hostile,
      ...market.listing.tokens
        .filter((t) => !hostile.has(t.address))
        .slice(0, 4)
        .map((t) => t.address),
    ]);
    for (const token of market.listing.tokens) {
      const more = everyView.has(token.address)
        ? [
            ...['holderSince', 'totalBoughtUSD', 'totalSoldUSD'].map((sort) => run('holders', { address: token.address, sort })),
            run('chart', { token: token.address, interval: undefined, range: undefined }),
            run('chart', { token: token.address, interval: 60, range: 7 * 86_400 }),
          ]
        : [];
      const cards = await Promise.all([
        run('token', { address: token.address }),
        run('technicals', { address: token.address }),
        run('holders', { address: token.address, sort: 'balance' }),
        ...more,
      ]);
      for (const card of cards) {
        const label = `${card.title} (${hostile.has(token.address) ? 'hostile' : 'ordinary'} ${token.address})`;
        expect(card.color, label).not.toBe('error');
        const parsed = renderValid(card, label);
        longest = Math.max(longest, ...parsed.map((p) => p.length));
      }
    }
    // The longest real cards come near a message's size, so the limits are really exercised.
    expect(longest).toBeGreaterThan(1500);
  }, 120_000);

  it('every wallet: /wallet alone and together, /trades in tokens they traded', async () => {
    const wallets = market.listing.wallets;
    const cards = [await run('wallet', { wallets: wallets.slice(0, 1) }), await run('wallet', { wallets: wallets.slice(0, 10) })];
    for (const token of market.listing.tokens.slice(0, 12))
      cards.push(await run('trades', { token: token.address, wallets: wallets.slice(0, 10) }));
    for (const address of market.sim.market.hostileTokens()) cards.push(await run('trades', { token: address, wallets }));
    for (const card of cards) renderValid(card, card.title);
  }, 60_000);

  it('help, usage and error cards', async () => {
    const cards: Card[] = [helpCard(commands), ...commands.map((c) => helpCard(commands, c.name)), helpCard(commands, 'nonsense<b>')];
    for (const command of commands) cards.push(cardForError(new UsageError(`Missing thing. Usage: /${command.name}`, command)));
    cards.push(cardForError(new UsageError('Unknown command "/x<b>". Try /help.', null)));
    for (const kind of [
      'invalid-address',
      'not-found',
      'rate-limited',
      'unreachable',
      'timeout',
      'unauthorized',
      'upstream',
      'unreadable',
    ] as const) {
      cards.push(
        cardForError(
          new MarketError({
            kind,
            endpoint: 'token-data',
            status: null,
            message: 'x',
            userMessage: '<b>@everyone</b>',
            retryAfterMs: 5000,
          }),
        ),
      );
    }
    cards.push(cardForError(new Error('/home/secret path <b>')));
    for (const card of cards) renderValid(card, card.title);
  });
});

describe('hostile text anywhere on a card', () => {
  it('every hostile token of the simulator, in every place a card shows text', () => {
    for (const token of HOSTILE_METADATA) {
      const links = Object.entries(token.links ?? {}).map(([name, url]) => link(name, url));
      const card: Card = {
        title: `${token.name} (${token.symbol})`,
        url: token.website ?? undefined,
        description: token.description ? [text(token.description)] : undefined,
        color: 'warning',
        fields: [
          field(token.symbol, token.name, true),
          field('Links', links.length > 0 ? links : '—'),
          field('Website', link(token.name, token.website)),
        ],
        thumbnailUrl: token.logo,
        footer: token.description ?? undefined,
        actions: [{ label: token.name, command: 'chart', args: [ADDRESS] }],
      };
      const [parsed] = renderValid(card, token.label);
      expect(parsed?.text.startsWith('🟡 '), token.label).toBe(true);
    }
  });

  const hostileText = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.constantFrom(
          '<b>',
          '</b>',
          '<a href="x">',
          '&amp;',
          '&',
          '<',
          '>',
          '"',
          '\u202e',
          '\u200b',
          '\n',
          '@admin',
          'https://ok.example/a?b=1&c=<2>',
          'javascript:x',
          ' ',
          '</blockquote>',
          '<code>',
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  const span: fc.Arbitrary<Span> = fc.record(
    {
      text: hostileText,
      style: fc.constantFrom('bold' as const, 'italic' as const, 'code' as const),
      url: fc.oneof(hostileText, fc.constant('https://ok.example/p?q=<x>&y="z"')),
    },
    { requiredKeys: ['text'] },
  );
  const richText: fc.Arbitrary<RichText> = fc.array(span, { maxLength: 5 });
  const cardField: fc.Arbitrary<CardField> = fc.record({ name: hostileText, value: richText, inline: fc.boolean() });
  const card: fc.Arbitrary<Card> = fc.record({
    title: hostileText,
    url: fc.option(hostileText, { nil: undefined }),
    description: fc.option(richText, { nil: undefined }),
    color: fc.constantFrom<CardColor>('safe', 'warning', 'danger', 'neutral', 'info', 'error'),
    fields: fc.array(cardField, { maxLength: 8 }),
    thumbnailUrl: fc.option(hostileText, { nil: undefined }),
    footer: fc.option(hostileText, { nil: undefined }),
    timestamp: fc.option(fc.date(), { nil: undefined }),
    actions: fc.array(fc.record({ label: hostileText, command: hostileText, args: fc.array(hostileText, { maxLength: 3 }) }), {
      maxLength: 4,
    }),
  });

  it('any card: valid Telegram HTML within every limit', () => {
    fc.assert(
      fc.property(card, fc.boolean(), (c, withImage) => {
        const withPicture: Card = withImage
          ? { ...c, image: { filename: 'a.png', contentType: 'image/png', data: new Uint8Array([1]) } }
          : c;
        renderValid(withPicture, 'arbitrary');
      }),
      { numRuns: 400 },
    );
  });

  it('any card scaled up past every limit: still valid and within limits', () => {
    fc.assert(
      fc.property(card, fc.integer({ min: 50, max: 400 }), (c, times) => {
        const big: Card = {
          ...c,
          fields: Array.from({ length: times }, (_, i) => c.fields[i % Math.max(1, c.fields.length)] ?? field(`f${i}`, 'v'.repeat(times))),
        };
        renderValid(big, 'scaled');
      }),
      { numRuns: 60 },
    );
  });
});

describe('the Telegram HTML checker itself', () => {
  it('accepts what Telegram accepts and counts the parsed text', () => {
    const parsed = parseTelegramHtml(
      '<b>a &amp; <i>b</i></b> <a href="https://x.example/?a=1&amp;b=2">l</a> <code>&lt;c&gt;</code> &#128512;<blockquote expandable>q</blockquote>',
    );
    expect(parsed.text).toBe('a & b l <c> 😀q');
    expect(parsed.length).toBe(15); // the emoji is two UTF-16 units
    expect(parsed.links).toEqual(['https://x.example/?a=1&b=2']);
  });

  it.each([
    ['<b>open', 'never closed'],
    ['<b><i>x</b></i>', 'closes'],
    ['<script>x</script>', 'unsupported tag'],
    ['a < b', 'bare'],
    ['a & b', 'bare &'],
    ['&nbsp;', 'unsupported entity'],
    ['<a href="javascript:alert(1)">x</a>', 'not http'],
    ['<a>x</a>', 'without href'],
    ['<a href="https://a.example"><a href="https://b.example">x</a></a>', 'inside a link'],
    ['<b><code>x</code></b>', 'inside a styled run'],
    ['<a href="https://a.example"><code>x</code></a>', 'inside a styled run or link'],
    ['<code><b>x</b></code>', 'inside <code>'],
    ['<blockquote><blockquote>x</blockquote></blockquote>', 'nested'],
    ['<span>x</span>', 'tg-spoiler'],
    ['<b class="x">x</b>', 'attribute'],
    ['<B>x</B>', 'lower case'],
  ])('refuses %s', (html, message) => {
    expect(() => parseTelegramHtml(html)).toThrow(message);
  });
});
