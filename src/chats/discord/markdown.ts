/**
 * Rich text → Discord markdown, within a length, with every stranger's character escaped.
 *
 * Discord renders markdown in embed titles, descriptions, field names and field values. Text
 * written by strangers (token names, descriptions, link labels) could otherwise make bold or
 * spoiler runs, headings, quotes and lists, masked links (`[claim](https://evil)`), or mention
 * syntax (`<@id>`, `<@&role>`, `<#channel>`, `<t:…>`, custom emoji). So every character that can
 * start markup is escaped with a backslash (Discord reads `\x` as a literal `x` for any
 * punctuation), mass mentions get the full-width sign of `defuseMentions`, and the only markup
 * in the output is what this file writes itself: `**bold**`, `*italic*`, `` `code` `` and
 * `[label](http(s) URL)`.
 *
 * A text that does not fit is cut between graphemes, never inside an escape or a markup run, and
 * ends with "…" so that a reader sees it was cut.
 */
import type { RichText, Span, SpanStyle } from '../../cards/card';
import { defuseMentions, safeUrl, stripUnsafeChars } from '../../text/sanitize';

export const ELLIPSIS = '…';

/** Characters that open or close inline markup anywhere in a line. */
const INLINE_MARKUP = /[\\*_~|`[\]<>]/g;
/** Markers that act only at the start of a line: headings, subtext, quotes, lists. */
const LINE_START_MARKUP = /^([ \t]*)(?:([#>+-])|(\d+)\.(?=\s|$))/;

/** Escapes one line's worth (no newline) of text; `lineStart` when it begins a line. */
function escapeLine(line: string, lineStart: boolean): string {
  const escaped = line.replace(INLINE_MARKUP, '\\$&');
  if (!lineStart) return escaped;
  return escaped.replace(LINE_START_MARKUP, (_, space: string, marker: string | undefined, digits: string | undefined) =>
    marker !== undefined ? `${space}\\${marker}` : `${space}${digits ?? ''}\\.`,
  );
}

/**
 * Escapes untrusted text for Discord markdown. `lineStart` says whether the text begins a line;
 * every line after a newline does. Mentions are defused as well.
 */
export function escapeMarkdown(s: string, lineStart = true): string {
  return defuseMentions(s)
    .split('\n')
    .map((line, index) => escapeLine(line, lineStart || index > 0))
    .join('\n');
}

/**
 * Text inside a code span is shown as written (escapes do not work there), so only the backtick
 * that would end it must go: it becomes a modifier letter grave (ˋ), which looks alike. Mentions
 * never render inside code, but the full-width sign costs nothing.
 */
function codeText(s: string): string {
  return defuseMentions(s.replace(/`/g, 'ˋ').replace(/\n/g, ' '));
}

