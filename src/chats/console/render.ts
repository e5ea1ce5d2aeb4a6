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
import { cleanText, graphemeCount, isOneUnitGrapheme, safeUrl, stripUnsafeChars, truncateText } from '../../cards/sanitize';

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

// Pieces and words are made with every field set, so that each kind keeps one shape.
interface Piece {
  text: string;
  ansi: Ansi;
  /** Graphemes, when known from reading the text; -1 when still to count (graphemeCount). */
  width: number;
}

/** Text between two spaces; pieces of different styles may touch inside it. */
interface Word {
  pieces: Piece[];
  /** Kept whole even when longer than a line. */
  unbreakable: boolean;
  /** Graphemes, once counted (wordWidth); -1 before. */
  width: number;
}

type Paragraph = Word[];

function word(textValue: string, ansi?: Ansi, unbreakable = false): Word {
  return { pieces: [{ text: textValue, ansi, width: -1 }], unbreakable, width: -1 };
}

/** A word's width in graphemes, counted once: a word is measured when its row is planned and again when it is laid out. */
function wordWidth(w: Word): number {
  if (w.width >= 0) return w.width;
  let width = 0;
  for (const piece of w.pieces) width += piece.width >= 0 ? piece.width : graphemeCount(piece.text);
  w.width = width;
  return width;
}

/** The words of a text cleaned to one line, read as any span's text is (ParagraphBuilder). */
function wordsOf(cleaned: string, ansi?: Ansi): Word[] {
  const builder = new ParagraphBuilder(false);
  builder.pushText(cleaned, ansi);
  builder.endParagraph();
  return builder.paragraphs[0] ?? [];
}

/**
 * What `\s` matches, a line feed aside: tab, vertical tab, form feed, carriage return, the
 * space separators (Zs), the line and paragraph separators and U+FEFF. Read code by code, so that
 * splitting a span into words takes no regular expression per span.
 */
function isBlank(code: number): boolean {
  if (code > 0x20 && code < 0xa0) return false;
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d && code !== 0x0a) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Spans made into paragraphs of words, one span at a time. Span texts are stripped of unsafe
 * characters but keep their spaces until here, so "Price" + " " + "$1" still reads "Price $1".
 */
class ParagraphBuilder {
  readonly paragraphs: Paragraph[] = [];
  private paragraph: Paragraph = [];
  private pieces: Piece[] = [];
  /** Whether the pieces of the word being read are all printable ASCII, and their length: a word that is, up to 96 characters, stays whole. */
  private ascii = true;
  private length = 0;
  /** The link just shown, while no space has followed it: "<url>," keeps its comma. */
  private openLink: Word | null = null;

  constructor(private readonly multiline: boolean) {}

  endWord(): void {
    const pieces = this.pieces;
    if (pieces.length === 0) return;
    this.paragraph.push({ pieces, unbreakable: this.ascii && this.length <= MAX_UNBREAKABLE_ASCII, width: -1 });
    this.pieces = [];
    this.ascii = true;
    this.length = 0;
  }

  endParagraph(): void {
    this.endWord();
    this.paragraphs.push(this.paragraph);
    this.paragraph = [];
  }

  /** Text cut at line feeds (a new paragraph, or a word break on one line) and at runs of other white space. */
  pushText(s: string, ansi: Ansi): void {
    const length = s.length;
    let index = 0;
    while (index < length) {
      const code = s.charCodeAt(index);
      if (code === 0x0a) {
        this.openLink = null;
        if (this.multiline) this.endParagraph();
        else this.endWord();
        index += 1;
        continue;
      }
      let end = index + 1;
      if (isBlank(code)) {
        while (end < length && s.charCodeAt(end) !== 0x0a && isBlank(s.charCodeAt(end))) end += 1;
        this.openLink = null;
        this.endWord();
        index = end;
        continue;
      }
      // A piece's width and whether it is printable ASCII are read on the way: nearly every piece
      // is one grapheme per code unit, and then needs no counting.
      let ascii = code >= 0x21 && code <= 0x7e;
      let simple = ascii || isOneUnitGrapheme(code);
      while (end < length) {
        const next = s.charCodeAt(end);
        if (next === 0x0a || isBlank(next)) break;
        if (next > 0x7e || next < 0x21) {
          ascii = false;
          if (simple && !isOneUnitGrapheme(next)) simple = false;
        }
        end += 1;
      }
      const piece: Piece = { text: s.slice(index, end), ansi, width: simple ? end - index : -1 };
      if (this.openLink !== null && this.pieces.length === 0) this.openLink.pieces.push(piece);
      else {
        this.pieces.push(piece);
        this.ascii &&= ascii;
        this.length += end - index;
      }
      index = end;
    }
  }

  /**
   * A link shows as "label <url>", or the bare URL when it has no label of its own; its label is
   * one line, as every platform's link markup requires.
   */
  pushLink(label: string, url: string, ansi: Ansi): void {
    const shown = label.replace(/\s+/gu, ' ').trim();
    let link: Word;
    if (shown !== '' && shown !== url) {
      this.pushText(label.replace(/\n/g, ' '), ansi);
      this.endWord();
      link = word(`<${url}>`, LINK_ANSI, true);
    } else {
      this.endWord();
      link = word(url, LINK_ANSI, true);
    }
    this.openLink = link;
    this.paragraph.push(link);
  }
}

/**
 * Rich text as paragraphs of words. A link shows as "label <url>", or the bare URL when it has no
 * label of its own; an unsafe link shows its label only.
 */
