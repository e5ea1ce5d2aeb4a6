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
import { BLANK, ONE_UNIT, charClass, isPrintableAscii } from '../../text/charClass';
import { cleanText, graphemeCount, safeUrl, stripUnsafeChars, truncateText } from '../../text/sanitize';
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

/** Words and pieces whose arrays are kept between renders; longer ones are let go. */
const WORDS_KEPT = 4096;

/**
 * The words being laid out, in arrays that every render reuses rather than an object per word, per
 * styled piece and per paragraph: those objects, and collecting them, cost more than laying the
 * words out. Rendering is synchronous and never re-entered, so one list serves every call; each
 * part of a card fills it from the start, and each wrap reads a range of it.
 *
 * A word is text between two spaces. Pieces of different styles may touch inside it ("<url>,"
 * keeps its comma), so each word also keeps its pieces, read only to cut a word that is longer
 * than a line, which nearly never happens.
 */
class WordList {
  /** Whether words are written with ANSI colours. */
  color = false;
  count = 0;
  /** The word as printed: its pieces, each in its colour when colours are on. */
  readonly painted: string[] = [];
  /** Graphemes: the sum of its pieces' (graphemeCount of each). */
  readonly widths: number[] = [];
  /** Kept whole even when longer than a line: a URL, or a printable ASCII word of at most 96 characters. */
  readonly unbreakable: boolean[] = [];
  /** Its pieces are pieceTexts[pieceFrom[i]] up to (not including) pieceTexts[pieceTo[i]]; read only to cut a word. */
  readonly pieceFrom: number[] = [];
  readonly pieceTo: number[] = [];
  pieceCount = 0;
  readonly pieceTexts: string[] = [];
  readonly pieceAnsi: Ansi[] = [];

  reset(): void {
    this.count = 0;
    this.pieceCount = 0;
    // A card far larger than any other (a hostile one) leaves no long arrays of its text behind.
    if (this.pieceTexts.length > WORDS_KEPT) {
      for (const list of [this.painted, this.widths, this.unbreakable, this.pieceFrom, this.pieceTo, this.pieceTexts, this.pieceAnsi]) list.length = 0;
    }
  }

  /** A word of one piece, as the renderer makes its own (a marker, a command), `width` graphemes wide. */
  push(text: string, ansi: Ansi, unbreakable: boolean, width = graphemeCount(text)): void {
    const index = this.count;
    this.painted[index] = this.paint(text, ansi);
    this.widths[index] = width;
    this.unbreakable[index] = unbreakable;
    this.pieceFrom[index] = this.pieceCount;
    this.addPiece(text, ansi);
    this.pieceTo[index] = this.pieceCount;
    this.count = index + 1;
  }

  /**
   * A link's URL as a word: unbreakable, and as wide as it is long, since safeUrl only ever
   * returns printable ASCII (the URL parser's serialization percent-encodes everything else).
   */
  pushUrl(url: string): void {
    this.push(url, LINK_ANSI, true, url.length);
  }

  addPiece(text: string, ansi: Ansi): void {
    this.pieceTexts[this.pieceCount] = text;
    this.pieceAnsi[this.pieceCount] = ansi;
    this.pieceCount += 1;
  }

  paint(text: string, ansi: Ansi): string {
    return this.color && ansi !== undefined ? `\u001b[${ansi}m${text}\u001b[0m` : text;
  }

  /** Sum of the widths and one space between each, of the words from `from` to `to`; -1 when none. */
  lineWidth(from: number, to: number): number {
    let width = -1;
    for (let index = from; index < to; index++) width += (this.widths[index] ?? 0) + 1;
    return width;
  }

  /** The words from `from` to `to` on one line, one space apart. */
  joined(from: number, to: number): string {
    let line = this.painted[from] ?? '';
    for (let index = from + 1; index < to; index++) line += ` ${this.painted[index] ?? ''}`;
    return line;
  }

  /** A word as an object, to be cut (see splitWordAt). */
  wordAt(index: number): CutWord {
    const pieces: Piece[] = [];
    const to = this.pieceTo[index] ?? 0;
    for (let piece = this.pieceFrom[index] ?? 0; piece < to; piece++) pieces.push({ text: this.pieceTexts[piece] ?? '', ansi: this.pieceAnsi[piece] });
    return { pieces, unbreakable: this.unbreakable[index] === true, width: this.widths[index] ?? 0 };
  }
}

