/**
 * Card → Telegram messages: HTML text (parse_mode HTML), a photo when the card carries a picture,
 * and an inline keyboard of the card's action keys. Pure: no grammY, no network.
 *
 * Layout of one card:
 *
 *   🟡 <b>Title</b>                    ← risk marker from the colour; the title links to card.url
 *
 *   <blockquote>description</blockquote>  ← a stranger's text sits in a quote, so it can never
 *                                          start a line the way a real field ("Risk: SAFE") does
 *   <b>Price:</b> $1.2 · 0.01 SOL      ← one field a line
 *   <b>Pools:</b>                      ← multi-line values go below their name
 *   raydium · 62 SOL
 *
 *   <i>footer · 2024-05-01 12:00 UTC</i>
 *
 * Limits, counted as Telegram counts them (UTF-16 code units of the text after entity parsing:
 * tags do not count, `&lt;` counts as one): 4,096 a message and 1,024 a photo caption. A card
 * that does not fit one message is split between lines (never inside a tag) over at most
 * MAX_TEXT_MESSAGES messages; a single line longer than a message is cut with "…". A card with a
 * picture goes as one captioned photo when it fits 1,024, else as the photo captioned with its
 * title, then the text. The keyboard rides on the last message.
 *
 * Only the tags b, i, code, a and blockquote are written, nested only as Telegram allows (code
 * and a never contain each other; bold and italic never contain code; a blockquote is never
 * nested). Every text is cleaned of control, invisible and direction-changing characters and
 * escaped; links are only ever http(s) URLs that pass safeUrl. An `@name` in text would become
 * a clickable mention, which a stranger could use to point readers at an account of their
 * choosing: its sign becomes the full-width ＠, which reads the same and links nowhere.
 */
import type { Card, CardAttachment, CardColor, CardField, RichText } from '../../cards/card';
import { cleanText, safeUrl, stripUnsafeChars, truncateText } from '../../text/sanitize';
import { cardTime } from '../../text/format';
import type { ActionButton } from '../../model/chat';

export const MAX_MESSAGE_LENGTH = 4096;
export const MAX_CAPTION_LENGTH = 1024;
export const MAX_CALLBACK_DATA_BYTES = 64;
/** A card longer than this many messages is cut: past it, a reader has stopped reading. */
export const MAX_TEXT_MESSAGES = 4;
/** Telegram allows 100 buttons; a card offers a handful, and more would bury the chat. */
export const MAX_BUTTONS = 12;
const BUTTONS_PER_ROW = 3;
const MAX_BUTTON_LABEL = 32;
const MAX_TITLE = 256;
const MAX_FIELD_NAME = 256;
const MAX_FOOTER = 1024;
/** Bounds the work on a hostile megabyte; no span can show more than one message anyway. */
const MAX_SPAN = MAX_MESSAGE_LENGTH;
/** Descriptions longer than this are quoted collapsed (Telegram's expandable blockquote). */
const EXPANDABLE_QUOTE_FROM = 300;
const ELLIPSIS = '…';

export interface InlineKeyboardButton {
  text: string;
  callback_data: string;
}

export interface InlineKeyboard {
  inline_keyboard: InlineKeyboardButton[][];
}

export interface TelegramTextMessage {
  kind: 'text';
  html: string;
  keyboard: InlineKeyboard | null;
  /** The link previewed above the text (the card's logo), or null: previews disabled. */
  previewUrl: string | null;
}

export interface TelegramPhotoMessage {
  kind: 'photo';
  image: CardAttachment;
  /** HTML, at most MAX_CAPTION_LENGTH once parsed. */
  caption: string;
  keyboard: InlineKeyboard | null;
}

export type TelegramMessage = TelegramTextMessage | TelegramPhotoMessage;

/** One run of text with one style; `href` makes it a link. Text is clean, not yet escaped. */
interface Piece {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  href?: string;
}

type Line = Piece[];

interface Section {
  lines: Line[];
  /** Written inside a blockquote. */
  quote: 'none' | 'plain' | 'expandable';
}

const MARKERS: Record<CardColor, string> = {
  safe: '🟢',
  warning: '🟡',
  danger: '🔴',
  error: '⚠️',
  info: '',
  neutral: '',
};

