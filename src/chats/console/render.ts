/**
 * Card → plain text for a terminal. Every piece of text on a card may come from a stranger, so
 * all of it is cleaned first (no control, invisible or bidi characters, no terminal escapes); the
 * only escape sequences in the output are the colours this renderer adds when asked to.
 *
 * Layout, each block separated by a blank line when present:
 *
 *   [DANGER] Title                       ← risk marker from the card's colour
 *   https://card.url
 *
 *     Description…                       ← indented, so it never starts a line like a field
 *
 *   Price: $0.0₅2867 │ Liquidity: $45K   ← inline fields share lines up to the width
 *   Pools:                               ← multi-line values go below their name, indented
 *     Raydium …
 *
 *   logo: https://…
 *   [image: chart.png]
 *   footer · 2024-05-01T12:00:00Z
 *   Try: /chart ADDR · /holders ADDR
 *
 * Widths are counted in graphemes. A line is longer than the width only when it holds a single
 * word that must not be broken: a URL, or an ASCII token of at most 96 characters such as an
 * address or a transaction signature, which a reader needs to copy whole.
 */
import type { Card, CardColor, CardField, RichText, SpanStyle } from '../../cards/card';
import { cleanText, graphemeCount, safeUrl, stripUnsafeChars, truncateText } from '../../cards/sanitize';

export interface TextRenderOptions {
  /** Line width in characters; 80 by default, at least 20. */
  width?: number;
  /** Add ANSI colours (for a terminal). */
  color?: boolean;
}

const DEFAULT_WIDTH = 80;
const MIN_WIDTH = 20;
const MAX_WIDTH = 1000;
const INDENT = 2;

/** Limits in the spirit of Discord's embed limits, so no single piece floods a terminal. */
const MAX_TITLE = 256;
const MAX_FIELD_NAME = 256;
const MAX_SPAN = 1024;
const MAX_FOOTER = 2048;
const MAX_FILENAME = 128;
const MAX_COMMAND = 32;
const MAX_ARG = 128;

const MAX_UNBREAKABLE_ASCII = 96;

/** SGR parameters of each style; a piece without one is printed as is. */
type Ansi = string | undefined;

const MARKERS: Record<CardColor, { label: string; ansi: Ansi } | null> = {
  safe: { label: 'SAFE', ansi: '1;32' },
  warning: { label: 'WARNING', ansi: '1;33' },
  danger: { label: 'DANGER', ansi: '1;31' },
  error: { label: 'ERROR', ansi: '1;31' },
  info: null,
  neutral: null,
};

const SPAN_ANSI: Record<SpanStyle, Ansi> = { bold: '1', italic: '3', code: '36' };
const LINK_ANSI = '4;34';
const NAME_ANSI = '1';
const QUIET_ANSI = '2';

interface Piece {
  text: string;
  ansi?: Ansi;
}

/** Text between two spaces; pieces of different styles may touch inside it. */
interface Word {
  pieces: Piece[];
  /** Kept whole even when longer than a line. */
  unbreakable?: boolean;
}

type Paragraph = Word[];

function word(textValue: string, ansi?: Ansi, unbreakable = false): Word {
  return { pieces: [{ text: textValue, ansi }], unbreakable };
}

function wordWidth(w: Word): number {
  return w.pieces.reduce((sum, piece) => sum + graphemeCount(piece.text), 0);
}

function wordsOf(cleaned: string, ansi?: Ansi): Word[] {
  return cleaned
    .split(' ')
    .filter((part) => part !== '')
    .map((part) => word(part, ansi, isCopyableToken(part)));
}

function isCopyableToken(s: string): boolean {
  return s.length <= MAX_UNBREAKABLE_ASCII && /^[\x21-\x7e]+$/.test(s);
}

/**
 * Rich text as paragraphs of words. Span texts are stripped of unsafe characters but keep their
 * spaces until here, so "Price" + " " + "$1" still reads "Price $1". A link shows as "label <url>",
 * or the bare URL when it has no label of its own; an unsafe link shows its label only.
 */
