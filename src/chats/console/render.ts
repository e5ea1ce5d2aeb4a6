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
 * Widths are terminal columns as string-width counts them (a CJK character or an emoji takes two,
 * a combining mark none), and a word wider than a line is cut between graphemes with its colour
 * closed and opened again across the cut. A
 * line is longer than the width only when it holds a single word that must not be broken: a URL,
 * or an ASCII token of at most 96 characters such as an address or a transaction signature, which
 * a reader needs to copy whole.
 */
import stringWidth from 'string-width';
import type { Card, CardColor, CardField, RichText, SpanStyle } from '../../cards/card';
import { BLANK, charClass, isPrintableAscii } from '../../text/charClass';
import { cleanText, safeUrl, stripUnsafeChars, truncateText } from '../../text/sanitize';
import { cardTime } from '../../text/format';

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

/**
 * Joins the parts of a word that must not be broken at its spaces (a command and its arguments):
 * lines break only between words, and every white space of a card's text was read as a word
 * break, so the joiner is never a stranger's and becomes a space again in the printed text.
 */
const JOINER = '\u00a0';

/** A word as laid out: printed text (in colour when asked), width in terminal columns, and whether it stays whole. */
interface Word {
  painted: string;
  width: number;
  whole: boolean;
}

function paint(text: string, ansi: Ansi, color: boolean): string {
  return color && ansi !== undefined ? `\u001b[${ansi}m${text}\u001b[0m` : text;
}

/** A word the renderer makes itself (a marker, a URL, a command), measured in terminal columns. */
function ownWord(own: string, ansi: Ansi, whole: boolean, color: boolean): Word {
  const text = own.normalize('NFC');
  return { painted: paint(text, ansi, color), width: columns(text), whole };
}

/**
 * Reads text into paragraphs of words: words are cut at runs of white space, paragraphs at line
 * feeds when the text may hold several lines (otherwise a line feed only ends a word). Span texts
 * keep their spaces until here, so "Price" + " " + "$1" still reads "Price $1", and pieces of
 * different styles may touch inside one word ("<url>," keeps its comma). Paragraphs are tidied
 * as they end: no blank one first, never two blank ones in a row, and none last.
 */
class WordReader {
  readonly paragraphs: Word[][] = [];
  private paragraph: Word[] = [];
  private painted = '';
  private plain = '';
  /** The word under way began with a link's URL: it stays whole, with what touches it. */
  private link = false;

  constructor(
    private readonly color: boolean,
    private readonly multiline: boolean,
  ) {}

  endWord(): void {
    if (this.plain === '') return;
    const plain = this.plain;
    const ascii = isAsciiWord(plain);
    const width = ascii ? plain.length : columns(plain);
    this.paragraph.push({ painted: this.painted, width, whole: this.link || (ascii && plain.length <= MAX_UNBREAKABLE_ASCII) });
    this.painted = '';
    this.plain = '';
    this.link = false;
  }

  private endParagraph(): void {
    this.endWord();
    const words = this.paragraph;
    this.paragraph = [];
    const last = this.paragraphs[this.paragraphs.length - 1];
    // A blank paragraph first, or after another blank one, is left out.
    if (words.length === 0 && (last === undefined || last.length === 0)) return;
    this.paragraphs.push(words);
  }

  /** Ends the text: its last paragraph, and no blank paragraph at the end. */
  finish(): Word[][] {
    this.endParagraph();
    while (this.paragraphs.length > 0 && this.paragraphs[this.paragraphs.length - 1]?.length === 0) this.paragraphs.pop();
    return this.paragraphs;
  }

  /** Text cut at line feeds (a new paragraph, or a word break on one line) and at runs of other white space. */
  pushText(s: string, ansi: Ansi): void {
    let start = 0;
    for (let index = 0; index <= s.length; index++) {
      const code = index < s.length ? s.charCodeAt(index) : 0x20;
      if (isPrintableAscii(code) || (code !== 0x0a && (charClass(code) & BLANK) === 0)) continue;
      if (index > start) this.addPiece(s.slice(start, index), ansi);
      if (index < s.length) {
        if (code === 0x0a && this.multiline) this.endParagraph();
        else this.endWord();
      }
      start = index + 1;
    }
  }

  private addPiece(piece: string, ansi: Ansi): void {
    // Composed (NFC), as a terminal shows it: "e" + U+0301 and "é" are one grapheme either way, and
    // the text printed is the same with colour and without.
    const text = piece.normalize('NFC');
    this.painted += paint(text, ansi, this.color);
    this.plain += text;
  }