/** `&`, `<` and `>` in text; `"` too inside an attribute. The only escapes Telegram needs. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `@name` made inert (see the header). */
function defuseMentions(s: string): string {
  return s.replace(/@(?=[A-Za-z0-9_])/g, '＠');
}

/** Span text fit to show: unsafe characters gone, mentions inert, tabs as spaces, bounded. */
function cleanSpan(s: unknown): string {
  if (typeof s !== 'string') return '';
  return defuseMentions(truncateText(stripUnsafeChars(s.length > MAX_SPAN * 4 ? s.slice(0, MAX_SPAN * 4) : s), MAX_SPAN));
}

function pieceLength(piece: Piece): number {
  return piece.text.length;
}

function lineLength(line: Line): number {
  let n = 0;
  for (const piece of line) n += pieceLength(piece);
  return n;
}

function sectionLength(section: Section): number {
  return section.lines.reduce((sum, line) => sum + lineLength(line), 0) + Math.max(0, section.lines.length - 1);
}

/** Rich text as lines of pieces: newlines inside a span end a line; a blank line at most in a row. */
function richLines(value: RichText | undefined, base: Omit<Piece, 'text'> = {}): Line[] {
  const lines: Line[] = [[]];
  for (const span of Array.isArray(value) ? value : []) {
    const label = cleanSpan(span?.text);
    const href = span?.url === undefined ? null : safeUrl(span.url);
    const style: Omit<Piece, 'text'> = {
      ...base,
      ...(span?.style === 'bold' ? { bold: true } : {}),
      ...(span?.style === 'italic' ? { italic: true } : {}),
      ...(span?.style === 'code' ? { code: true } : {}),
    };
    if (href !== null) {
      // A link's label is one line; a link without a label of its own shows its address.
      const shown = label.replace(/\s+/gu, ' ').trim();
      lines[lines.length - 1]?.push({ ...style, text: shown === '' ? defuseMentions(href) : label.replace(/\n/g, ' '), href });
      continue;
    }
    const parts = label.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]?.push({ ...style, text: part });
    });
  }
  return tidyLines(lines);
}

function isBlank(line: Line): boolean {
  return line.every((piece) => piece.text.trim() === '');
}

/** No blank lines at either end, at most one blank line in a row, no trailing spaces. */
function tidyLines(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const blank = isBlank(line);
    const previous = out[out.length - 1];
    if (blank && (previous === undefined || isBlank(previous))) continue;
    out.push(blank ? [] : line);
  }
  while (out.length > 0 && isBlank(out[out.length - 1] ?? [])) out.pop();
  return out;
}

function titleLine(card: Card): Line {
  const marker = MARKERS[card.color] ?? '';
  const title = defuseMentions(cleanText(card.title, MAX_TITLE, '(untitled)'));
  const url = safeUrl(card.url);
  const head: Line = marker === '' ? [] : [{ text: `${marker} ` }];
  return [...head, { text: title, bold: true, ...(url === null ? {} : { href: url }) }];
}

function fieldLines(field: CardField): Line[] {
  const name = defuseMentions(cleanText(field?.name, MAX_FIELD_NAME));
  const value = richLines(field?.value);
  const label: Piece[] = name === '' ? [] : [{ text: `${name}:`, bold: true }];
  if (value.length === 0) return [[...label, { text: name === '' ? '—' : ' —' }]];
  if (value.length === 1) {
    const only = value[0] ?? [];
    // The value's own spaces lead when it has them; otherwise one is added after the name.
    const gap: Piece[] = label.length > 0 && !/^\s/.test(only[0]?.text ?? '') ? [{ text: ' ' }] : [];
    return [[...label, ...gap, ...only]];
  }
  return label.length > 0 ? [label, ...value] : value;
}

function footerLine(card: Card): Line | null {
  const footer = defuseMentions(cleanText(card.footer, MAX_FOOTER));
  const time = card.timestamp instanceof Date && !Number.isNaN(card.timestamp.getTime()) ? cardTime(card.timestamp) : '';
  const text = [footer, time].filter((part) => part !== '').join(' · ');
  return text === '' ? null : [{ text, italic: true }];
}