function richParagraphs(value: RichText, multiline: boolean): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let paragraph: Paragraph = [];
  let pieces: Piece[] = [];
  // The link just shown, while no space has followed it: "<url>," keeps its comma.
  let openLink: Word | null = null;
  const endWord = () => {
    if (pieces.length > 0) {
      paragraph.push({ pieces, unbreakable: isCopyableToken(pieces.map((p) => p.text).join('')) });
      pieces = [];
    }
  };
  const endParagraph = () => {
    endWord();
    paragraphs.push(paragraph);
    paragraph = [];
  };
  const pushText = (s: string, ansi: Ansi) => {
    for (const part of s.split(/(\n|[^\S\n]+)/u)) {
      if (part === '') continue;
      if (part === '\n') {
        openLink = null;
        if (multiline) endParagraph();
        else endWord();
      } else if (/^\s+$/u.test(part)) {
        openLink = null;
        endWord();
      } else if (openLink !== null && pieces.length === 0) {
        openLink.pieces.push({ text: part, ansi });
      } else {
        pieces.push({ text: part, ansi });
      }
    }
  };

  for (const span of value) {
    const label = truncateText(stripUnsafeChars(typeof span.text === 'string' ? span.text : ''), MAX_SPAN);
    const url = span.url === undefined ? null : safeUrl(span.url);
    const ansi = span.style === undefined ? undefined : SPAN_ANSI[span.style];
    if (url === null) {
      pushText(label, ansi);
      continue;
    }
    // A link's label is one line, as every platform's link markup requires.
    const shown = label.replace(/\s+/gu, ' ').trim();
    if (shown !== '' && shown !== url) {
      pushText(label.replace(/\n/g, ' '), ansi);
      endWord();
      openLink = word(`<${url}>`, LINK_ANSI, true);
    } else {
      endWord();
      openLink = word(url, LINK_ANSI, true);
    }
    paragraph.push(openLink);
  }
  endParagraph();
  return tidyParagraphs(paragraphs);
}