  /**
   * A link shows as "label <url>", or the bare URL when it has no label of its own; its label is
   * one line, as every platform's link markup requires.
   */
  pushLink(label: string, url: string, ansi: Ansi): void {
    const shown = label.replace(/\s+/gu, ' ').trim();
    if (shown !== '' && shown !== url) {
      this.pushText(label.replace(/\n/g, ' '), ansi);
      this.endWord();
      url = `<${url}>`;
    } else this.endWord();
    this.addPiece(url, LINK_ANSI);
    this.link = true;
  }
}

/** Widths of short words already measured: string-width takes some 15 µs for a word that is not ASCII. */
const widths = new Map<string, number>();
const WIDTHS_KEPT = 4096;
const MEASURED_MAX_LENGTH = 32;

/** Terminal columns, as string-width counts them. */
function columns(plain: string): number {
  if (isAsciiWord(plain)) return plain.length;
  if (plain.length > MEASURED_MAX_LENGTH) return stringWidth(plain);
  let width = widths.get(plain);
  if (width === undefined) {
    width = stringWidth(plain);
    if (widths.size >= WIDTHS_KEPT) widths.clear();
    widths.set(plain, width);
  }
  return width;
}

/** A word of printable ASCII only: one column a character, so its width is its length. */
function isAsciiWord(s: string): boolean {
  for (let index = 0; index < s.length; index++) if (!isPrintableAscii(s.charCodeAt(index))) return false;
  return true;
}

/** The words of a text cleaned to one line, read as the text of a span is. */
function wordsOf(cleaned: string, ansi: Ansi, color: boolean): Word[] {
  const reader = new WordReader(color, false);
  reader.pushText(cleaned, ansi);
  return reader.finish()[0] ?? [];
}

/**
 * Rich text as paragraphs of words. A link shows as "label <url>", or the bare URL when it has no
 * label of its own; an unsafe link shows its label only.
 */
function readRich(value: RichText, multiline: boolean, color: boolean): Word[][] {
  const reader = new WordReader(color, multiline);
  for (const span of value) {
    const label = truncateText(stripUnsafeChars(typeof span.text === 'string' ? span.text : ''), MAX_SPAN);
    const url = span.url === undefined ? null : safeUrl(span.url);
    const ansi = span.style === undefined ? undefined : SPAN_ANSI[span.style];
    if (url === null) reader.pushText(label, ansi);
    else reader.pushLink(label, url, ansi);
  }
  return reader.finish();
}

function joined(words: readonly Word[]): string {
  let line = words[0]?.painted ?? '';
  for (let index = 1; index < words.length; index++) line += ` ${words[index]?.painted ?? ''}`;
  return line;
}

/** Columns the words take on one line, one space apart. */
function lineWidth(words: readonly Word[]): number {
  let width = -1;
  for (const word of words) width += word.width + 1;
  return width;
}

/** Graphemes as a reader sees them: a letter and its combining marks, an emoji sequence, are one. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A word cut after `columns` columns, between two graphemes, or null when its first grapheme alone
 * is wider (a wide character with one column left). The cut is found on the plain text, whatever
 * the colours (across a colour change, a combining mark in a bold span after a plain letter is
 * still the letter's), and the colour open at the cut is closed on the head and opened again on
 * the rest. wrap-ansi's hard cut is not used here: it normalises its text (NFC), so what it gives
 * back is not always a piece of what it was given.
 */
function cut(word: Word, columns: number): [Word, Word] | null {
  const plain = word.painted.replace(OWN_CODE, '');
  let length = 0;
  let width = 0;
  for (const { segment } of GRAPHEMES.segment(plain)) {
    const next = stringWidth(segment);
    if (width + next > columns) break;
    width += next;
    length += segment.length;
  }
  if (width === 0 || length >= plain.length) return null;
  const [head, rest] = plain === word.painted ? [plain.slice(0, length), plain.slice(length)] : splitPainted(word.painted, length);
  return [
    { painted: head, width, whole: false },
    { painted: rest, width: word.width - width, whole: false },
  ];
}