const words = new WordList();

/**
 * Reads text into `words`: spans become words, cut at runs of white space, and paragraphs, cut at
 * line feeds when the text may hold several lines (otherwise a line feed only ends a word). Span
 * texts are stripped of unsafe characters but keep their spaces until here, so "Price" + " " +
 * "$1" still reads "Price $1".
 *
 * Paragraphs are kept as ranges of words, tidied as they end: no blank paragraph first, never two
 * blank ones in a row, and none last (see finish).
 */
class WordReader {
  private multiline = false;
  /** The word being read: its first piece, its painted text and width so far. */
  private wordPiece = 0;
  private wordPainted = '';
  private wordWidth = 0;
  /** Whether the pieces of the word being read are all printable ASCII, and their length: a word that is, up to 96 characters, stays whole. */
  private ascii = true;
  private length = 0;
  /** The link just shown (its index in `words`), while no space has followed it: "<url>," keeps its comma. */
  private openLink = -1;
  private paragraphStart = 0;
  /** Paragraphs read: words from paragraphFrom[i] up to paragraphTo[i]. */
  paragraphCount = 0;
  readonly paragraphFrom: number[] = [];
  readonly paragraphTo: number[] = [];

  begin(multiline: boolean): void {
    this.multiline = multiline;
    this.wordPiece = words.pieceCount;
    this.wordPainted = '';
    this.wordWidth = 0;
    this.ascii = true;
    this.length = 0;
    this.openLink = -1;
    this.paragraphStart = words.count;
    this.paragraphCount = 0;
  }

  endWord(): void {
    if (words.pieceCount === this.wordPiece) return;
    const index = words.count;
    words.painted[index] = this.wordPainted;
    words.widths[index] = this.wordWidth;
    words.unbreakable[index] = this.ascii && this.length <= MAX_UNBREAKABLE_ASCII;
    words.pieceFrom[index] = this.wordPiece;
    words.pieceTo[index] = words.pieceCount;
    words.count = index + 1;
    this.wordPiece = words.pieceCount;
    this.wordPainted = '';
    this.wordWidth = 0;
    this.ascii = true;
    this.length = 0;
  }

  endParagraph(): void {
    this.endWord();
    const from = this.paragraphStart;
    const to = words.count;
    this.paragraphStart = to;
    const count = this.paragraphCount;
    // A blank paragraph first, or after another blank one, is left out.
    if (from === to && (count === 0 || this.paragraphFrom[count - 1] === this.paragraphTo[count - 1])) return;
    this.paragraphFrom[count] = from;
    this.paragraphTo[count] = to;
    this.paragraphCount = count + 1;
  }

  /** Ends the text: its last paragraph, and no blank paragraph at the end. */
  finish(): void {
    this.endParagraph();
    while (this.paragraphCount > 0 && this.paragraphFrom[this.paragraphCount - 1] === this.paragraphTo[this.paragraphCount - 1]) this.paragraphCount -= 1;
  }