function richParagraphs(value: RichText, multiline: boolean): Paragraph[] {
  const builder = new ParagraphBuilder(multiline);
  for (const span of value) {
    const label = truncateText(stripUnsafeChars(typeof span.text === 'string' ? span.text : ''), MAX_SPAN);
    const url = span.url === undefined ? null : safeUrl(span.url);
    const ansi = span.style === undefined ? undefined : SPAN_ANSI[span.style];
    if (url === null) builder.pushText(label, ansi);
    else builder.pushLink(label, url, ansi);
  }
  builder.endParagraph();
  return tidyParagraphs(builder.paragraphs);
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
      else side.push({ text: segment, ansi: piece.ansi, width: -1 });
      count += 1;
    }
  }
  return [
    { pieces: head, unbreakable: false, width: -1 },
    { pieces: tail, unbreakable: false, width: -1 },
  ];
}

class Writer {
  readonly lines: string[] = [];

  constructor(
    readonly width: number,
    readonly color: boolean,
  ) {}

  private paint(w: Word): string {
    let out = '';
    for (const piece of w.pieces) {
      out += this.color && piece.ansi !== undefined ? `\u001b[${piece.ansi}m${piece.text}\u001b[0m` : piece.text;
    }
    return out;
  }

  /**
   * Writes words across as many lines as needed: the first line starts at `firstIndent`, the
   * following ones at `restIndent`. A word longer than a whole line is cut to fill the lines it
   * runs over, unless it is unbreakable: then it gets a line of its own.
   */
  wrap(words: readonly Word[], firstIndent = 0, restIndent = firstIndent + INDENT): void {
    let indent = firstIndent;
    let line = '';
    let count = 0;
    let used = indent;
    // Words put back to be taken before the rest (the two halves of a cut word, a word moved to the next line), last first.
    const putBack: Word[] = [];
    let next = 0;
    for (;;) {
      const w = putBack.length > 0 ? putBack.pop() : words[next++];
      if (w === undefined) break;
      const size = wordWidth(w);
      const gap = count === 0 ? 0 : 1;
      const room = this.width - used - gap;
      if (size <= room) {
        line += gap === 0 ? this.paint(w) : ` ${this.paint(w)}`;
        count += 1;
        used += gap + size;
      } else if (!w.unbreakable && room >= 1 && (count === 0 || size > this.width - restIndent)) {
        const [head, tail] = splitWordAt(w, room);
        putBack.push(tail, head);
      } else if (count > 0) {
        putBack.push(w);
        this.lines.push(' '.repeat(indent) + line);
        line = '';
        count = 0;
        indent = restIndent;
        used = indent;
      } else {
        this.lines.push(' '.repeat(indent) + this.paint(w));
        indent = restIndent;
        used = indent;
      }
    }
    if (count > 0 || this.lines.length === 0) this.lines.push(' '.repeat(indent) + line);
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

function writeField(out: Writer, name: Word[], value: Paragraph[]): void {
  const first = value[0];
  if (value.length === 1 && first !== undefined) {
    out.wrap(name.length === 0 ? first : [...name, ...first], 0, INDENT);
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
  let row: Word[] = [];
  let rowWidth = 0;
  for (const field of fields) {
    const name = fieldName(field);
    const value = fieldValue(field);
    let width = -1;
    let words = 0;
    for (const w of name) {
      width += wordWidth(w) + 1;
      words += 1;
    }
    for (const paragraph of value) {
      for (const w of paragraph) {
        width += wordWidth(w) + 1;
        words += 1;
      }
    }
    if (words === 0) width = 0;
    if (field.inline !== true || width > out.width) {
      if (row.length > 0) out.wrap(row, 0, INDENT);
      row = [];
      writeField(out, name, value);
      continue;
    }
    const widthWithRow = row.length === 0 ? width : rowWidth + 3 + width;
    if (widthWithRow > out.width) {
      if (row.length > 0) out.wrap(row, 0, INDENT);
      row = [];
    }
    rowWidth = row.length === 0 ? width : rowWidth + 3 + width;
    if (row.length > 0) row.push(INLINE_SEPARATOR);
    for (const w of name) row.push(w);
    for (const paragraph of value) for (const w of paragraph) row.push(w);
  }
  if (row.length > 0) out.wrap(row, 0, INDENT);
}

function isoTime(date: Date | undefined): string | null {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** "Try: /chart ADDR · /holders ADDR"; each command stays on one line when it fits in one. */
function actionWords(card: Card, width: number): Word[] {
  const words: Word[] = [];
  for (const action of card.actions ?? []) {
    const command = cleanText(action.command, MAX_COMMAND).replace(/^\/+/, '').replace(/ /g, '');
    if (command === '') continue;
    if (words.length > 0) words.push(word('·', QUIET_ANSI));
    let whole = `/${command}`;
    const args: string[] = [];
    for (const raw of action.args ?? []) {
      const arg = cleanText(raw, MAX_ARG);
      if (arg === '') continue;
      args.push(arg);
      whole += ` ${arg}`;
    }
    if (graphemeCount(whole) <= width - INDENT) words.push(word(whole, undefined, true));
    else {
      words.push(word(`/${command}`, undefined, true));
      for (const arg of args) for (const w of wordsOf(arg)) words.push(w);
    }
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

  let text = '';
  for (const line of out.lines) text += `${line.trimEnd()}\n`;
  return text;
}