/** Drops blank paragraphs at either end and keeps at most one blank one in a row. */
function tidyParagraphs(paragraphs: Paragraph[]): Paragraph[] {
  const out: Paragraph[] = [];
  for (const p of paragraphs) {
    const previous = out[out.length - 1];
    if (p.length === 0 && (previous === undefined || previous.length === 0)) continue;
    out.push(p);
  }
  while (out.length > 0 && out[out.length - 1]?.length === 0) out.pop();
  return out;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits a word after `size` graphemes, keeping each grapheme's style. */
function splitWordAt(w: Word, size: number): [Word, Word] {
  const head: Piece[] = [];
  const tail: Piece[] = [];
  let count = 0;
  for (const piece of w.pieces) {
    for (const { segment } of graphemeSegmenter.segment(piece.text)) {
      const side = count < size ? head : tail;
      const last = side[side.length - 1];
      if (last !== undefined && last.ansi === piece.ansi) last.text += segment;
      else side.push({ text: segment, ansi: piece.ansi });
      count += 1;
    }
  }
  return [{ pieces: head }, { pieces: tail }];
}

class Writer {
  readonly lines: string[] = [];

  constructor(
    readonly width: number,
    readonly color: boolean,
  ) {}

  private paint(piece: Piece): string {
    return this.color && piece.ansi !== undefined ? `\u001b[${piece.ansi}m${piece.text}\u001b[0m` : piece.text;
  }

  /**
   * Writes words across as many lines as needed: the first line starts at `firstIndent`, the
   * following ones at `restIndent`. A word longer than a whole line is cut to fill the lines it
   * runs over, unless it is unbreakable: then it gets a line of its own.
   */
  wrap(words: Word[], firstIndent = 0, restIndent = firstIndent + INDENT): void {
    let indent = firstIndent;
    let line: string[] = [];
    let used = indent;
    const flush = () => {
      this.lines.push(' '.repeat(indent) + line.join(' '));
      line = [];
      indent = restIndent;
      used = indent;
    };
    const queue = [...words];
    for (let w = queue.shift(); w !== undefined; w = queue.shift()) {
      const size = wordWidth(w);
      const gap = line.length === 0 ? 0 : 1;
      const room = this.width - used - gap;
      if (size <= room) {
        line.push(w.pieces.map((piece) => this.paint(piece)).join(''));
        used += gap + size;
      } else if (!w.unbreakable && room >= 1 && (line.length === 0 || size > this.width - restIndent)) {
        queue.unshift(...splitWordAt(w, room));
      } else if (line.length > 0) {
        queue.unshift(w);
        flush();
      } else {
        line.push(w.pieces.map((piece) => this.paint(piece)).join(''));
        flush();
      }
    }
    if (line.length > 0 || this.lines.length === 0) flush();
  }

  blank(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') this.lines.push('');
  }
}

function fieldName(field: CardField): Word[] {
  const name = cleanText(field.name, MAX_FIELD_NAME);
  return name === '' ? [] : wordsOf(`${name}:`, NAME_ANSI);
}

const EMPTY_VALUE: Paragraph[] = [[word('—')]];

function fieldValue(field: CardField): Paragraph[] {
  const paragraphs = richParagraphs(Array.isArray(field.value) ? field.value : [], true);
  return paragraphs.length === 0 ? EMPTY_VALUE : paragraphs;
}

function writeField(out: Writer, field: CardField): void {
  const name = fieldName(field);
  const value = fieldValue(field);
  const [first, ...rest] = value;
  if (rest.length === 0 && first !== undefined) {
    out.wrap([...name, ...first], 0, INDENT);
    return;
  }
  if (name.length > 0) out.wrap(name, 0, INDENT);
  for (const paragraph of value) {
    if (paragraph.length === 0) out.lines.push('');
    else out.wrap(paragraph, INDENT, INDENT * 2);
  }
}

const INLINE_SEPARATOR: Word = word('│', QUIET_ANSI);

/** Consecutive inline fields share lines, separated by "│", as long as each fits on one line. */
function writeFields(out: Writer, fields: readonly CardField[]): void {
  let row: Word[][] = [];
  let rowWidth = 0;
  const flushRow = () => {
    if (row.length === 0) return;
    out.wrap(row.flatMap((words, index) => (index === 0 ? words : [INLINE_SEPARATOR, ...words])), 0, INDENT);
    row = [];
    rowWidth = 0;
  };
  for (const field of fields) {
    const words = [...fieldName(field), ...fieldValue(field).flat()];
    const width = words.reduce((sum, w) => sum + wordWidth(w), 0) + Math.max(0, words.length - 1);
    if (field.inline !== true || width > out.width) {
      flushRow();
      writeField(out, field);
      continue;
    }
    const widthWithRow = row.length === 0 ? width : rowWidth + 3 + width;
    if (widthWithRow > out.width) flushRow();
    rowWidth = row.length === 0 ? width : rowWidth + 3 + width;
    row.push(words);
  }
  flushRow();
}

function isoTime(date: Date | undefined): string | null {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

/** "Try: /chart ADDR · /holders ADDR"; each command stays on one line when it fits in one. */
function actionWords(card: Card, width: number): Word[] {
  const words: Word[] = [];
  for (const action of card.actions ?? []) {
    const command = cleanText(action.command, MAX_COMMAND).replace(/^\/+/, '').replace(/ /g, '');
    if (command === '') continue;
    if (words.length > 0) words.push(word('·', QUIET_ANSI));
    const args = (action.args ?? []).map((arg) => cleanText(arg, MAX_ARG)).filter((arg) => arg !== '');
    const whole = [`/${command}`, ...args].join(' ');
    if (graphemeCount(whole) <= width - INDENT) words.push(word(whole, undefined, true));
    else words.push(word(`/${command}`, undefined, true), ...args.flatMap((arg) => wordsOf(arg)));
  }
  return words.length === 0 ? [] : [word('Try:', QUIET_ANSI), ...words];
}

export function renderCardText(card: Card, options: TextRenderOptions = {}): string {
  const requested = options.width ?? DEFAULT_WIDTH;
  const width = Number.isFinite(requested) ? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.floor(requested))) : DEFAULT_WIDTH;
  const out = new Writer(width, options.color === true);

  const marker = MARKERS[card.color] ?? null;
  const title = cleanText(card.title, MAX_TITLE, '(untitled)');
  out.wrap([...(marker ? [word(`[${marker.label}]`, marker.ansi)] : []), ...wordsOf(title, NAME_ANSI)], 0, INDENT);
  const url = safeUrl(card.url);
  if (url !== null) out.wrap([word(url, LINK_ANSI, true)]);

  const description = card.description ? richParagraphs(card.description, true) : [];
  if (description.length > 0) {
    out.blank();
    // Indented, so a description written by a stranger can never start a line the way a real
    // field ("Risk: SAFE") does.
    for (const paragraph of description) {
      if (paragraph.length === 0) out.lines.push('');
      else out.wrap(paragraph, INDENT, INDENT);
    }
  }

  const fields = Array.isArray(card.fields) ? card.fields : [];
  if (fields.length > 0) {
    out.blank();
    writeFields(out, fields);
  }

  const thumbnail = safeUrl(card.thumbnailUrl);
  const image = card.image ? cleanText(card.image.filename, MAX_FILENAME, 'image') : null;
  const footer = [cleanText(card.footer, MAX_FOOTER), isoTime(card.timestamp) ?? ''].filter((part) => part !== '').join(' · ');
  const actions = actionWords(card, width);
  if (thumbnail !== null || image !== null || footer !== '' || actions.length > 0) out.blank();
  if (thumbnail !== null) out.wrap([word('logo:', QUIET_ANSI), word(thumbnail, LINK_ANSI, true)]);
  if (image !== null) out.wrap(wordsOf(`[image: ${image}]`));
  if (footer !== '') out.wrap(wordsOf(footer, QUIET_ANSI), 0, 0);
  if (actions.length > 0) out.wrap(actions, 0, INDENT);

  return `${out.lines.map((line) => line.trimEnd()).join('\n')}\n`;
}