  /** Text cut at line feeds (a new paragraph, or a word break on one line) and at runs of other white space. */
  pushText(s: string, ansi: Ansi): void {
    const length = s.length;
    let index = 0;
    while (index < length) {
      const code = s.charCodeAt(index);
      if (code === 0x0a) {
        this.openLink = -1;
        if (this.multiline) this.endParagraph();
        else this.endWord();
        index += 1;
        continue;
      }
      let end = index + 1;
      const kind = isPrintableAscii(code) ? ONE_UNIT : charClass(code);
      if ((kind & BLANK) !== 0) {
        while (end < length) {
          const next = s.charCodeAt(end);
          if (next === 0x0a || isPrintableAscii(next) || (charClass(next) & BLANK) === 0) break;
          end += 1;
        }
        this.openLink = -1;
        this.endWord();
        index = end;
        continue;
      }
      // A piece's width and whether it is printable ASCII are read on the way: nearly every piece
      // is one grapheme per code unit, and then needs no counting.
      let ascii = isPrintableAscii(code);
      let simple = (kind & ONE_UNIT) !== 0;
      while (end < length) {
        const next = s.charCodeAt(end);
        if (!isPrintableAscii(next)) {
          if (next === 0x0a) break;
          const nextKind = charClass(next);
          if ((nextKind & BLANK) !== 0) break;
          ascii = false;
          if ((nextKind & ONE_UNIT) === 0) simple = false;
        }
        end += 1;
      }
      const text = index === 0 && end === length ? s : s.slice(index, end);
      const width = simple ? end - index : graphemeCount(text);
      const painted = words.paint(text, ansi);
      words.addPiece(text, ansi);
      const link = this.openLink;
      if (link >= 0 && this.wordPiece === words.pieceCount - 1) {
        // Against the link just shown: part of its word, whose pieces are the last ones read.
        words.painted[link] = (words.painted[link] ?? '') + painted;
        words.widths[link] = (words.widths[link] ?? 0) + width;
        words.pieceTo[link] = words.pieceCount;
        this.wordPiece = words.pieceCount;
      } else {
        this.wordPainted += painted;
        this.wordWidth += width;
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
    if (shown !== '' && shown !== url) {
      this.pushText(label.replace(/\n/g, ' '), ansi);
      this.endWord();
      words.pushUrl(`<${url}>`);
    } else {
      this.endWord();
      words.pushUrl(url);
    }
    this.wordPiece = words.pieceCount;
    this.openLink = words.count - 1;
  }
}

const reader = new WordReader();

/** The words of a text cleaned to one line, read as the text of a span is, appended to `words`. */
function pushWords(cleaned: string, ansi?: Ansi): void {
  reader.begin(false);
  reader.pushText(cleaned, ansi);
  reader.endWord();
}

/**
 * Rich text as paragraphs of words (in `reader`'s paragraphs). A link shows as "label <url>", or
 * the bare URL when it has no label of its own; an unsafe link shows its label only.
 */
function readRich(value: RichText, multiline: boolean): void {
  reader.begin(multiline);
  for (const span of value) {
    const label = truncateText(stripUnsafeChars(typeof span.text === 'string' ? span.text : ''), MAX_SPAN);
    const url = span.url === undefined ? null : safeUrl(span.url);
    const ansi = span.style === undefined ? undefined : SPAN_ANSI[span.style];
    if (url === null) reader.pushText(label, ansi);
    else reader.pushLink(label, url, ansi);
  }
  reader.finish();
}

/** A piece of a word being cut: text in one style. */
interface Piece {
  text: string;
  ansi: Ansi;
}

interface CutWord {
  pieces: Piece[];
  unbreakable: boolean;
  /** Graphemes: the sum of its pieces'. */
  width: number;
}

function cutWordOf(pieces: Piece[]): CutWord {
  let width = 0;
  for (const piece of pieces) width += graphemeCount(piece.text);
  return { pieces, unbreakable: false, width };
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits a word after `size` graphemes, keeping each grapheme's style. */
function splitWordAt(w: CutWord, size: number): [CutWord, CutWord] {
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
  return [cutWordOf(head), cutWordOf(tail)];
}

/** Where a word goes (Writer.placeOf). */
type Place = 0 | 1 | 2 | 3;
const FITS = 0;
const CUT = 1;
const NEXT_LINE = 2;
const OWN_LINE = 3;

class Writer {
  /** No line ends with white space: words hold none, and every line ends with a word. */
  readonly lines: string[] = [];
  // The line being written by wrap: its text, words, indent and columns used.
  private line = '';
  private count = 0;
  private indent = 0;
  private restIndent = 0;
  private used = 0;

  constructor(readonly width: number) {}

  private paint(w: CutWord): string {
    let text = '';
    for (const piece of w.pieces) text += words.paint(piece.text, piece.ansi);
    return text;
  }

  /** The line under way is written out and the next one starts at restIndent. */
  private nextLine(): void {
    this.lines.push(this.indent === 0 ? this.line : ' '.repeat(this.indent) + this.line);
    this.line = '';
    this.count = 0;
    this.indent = this.restIndent;
    this.used = this.indent;
  }

  /**
   * Where a word of `size` columns goes on the line under way: it fits; it is cut to fill the room
   * left (not an unbreakable one, and only at a line's start or when it is longer than a whole
   * line); the line is written out and the word tried again on the next; or, alone at a line's
   * start and too long, it gets that line to itself.
   */
  private placeOf(size: number, unbreakable: boolean): Place {
    const room = this.room();
    if (size <= room) return FITS;
    if (!unbreakable && room >= 1 && (this.count === 0 || size > this.width - this.restIndent)) return CUT;
    return this.count > 0 ? NEXT_LINE : OWN_LINE;
  }

  /** The room left on the line under way, for a word cut to fill it. */
  private room(): number {
    return this.width - this.used - (this.count === 0 ? 0 : 1);
  }

  private append(text: string, size: number): void {
    const gap = this.count === 0 ? 0 : 1;
    this.line += gap === 0 ? text : ` ${text}`;
    this.count += 1;
    this.used += gap + size;
  }

  private ownLine(text: string): void {
    this.lines.push(' '.repeat(this.indent) + text);
    this.indent = this.restIndent;
    this.used = this.restIndent;
  }

  /**
   * Writes the words from `from` to `to` across as many lines as needed: the first line starts at
   * `firstIndent`, the following ones at `restIndent` (see placeOf for a word that does not fit).
   */
  wrap(from: number, to: number, firstIndent = 0, restIndent = firstIndent + INDENT): void {
    this.line = '';
    this.count = 0;
    this.indent = firstIndent;
    this.restIndent = restIndent;
    this.used = firstIndent;
    const widths = words.widths;
    const painted = words.painted;
    for (let index = from; index < to; ) {
      const size = widths[index] ?? 0;
      const place = this.placeOf(size, words.unbreakable[index] === true);
      if (place === NEXT_LINE) {
        // The word is tried again there.
        this.nextLine();
        continue;
      }
      if (place === FITS) this.append(painted[index] ?? '', size);
      else if (place === CUT) this.cut(words.wordAt(index));
      else this.ownLine(painted[index] ?? '');
      index += 1;
    }
    if (this.count > 0) this.lines.push(' '.repeat(this.indent) + this.line);
    else if (this.lines.length === 0) this.lines.push('');
  }

  /** A word cut to fill the room left, its rest placed as wrap places any word. */
  private cut(w: CutWord): void {
    // Words put back to be taken next (the two halves of a cut word, a word moved to the next line), last first.
    const putBack: CutWord[] = [w];
    for (let next = putBack.pop(); next !== undefined; next = putBack.pop()) {
      const place = this.placeOf(next.width, next.unbreakable);
      if (place === FITS) this.append(this.paint(next), next.width);
      else if (place === CUT) {
        const [head, tail] = splitWordAt(next, this.room());
        putBack.push(tail, head);
      } else if (place === NEXT_LINE) {
        putBack.push(next);
        this.nextLine();
      } else this.ownLine(this.paint(next));
    }
  }

  /** An empty line between two blocks, unless the last line is one already. */
  blank(): void {
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') this.lines.push('');
  }
}

const EMPTY_VALUE = '—';

/**
 * Reads a field into `words`: its name ("Name:") first, then its value's paragraphs (in
 * `reader`), "—" when the value has none. Returns where the value's words start.
 */
function readField(field: CardField): number {
  words.reset();
  const name = cleanText(field.name, MAX_FIELD_NAME);
  if (name !== '') pushWords(`${name}:`, NAME_ANSI);
  const valueStart = words.count;
  readRich(Array.isArray(field.value) ? field.value : [], true);
  if (reader.paragraphCount === 0) words.push(EMPTY_VALUE, undefined, false);
  return valueStart;
}

/** A field on lines of its own: a one-paragraph value (or "—") follows the name, a longer one goes below it. */
function writeField(writer: Writer, valueStart: number): void {
  if (reader.paragraphCount <= 1) {
    writer.wrap(0, words.count, 0, INDENT);
    return;
  }
  if (valueStart > 0) writer.wrap(0, valueStart, 0, INDENT);
  writeParagraphs(writer, INDENT, INDENT * 2);
}

/** The paragraphs `reader` read, each wrapped from `firstIndent`; an empty one is an empty line. */
function writeParagraphs(writer: Writer, firstIndent: number, restIndent: number): void {
  for (let index = 0; index < reader.paragraphCount; index++) {
    const from = reader.paragraphFrom[index] ?? 0;
    const to = reader.paragraphTo[index] ?? 0;
    if (from === to) writer.lines.push('');
    else writer.wrap(from, to, firstIndent, restIndent);
  }
}

/**
 * Consecutive inline fields share lines, separated by "│", as long as each fits on one line. A
 * row that fits needs no wrapping: its words are written one space apart as they are read.
 */
function writeFields(writer: Writer, fields: readonly CardField[]): void {
  const separator = ` ${words.paint('│', QUIET_ANSI)} `;
  let row = '';
  let rowWidth = 0;
  for (const field of fields) {
    const valueStart = readField(field);
    // Every field has at least one word ("—" for an empty value).
    const width = words.lineWidth(0, words.count);
    if (field.inline !== true || width > writer.width) {
      if (row !== '') writer.lines.push(row);
      row = '';
      writeField(writer, valueStart);
      continue;
    }
    if (row !== '' && rowWidth + 3 + width > writer.width) {
      writer.lines.push(row);
      row = '';
    }
    if (row === '') {
      row = words.joined(0, words.count);
      rowWidth = width;
    } else {
      row += separator + words.joined(0, words.count);
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

/** "Try: /chart ADDR · /holders ADDR" into `words`; each command stays on one line when it fits in one. */
function pushActionWords(card: Card, width: number): void {
  const start = words.count;
  let shown = 0;
  for (const action of card.actions ?? []) {
    const command = cleanText(action.command, MAX_COMMAND).replace(/^\/+/, '').replace(/ /g, '');
    if (command === '') continue;
    if (shown === 0) words.push('Try:', QUIET_ANSI, false);
    else words.push('·', QUIET_ANSI, false);
    shown += 1;
    let whole = `/${command}`;
    const args: string[] = [];
    for (const raw of action.args ?? []) {
      const arg = cleanText(raw, MAX_ARG);
      if (arg === '') continue;
      args.push(arg);
      whole += ` ${arg}`;
    }
    const wholeWidth = graphemeCount(whole);
    if (wholeWidth <= width - INDENT) words.push(whole, undefined, true, wholeWidth);
    else {
      words.push(`/${command}`, undefined, true);
      for (const arg of args) pushWords(arg);
    }
  }
  if (shown === 0) words.count = start;
}

export function renderCardText(card: Card, options: TextRenderOptions = {}): string {
  const requested = options.width ?? DEFAULT_WIDTH;
  const width = Number.isFinite(requested) ? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.floor(requested))) : DEFAULT_WIDTH;
  words.color = options.color === true;
  const writer = new Writer(width);

  words.reset();
  const marker = MARKERS[card.color] ?? null;
  if (marker) words.push(`[${marker.label}]`, marker.ansi, false);
  pushWords(cleanText(card.title, MAX_TITLE, '(untitled)'), NAME_ANSI);
  writer.wrap(0, words.count, 0, INDENT);
  const url = safeUrl(card.url);
  if (url !== null) {
    words.reset();
    words.pushUrl(url);
    writer.wrap(0, 1);
  }

  if (card.description) {
    words.reset();
    readRich(card.description, true);
    if (reader.paragraphCount > 0) {
      writer.blank();
      // Indented, so a description written by a stranger can never start a line the way a real
      // field ("Risk: SAFE") does.
      writeParagraphs(writer, INDENT, INDENT);
    }
  }

  const fields = Array.isArray(card.fields) ? card.fields : [];
  if (fields.length > 0) {
    writer.blank();
    writeFields(writer, fields);
  }

  const thumbnail = safeUrl(card.thumbnailUrl);
  const image = card.image ? cleanText(card.image.filename, MAX_FILENAME, 'image') : null;
  const footerText = cleanText(card.footer, MAX_FOOTER);
  const time = footerTime(card.timestamp);
  const footer = footerText === '' ? (time ?? '') : time === null ? footerText : `${footerText} · ${time}`;
  words.reset();
  pushActionWords(card, width);
  const actionsEnd = words.count;
  if (thumbnail !== null || image !== null || footer !== '' || actionsEnd > 0) writer.blank();
  if (thumbnail !== null) {
    words.push('logo:', QUIET_ANSI, false);
    words.pushUrl(thumbnail);
    writer.wrap(actionsEnd, words.count);
  }
  if (image !== null) {
    const from = words.count;
    pushWords(`[image: ${image}]`);
    writer.wrap(from, words.count);
  }
  if (footer !== '') {
    const from = words.count;
    pushWords(footer, QUIET_ANSI);
    writer.wrap(from, words.count, 0, 0);
  }
  if (actionsEnd > 0) writer.wrap(0, actionsEnd, 0, INDENT);

  let text = '';
  for (const line of writer.lines) text += `${line}\n`;
  return text;
}