/** A link target fit for `[label](target)`: parentheses encoded, so the target cannot end early. */
function linkTarget(url: string): string {
  return url.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

const MARKERS: Record<SpanStyle, string> = { bold: '**', italic: '*', code: '`' };

/**
 * Wraps escaped text in a style's markers, line by line (Discord's runs do not cross newlines
 * reliably), with the spaces at either end of each line left outside the markers, where they
 * do not stop the run from rendering.
 */
function styled(raw: string, style: SpanStyle | undefined, lineStart: boolean): string {
  if (style === undefined) return escapeMarkdown(raw, lineStart);
  const marker = MARKERS[style];
  return raw
    .split('\n')
    .map((line, index) => {
      const core = line.trim();
      const lead = core === '' ? line : line.slice(0, line.indexOf(core));
      const trail = core === '' ? '' : line.slice(lead.length + core.length);
      if (core === '') return line;
      const inner = style === 'code' ? codeText(core) : escapeMarkdown(core, false);
      // The marker guards the start of the line, so only the leading spaces could start markup.
      return `${escapeLine(lead, lineStart || index > 0)}${marker}${inner}${marker}${trail}`;
    })
    .join('\n');
}

interface Piece {
  raw: string;
  style: SpanStyle | undefined;
  /** A safe http(s) target, or null for plain text. */
  url: string | null;
}

function pieceOf(span: Span, multiline: boolean): Piece {
  const text = stripUnsafeChars(typeof span.text === 'string' ? span.text : '');
  const url = span.url === undefined ? null : safeUrl(span.url);
  // A link's label is one line, as masked-link markup requires.
  const raw = multiline && url === null ? text : text.replace(/\s+/gu, ' ');
  return { raw, style: span.style, url };
}

function renderPiece(piece: Piece, lineStart: boolean): string {
  if (piece.url === null) return styled(piece.raw, piece.style, lineStart);
  const label = piece.raw.trim() === '' ? piece.url : piece.raw.trim();
  const inner = piece.style === 'code' ? `\`${codeText(label)}\`` : styled(label, piece.style, false);
  return `[${inner}](${linkTarget(piece.url)})`;
}

function endsLine(rendered: string, before: boolean): boolean {
  if (rendered === '') return before;
  return rendered.endsWith('\n');
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemesOf(s: string): string[] {
  return Array.from(segmenter.segment(s), (part) => part.segment);
}

/**
 * The longest head of `piece` (in graphemes) whose rendering fits in `room`, rendered; a link
 * that cannot keep its target within `room` is shown as plain text. Empty when nothing fits.
 */
function cutPiece(piece: Piece, room: number, lineStart: boolean): string {
  const tryShapes: Piece[] = piece.url === null ? [piece] : [piece, { ...piece, url: null }];
  for (const shape of tryShapes) {
    const graphemes = graphemesOf(shape.url !== null && shape.raw.trim() === '' ? shape.url : shape.raw);
    let low = 0;
    let high = graphemes.length;
    let best = '';
    // Rendered length grows with the number of graphemes kept, so a binary search finds the most.
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      const head = graphemes.slice(0, mid).join('').trimEnd();
      const rendered = head === '' ? '' : renderPiece({ ...shape, raw: head }, lineStart);
      if (rendered.length <= room) {
        low = mid;
        best = rendered;
      } else {
        high = mid - 1;
      }
    }
    if (best !== '') return best;
  }
  return '';
}

export interface RichOptions {
  /** Newlines kept (descriptions, field values); otherwise every run of whitespace is one space. */
  multiline: boolean;
}

/**
 * Rich text as Discord markdown of at most `limit` characters. When it is longer, the spans that
 * fit are kept whole, the next one is cut, and "…" ends the text. Leading and trailing blank
 * space is dropped; at most one blank line is kept in a row.
 */
export function renderRich(value: RichText, limit: number, options: RichOptions): string {
  const max = Math.max(0, Math.floor(limit));
  const pieces = bounded(
    tidy(
      (Array.isArray(value) ? value : []).map((span) => pieceOf(span, options.multiline)),
      options.multiline,
    ),
    max,
  );
  const rendered: string[] = [];
  let lineStart = true;
  for (const piece of pieces) {
    let out = renderPiece(piece, lineStart);
    // A bold run against an italic one (`**a***b*`) reads as neither: a space keeps them apart.
    if (out.startsWith('*') && rendered[rendered.length - 1]?.endsWith('*') === true) out = ` ${out}`;
    rendered.push(out);
    lineStart = endsLine(out, lineStart);
  }
  const whole = rendered.join('');
  if (whole.length <= max) return whole;
  if (max === 0) return '';

  let out = '';
  lineStart = true;
  for (const [index, piece] of pieces.entries()) {
    const full = rendered[index] ?? '';
    // The ellipsis needs one character, so a piece is kept whole only with room left for it.
    if (out.length + full.length + 1 <= max) {
      out += full;
      lineStart = endsLine(full, lineStart);
      continue;
    }
    // The cut piece may take another shape (a link shown as its label), so its neighbour is checked again.
    const space = out.endsWith('*') ? ' ' : '';
    const cut = cutPiece(piece, max - 1 - out.length - space.length, lineStart);
    if (cut !== '') out += cut.startsWith('*') ? space + cut : cut;
    break;
  }
  return `${out.trimEnd()}${ELLIPSIS}`;
}

/**
 * Collapses whitespace across span boundaries: single-line text gets single spaces, multi-line
 * text at most one blank line in a row and no spaces around newlines, and neither starts or ends
 * with whitespace.
 */
function tidy(pieces: Piece[], multiline: boolean): Piece[] {
  const out: Piece[] = [];
  // The last characters written so far: enough to know how the text ends.
  let tail = '';
  for (const piece of pieces) {
    let raw = multiline
      ? piece.raw
          .replace(/[^\S\n]+/gu, ' ')
          .replace(/ *\n */g, '\n')
          .replace(/\n{3,}/g, '\n\n')
      : piece.raw.replace(/\s+/gu, ' ');
    if (tail === '') {
      raw = raw.replace(/^\s+/u, '');
    } else {
      if (tail.endsWith(' ') || tail.endsWith('\n')) raw = raw.replace(/^ +/, '');
      if (raw.startsWith('\n') && tail.endsWith(' ')) {
        // A space before a newline is invisible: take it back.
        const last = out[out.length - 1];
        if (last !== undefined && last.url === null) out[out.length - 1] = { ...last, raw: last.raw.replace(/ +$/, '') };
      }
      const newlinesBefore = /\n*$/.exec(tail)?.[0].length ?? 0;
      const newlinesHere = /^\n*/.exec(raw)?.[0].length ?? 0;
      const allowed = Math.max(0, 2 - newlinesBefore);
      if (newlinesHere > allowed) raw = raw.slice(newlinesHere - allowed);
    }
    if (piece.url === null && raw === '') continue;
    const previous = out[out.length - 1];
    // Neighbours of one style are one run: `**a****b**` would not read as bold.
    if (previous !== undefined && previous.url === null && piece.url === null && previous.style === piece.style) {
      out[out.length - 1] = { ...previous, raw: previous.raw + raw };
    } else {
      out.push({ ...piece, raw });
    }
    // A link always ends in its own markup, never in whitespace.
    tail = `${tail}${piece.url === null ? raw : 'x'}`.slice(-2);
  }
  while (out.length > 0) {
    const last = out[out.length - 1];
    if (last === undefined || last.url !== null) break;
    const trimmed = last.raw.replace(/\s+$/u, '');
    if (trimmed !== '') {
      out[out.length - 1] = { ...last, raw: trimmed };
      break;
    }
    out.pop();
  }
  return out;
}

/**
 * Drops what could never be shown: a piece renders to at least as many characters as its text,
 * so text past `max + 1` characters in all is cut before rendering, and a megabyte of junk costs
 * no more than a field's worth. (A grapheme split at the cut is never shown: it lies past the limit.)
 */
function bounded(pieces: Piece[], max: number): Piece[] {
  const out: Piece[] = [];
  let used = 0;
  for (const piece of pieces) {
    if (used > max) break;
    const room = max + 1 - used;
    out.push(piece.raw.length > room ? { ...piece, raw: piece.raw.slice(0, room) } : piece);
    used += Math.min(piece.raw.length, room);
  }
  return out;
}

/** Plain untrusted text (a title, a field name) as one escaped line within `limit`. */
export function renderLine(text: string, limit: number): string {
  return renderRich([{ text }], limit, { multiline: false });
}
