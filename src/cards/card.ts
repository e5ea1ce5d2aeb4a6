/**
 * The Card: what every command and every alert answers with, knowing no chat platform. Only the
 * renderers (console text, Discord embed, Telegram HTML) know one.
 *
 * Rich text is a list of spans, never a markup string: each renderer escapes the text of every span
 * for its own markup, so text written by strangers can never open or close a tag, a bold run or a
 * spoiler. Untrusted text may go into any text field as it is; renderers clean and escape it.
 */
import { safeUrl } from '../text/sanitize';

export type SpanStyle = 'bold' | 'italic' | 'code';

export interface Span {
  text: string;
  style?: SpanStyle;
  /** Makes the span a link. Only http(s) URLs that pass safeUrl are ever shown; renderers re-check. */
  url?: string;
}

export type RichText = Span[];

/**
 * The card's colour; renderers map it to real colours. 'safe', 'warning' and 'danger' name a risk
 * status, and renderers show them with the status as a badge: only a card about one token takes
 * one, from that token's current status (riskColor). Every other card (status, help, follows,
 * notices, errors) takes its kind: 'neutral', 'info' or 'error'.
 */
export type CardColor = 'safe' | 'warning' | 'danger' | 'neutral' | 'info' | 'error';

export interface CardField {
  name: string;
  value: RichText;
  /** Short fields that may share a line (or an embed row) with their inline neighbours. */
  inline?: boolean;
}

/** A button that runs `/command args...` in the same chat. */
export interface CardAction {
  label: string;
  command: string;
  args: string[];
  /** Runs the command that made this card again: platforms replace the card in place with the answer. */
  refresh?: boolean;
}

export interface CardAttachment {
  filename: string;
  contentType: string;
  data: Uint8Array;
  description?: string;
}

export interface Card {
  /** Plain text; untrusted parts allowed. */
  title: string;
  /** A safe http(s) URL (see safeUrl). */
  url?: string;
  description?: RichText;
  color: CardColor;
  fields: CardField[];
  /** A safe http(s) URL (see safeUrl). */
  thumbnailUrl?: string;
  /** A picture sent with the card, such as a chart. */
  image?: CardAttachment;
  footer?: string;
  timestamp?: Date;
  actions: CardAction[];
  /**
   * The platform's id of a message in the chat this card answers (a call's post, for its
   * milestone): platforms send it as a reply to that message, and plainly when it is gone.
   */
  replyTo?: string;
}

export function text(s: string): Span {
  return { text: s };
}

export function bold(s: string): Span {
  return { text: s, style: 'bold' };
}

export function italic(s: string): Span {
  return { text: s, style: 'italic' };
}

export function code(s: string): Span {
  return { text: s, style: 'code' };
}

/**
 * A link labelled `label`. When `url` is not a safe http(s) URL the span keeps only the label, as
 * plain text: a hostile link is never carried, and the reader still sees what was named.
 */
export function link(label: string, url: string | null | undefined): Span {
  const safe = safeUrl(url);
  return safe === null ? { text: label } : { text: label, url: safe };
}

type RichPart = Span | RichText | string;

function toRich(part: RichPart): RichText {
  if (typeof part === 'string') return [text(part)];
  return Array.isArray(part) ? part : [part];
}

/** Rich text from spans, rich texts and plain strings, in order. */
export function rich(...parts: RichPart[]): RichText {
  const out: RichText = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push(text(part));
    else if (Array.isArray(part)) out.push(...part);
    else out.push(part);
  }
  return out;
}

/**
 * Joins parts with `separator` between them (plain text unless given as a span). Empty parts are
 * skipped, so optional pieces can be passed as `[]` without leaving a doubled separator.
 */
export function joinRich(parts: readonly RichPart[], separator: Span | string = ' · '): RichText {
  const sep = typeof separator === 'string' ? text(separator) : separator;
  const out: RichText = [];
  for (const part of parts) {
    const spans = toRich(part);
    if (isBlank(spans)) continue;
    if (out.length > 0) out.push(sep);
    out.push(...spans);
  }
  return out;
}

/** No span, or only empty ones without a link. */
function isBlank(spans: RichText): boolean {
  for (const span of spans) if (span.text !== '' || span.url !== undefined) return false;
  return true;
}

/** The text a reader sees, without styles or link targets. */
export function plainText(value: RichText): string {
  return value.map((span) => span.text).join('');
}

export function field(name: string, value: RichPart, inline = false): CardField {
  return { name, value: toRich(value), inline };
}

/** SAFE, WARNING and DANGER (any case) map to their colours; any other status is neutral. */
export function riskColor(riskStatus: string | null | undefined): CardColor {
  switch (riskStatus?.trim().toUpperCase()) {
    case 'SAFE':
      return 'safe';
    case 'WARNING':
      return 'warning';
    case 'DANGER':
      return 'danger';
    default:
      return 'neutral';
  }
}