/** The card's sections after the title, in order, the empty ones left out. */
function bodySections(card: Card): Section[] {
  const sections: Section[] = [];
  const description = richLines(card.description);
  if (description.length > 0) {
    const long = sectionLength({ lines: description, quote: 'plain' }) > EXPANDABLE_QUOTE_FROM;
    sections.push({ lines: description, quote: long ? 'expandable' : 'plain' });
  }
  const fields = (Array.isArray(card.fields) ? card.fields : []).flatMap(fieldLines);
  if (fields.length > 0) sections.push({ lines: fields, quote: 'none' });
  const footer = footerLine(card);
  if (footer !== null) sections.push({ lines: [footer], quote: 'none' });
  return sections;
}

function pieceHtml(piece: Piece): string {
  let html = escapeHtml(piece.text);
  // Telegram: code contains nothing and sits in no bold, italic or link; a link's code style is dropped.
  if (piece.code === true && piece.href === undefined) return `<code>${html}</code>`;
  if (piece.italic === true) html = `<i>${html}</i>`;
  if (piece.bold === true) html = `<b>${html}</b>`;
  if (piece.href !== undefined) html = `<a href="${escapeHtml(piece.href)}">${html}</a>`;
  return html;
}

function lineHtml(line: Line): string {
  return line.map(pieceHtml).join('');
}

function sectionHtml(section: Section): string {
  const inner = section.lines.map(lineHtml).join('\n');
  if (section.quote === 'none') return inner;
  return section.quote === 'expandable' ? `<blockquote expandable>${inner}</blockquote>` : `<blockquote>${inner}</blockquote>`;
}

function sectionsHtml(sections: Section[]): string {
  return sections.map(sectionHtml).join('\n\n');
}