/** The renderer's own colour codes (paint): `ESC[…m`, each piece closed by `ESC[0m`. */
const OWN_CODE = /\u001b\[[0-9;]*m/g;

/**
 * Painted text cut after `visible` code units of its plain text: the colour open at the cut is
 * closed on the head and opened again on the rest.
 */
function splitPainted(painted: string, visible: number): [string, string] {
  let seen = 0;
  let open: string | null = null;
  let index = 0;
  while (index < painted.length && seen < visible) {
    const code = /^\u001b\[([0-9;]*)m/.exec(painted.slice(index));
    if (code !== null) {
      open = code[1] === '0' ? null : (code[1] ?? null);
      index += code[0].length;
      continue;
    }
    index += 1;
    seen += 1;
  }
  const head = painted.slice(0, index);
  const rest = painted.slice(index);
  return open === null ? [head, rest] : [`${head}\u001b[0m`, `\u001b[${open}m${rest}`];
}

/** The card's lines as they are written. No line ends with white space: words hold none. */
class Writer {
  readonly lines: string[] = [];

  constructor(readonly width: number) {}

  /**
   * Writes words across as many lines as needed, the first starting at `firstIndent`, the others
   * at `restIndent`. Lines are filled a word at a time, with the hanging indent and the words that
   * stay whole that wrap-ansi lacks (filling lines with wrap-ansi costs some 240 µs a line, about
   * ten times what a whole card takes: docs/development.md). A word that does not fit goes to the next line; one wider
   * than any line is cut to fill the room left, unless it must stay whole: then it gets a line of
   * its own.
   */
  wrap(words: readonly Word[], firstIndent = 0, restIndent = firstIndent + INDENT): void {
    let indent = firstIndent;
    let line = '';
    // Columns the line's words and the spaces between them take; -1 while it has none.
    let used = -1;
    const endLine = () => {
      this.lines.push(' '.repeat(indent) + line);
      indent = restIndent;
      line = '';
      used = -1;
    };
    // Words still to place, the next one last: a cut word's two halves are put back here.
    const pending = [...words].reverse();
    for (let word = pending.pop(); word !== undefined; word = pending.pop()) {
      const room = this.width - indent - used - 1;
      if (word.width <= room) {
        line = used < 0 ? word.painted : `${line} ${word.painted}`;
        used += 1 + word.width;
        continue;
      }
      const halves = !word.whole && word.width > this.width - restIndent && room >= 1 ? cut(word, room) : null;
      if (halves !== null) pending.push(halves[1], halves[0]);
      else if (used >= 0) {
        endLine();
        pending.push(word);
      } else {
        line = word.painted;
        endLine();
      }
    }
    if (used >= 0) endLine();
    else if (this.lines.length === 0) this.lines.push('');
  }

  /** An empty line between two blocks, unless the last line is one already. */
  blank(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') this.lines.push('');
  }
}

const EMPTY_VALUE = '—';

/** A field read: its name ("Name:") as words, and its value's paragraphs ("—" when it has none). */
interface ReadField {
  name: Word[];
  value: Word[][];
}

function readField(field: CardField, color: boolean): ReadField {
  const name = cleanText(field.name, MAX_FIELD_NAME);
  const value = readRich(Array.isArray(field.value) ? field.value : [], true, color);
  return {
    name: name === '' ? [] : wordsOf(`${name}:`, NAME_ANSI, color),
    value: value.length > 0 ? value : [[ownWord(EMPTY_VALUE, undefined, false, color)]],
  };
}

/** A field on lines of its own: a one-paragraph value follows the name, a longer one goes below it. */
function writeField(writer: Writer, field: ReadField): void {
  const [first = [], ...more] = field.value;
  if (more.length === 0) {
    writer.wrap([...field.name, ...first], 0, INDENT);
    return;
  }
  if (field.name.length > 0) writer.wrap(field.name, 0, INDENT);
  writeParagraphs(writer, field.value, INDENT, INDENT * 2);
}

/** Paragraphs, each wrapped from `firstIndent`; an empty one is an empty line. */
function writeParagraphs(writer: Writer, paragraphs: readonly Word[][], firstIndent: number, restIndent: number): void {
  for (const words of paragraphs) {
    if (words.length === 0) writer.lines.push('');
    else writer.wrap(words, firstIndent, restIndent);
  }
}

/** Consecutive inline fields share lines, separated by "│", as long as each fits on one line. */
function writeFields(writer: Writer, fields: readonly CardField[], color: boolean): void {
  const separator = ` ${paint('│', QUIET_ANSI, color)} `;
  let row = '';
  let rowWidth = 0;
  for (const field of fields) {
    const read = readField(field, color);
    const words = [...read.name, ...read.value.flat()];
    const width = lineWidth(words);
    if (field.inline !== true || width > writer.width) {
      if (row !== '') writer.lines.push(row);
      row = '';
      writeField(writer, read);
      continue;
    }
    if (row !== '' && rowWidth + 3 + width > writer.width) {
      writer.lines.push(row);
      row = '';
    }
    if (row === '') {
      row = joined(words);
      rowWidth = width;
    } else {
      row += separator + joined(words);
      rowWidth += 3 + width;
    }
  }
  if (row !== '') writer.lines.push(row);
}

/** The card's moment as every card writes it (cardTime), as Telegram's footer does too. */
function footerTime(date: Date | undefined): string | null {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return null;
  return cardTime(date);
}

/** "Try: /chart ADDR · /holders ADDR"; each command stays on one line when it fits in one. */
function actionWords(card: Card, width: number, color: boolean): Word[] {
  const words: Word[] = [];
  for (const action of card.actions ?? []) {
    const command = cleanText(action.command, MAX_COMMAND).replace(/^\/+/, '').replace(/ /g, '');
    if (command === '') continue;
    words.push(ownWord(words.length === 0 ? 'Try:' : '·', QUIET_ANSI, false, color));
    const args: string[] = [];
    for (const raw of action.args ?? []) {
      const arg = cleanText(raw, MAX_ARG);
      if (arg !== '') args.push(arg);
    }
    const parts = [`/${command}`, ...args];
    // Measured a part at a time: most are ASCII, which needs no counting, and the joiner is one column.
    const whole: Word = { painted: parts.join(JOINER), width: parts.reduce((sum, part) => sum + columns(part) + 1, -1), whole: true };
    if (whole.width <= width - INDENT) words.push(whole);
    else {
      words.push(ownWord(`/${command}`, undefined, true, color));
      for (const arg of args) words.push(...wordsOf(arg, undefined, color));
    }
  }
  return words;
}

export function renderCardText(card: Card, options: TextRenderOptions = {}): string {
  const requested = options.width ?? DEFAULT_WIDTH;
  const width = Number.isFinite(requested) ? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.floor(requested))) : DEFAULT_WIDTH;
  const color = options.color === true;
  const writer = new Writer(width);

  const marker = MARKERS[card.color] ?? null;
  const title = wordsOf(cleanText(card.title, MAX_TITLE, '(untitled)'), NAME_ANSI, color);
  writer.wrap(marker ? [ownWord(`[${marker.label}]`, marker.ansi, false, color), ...title] : title, 0, INDENT);
  const url = safeUrl(card.url);
  if (url !== null) writer.wrap([ownWord(url, LINK_ANSI, true, color)]);

  if (card.description) {
    const paragraphs = readRich(card.description, true, color);
    if (paragraphs.length > 0) {
      writer.blank();
      // Indented, so a description written by a stranger can never start a line the way a real
      // field ("Risk: SAFE") does.
      writeParagraphs(writer, paragraphs, INDENT, INDENT);
    }
  }

  const fields = Array.isArray(card.fields) ? card.fields : [];
  if (fields.length > 0) {
    writer.blank();
    writeFields(writer, fields, color);
  }

  const thumbnail = safeUrl(card.thumbnailUrl);
  const image = card.image ? cleanText(card.image.filename, MAX_FILENAME, 'image') : null;
  const footerText = cleanText(card.footer, MAX_FOOTER);
  const time = footerTime(card.timestamp);
  const footer = footerText === '' ? (time ?? '') : time === null ? footerText : `${footerText} · ${time}`;
  const actions = actionWords(card, width, color);
  if (thumbnail !== null || image !== null || footer !== '' || actions.length > 0) writer.blank();
  if (thumbnail !== null) writer.wrap([ownWord('logo:', QUIET_ANSI, false, color), ownWord(thumbnail, LINK_ANSI, true, color)]);
  if (image !== null) writer.wrap(wordsOf(`[image: ${image}]`, undefined, color));
  if (footer !== '') writer.wrap(wordsOf(footer, QUIET_ANSI, color), 0, 0);
  if (actions.length > 0) writer.wrap(actions, 0, INDENT);

  let text = '';
  for (const line of writer.lines) text += `${line}\n`;
  return text.replaceAll(JOINER, ' ');
}