function sectionsLength(sections: Section[]): number {
  return sections.reduce((sum, section) => sum + sectionLength(section), 0) + Math.max(0, sections.length - 1) * 2;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest start of `s` of at most `units` UTF-16 units that ends between graphemes. */
function headOf(s: string, units: number): string {
  let kept = '';
  for (const { segment } of graphemes.segment(s)) {
    if (kept.length + segment.length > units) break;
    kept += segment;
  }
  return kept;
}

/** The line cut to at most `max` units, ending with "…"; styles and links kept on what remains. */
function cutLine(line: Line, max: number): Line {
  if (lineLength(line) <= max) return line;
  const out: Line = [];
  // One unit is kept for the ellipsis.
  let room = Math.max(0, max - 1);
  for (const piece of line) {
    if (piece.text.length <= room) {
      out.push(piece);
      room -= piece.text.length;
      continue;
    }
    const head = headOf(piece.text, room).trimEnd();
    if (head !== '') out.push({ ...piece, text: head });
    break;
  }
  const last = out[out.length - 1];
  // The ellipsis joins the last piece when it can, so a cut link or bold run ends with it.
  if (last !== undefined && last.code !== true) out[out.length - 1] = { ...last, text: `${last.text.trimEnd()}${ELLIPSIS}` };
  else out.push({ text: ELLIPSIS });
  return out;
}

/**
 * Splits sections over messages of at most `limit` units each, between lines, a section's quote
 * closed at the end of one message and opened again in the next. At most `maxMessages`; what
 * does not fit them is cut, the last line ending with "…".
 */
function packSections(sections: Section[], limit: number, maxMessages: number): Section[][] {
  const messages: Section[][] = [];
  let current: Section[] = [];
  let used = 0;
  let full = false;
  const flush = () => {
    if (current.length > 0) messages.push(current);
    current = [];
    used = 0;
  };
  const append = (quote: Section['quote'], line: Line, startsSection: boolean) => {
    const last = current[current.length - 1];
    if (!startsSection && last !== undefined && last.quote === quote) {
      last.lines.push(line);
      used += 1 + lineLength(line);
    } else {
      used += (current.length > 0 ? 2 : 0) + lineLength(line);
      current.push({ lines: [line], quote });
    }
  };
  for (const section of sections) {
    let startsSection = true;
    for (const line of section.lines) {
      if (full) break;
      const last = current[current.length - 1];
      const joins = !startsSection && last !== undefined && last.quote === section.quote;
      const separator = current.length === 0 ? 0 : joins ? 1 : 2;
      if (used + separator + lineLength(line) <= limit) {
        append(section.quote, line, !joins);
        startsSection = false;
        continue;
      }
      if (messages.length + 1 >= maxMessages) {
        // The last message allowed: what fits of this line, with the ellipsis, and nothing more.
        const room = limit - used - separator;
        if (room >= 2) append(section.quote, cutLine(line, room), !joins);
        else markCut(current);
        full = true;
        break;
      }
      flush();
      append(section.quote, cutLine(line, limit), true);
      startsSection = false;
    }
  }
  flush();
  return messages;
}

/** Ends the message's last line with "…", replacing its end, so the message grows by nothing. */
function markCut(sections: Section[]): void {
  for (;;) {
    const section = sections[sections.length - 1];
    if (section === undefined) return;
    const line = section.lines[section.lines.length - 1];
    if (line === undefined || isBlank(line)) {
      // A blank line has no end to replace: it goes, and the line before it takes the mark.
      section.lines.pop();
      if (section.lines.length === 0) sections.pop();
      continue;
    }
    section.lines[section.lines.length - 1] = cutLine([...line, { text: ` ${ELLIPSIS}` }], lineLength(line));
    return;
  }
}

function keyboardOf(buttons: readonly ActionButton[]): InlineKeyboard | null {
  const usable: InlineKeyboardButton[] = [];
  for (const button of buttons) {
    if (usable.length >= MAX_BUTTONS) break;
    const key = typeof button?.key === 'string' ? button.key : '';
    // The pipeline issues keys of at most 20 URL-safe bytes; anything else is never sent.
    if (!/^[A-Za-z0-9_-]+$/.test(key) || Buffer.byteLength(key, 'utf8') > MAX_CALLBACK_DATA_BYTES) continue;
    usable.push({ text: cleanText(button.label, MAX_BUTTON_LABEL, 'Open'), callback_data: key });
  }
  if (usable.length === 0) return null;
  const rows: InlineKeyboardButton[][] = [];
  for (let i = 0; i < usable.length; i += BUTTONS_PER_ROW) rows.push(usable.slice(i, i + BUTTONS_PER_ROW));
  return { inline_keyboard: rows };
}

/** The inline keyboard for a card's buttons, or null when none can be shown. */
export function renderKeyboard(buttons: readonly ActionButton[]): InlineKeyboard | null {
  return keyboardOf(buttons);
}

/**
 * A card and its buttons as the messages that show it, in sending order. Never empty: a card with
 * nothing readable still shows its (fallback) title.
 */
export function renderCardMessages(card: Card, buttons: readonly ActionButton[] = []): TelegramMessage[] {
  const keyboard = keyboardOf(buttons);
  const title: Section = { lines: [titleLine(card)], quote: 'none' };
  const body = bodySections(card);
  const image = card.image !== undefined && card.image.data instanceof Uint8Array && card.image.data.length > 0 ? card.image : null;

  if (image !== null) {
    const whole = [title, ...body];
    if (sectionsLength(whole) <= MAX_CAPTION_LENGTH) {
      return [{ kind: 'photo', image, caption: sectionsHtml(whole), keyboard }];
    }
    const caption = packSections([title], MAX_CAPTION_LENGTH, 1)[0] ?? [title];
    const texts = packSections(body, MAX_MESSAGE_LENGTH, MAX_TEXT_MESSAGES);
    const photo: TelegramPhotoMessage = {
      kind: 'photo',
      image,
      caption: sectionsHtml(caption),
      keyboard: texts.length === 0 ? keyboard : null,
    };
    return [
      photo,
      ...texts.map(
        (sections, i): TelegramTextMessage => ({
          kind: 'text',
          html: sectionsHtml(sections),
          keyboard: i === texts.length - 1 ? keyboard : null,
          previewUrl: null,
        }),
      ),
    ];
  }

  const texts = packSections([title, ...body], MAX_MESSAGE_LENGTH, MAX_TEXT_MESSAGES);
  const previewUrl = safeUrl(card.thumbnailUrl);
  return texts.map((sections, i) => ({
    kind: 'text',
    html: sectionsHtml(sections),
    keyboard: i === texts.length - 1 ? keyboard : null,
    previewUrl: i === 0 ? previewUrl : null,
  }));
}

/**
 * A short notice as plain text (callback answers, which show no markup and allow 200 characters).
 */
export function plainNotice(text: string, max = 200): string {
  return cleanText(text, max, '…');
}

/**
 * The text a reader would see, from the renderer's HTML: for the last-resort plain-text send when
 * Telegram refuses the markup (it never should; a message is better than an alert stuck forever).
 */
export function htmlToPlainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
