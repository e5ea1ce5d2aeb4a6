/**
 * Card + buttons → a Discord message: one embed, rows of buttons, and the card's picture as an
 * attachment the embed shows. Pure: no client, no network, so a contract test can push every kind
 * of card through it and check every limit Discord sets.
 *
 * Nothing is ever refused for being too long: each piece is cut to its own limit with "…", and
 * when the embed as a whole is over 6,000 characters the longest pieces are cut further, one at
 * a time, until it fits. A card with more than 25 fields keeps 24 and says how many it left out.
 */
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APIEmbedField,
} from 'discord.js';
import type { Card, CardColor, CardField, RichText } from '../../cards/card';
import { cleanText, defuseMentions, safeUrl } from '../../text/sanitize';
import type { ActionButton } from '../../model/chat';
import {
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW,
  CUSTOM_ID_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELD_NAME_MAX,
  EMBED_FIELD_VALUE_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FOOTER_MAX,
  EMBED_TITLE_MAX,
  EMBED_TOTAL_MAX,
  ROWS_MAX,
} from './limits';
import { ELLIPSIS, renderLine, renderRich } from './markdown';

/** Colours of the risk statuses and card kinds, as Discord's 24-bit integers. */
export const EMBED_COLORS: Record<CardColor, number> = {
  safe: 0x2ecc71,
  warning: 0xf1c40f,
  danger: 0xe74c3c,
  neutral: 0x95a5a6,
  info: 0x3498db,
  error: 0x992d22,
};

/** A file sent with the message; the embed refers to it as `attachment://name`. */
export interface DiscordFile {
  name: string;
  data: Buffer;
  contentType: string;
  description?: string;
}

export type ButtonRow = APIActionRowComponent<APIButtonComponentWithCustomId>;

/** A message as discord.js and the REST API both take it (apart from the casing of allowed mentions). */
export interface DiscordCardMessage {
  embeds: APIEmbed[];
  components: ButtonRow[];
  files: DiscordFile[];
}

/** What stands in for a field name or value that is empty once cleaned: Discord refuses empty ones. */
const EMPTY = '—';
const UNTITLED = '(untitled)';
/** Attachment names: safe characters only, and short. */
const FILENAME_MAX = 64;
const MIN_CUT = 1;

/** A custom_id Discord accepts and the pipeline issued: keys are [A-Za-z0-9_-], at most 100. */
const VALID_KEY = /^[A-Za-z0-9_-]{1,100}$/;

/** Extensions Discord shows inline in an embed, by content type. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'text/csv': 'csv',
};

/** An attachment's name reduced to [A-Za-z0-9._-] with the extension its content type needs. */
export function attachmentName(filename: string, contentType: string): string {
  const extension = EXTENSIONS[contentType.toLowerCase()] ?? 'png';
  const stem = filename
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, FILENAME_MAX - extension.length - 1);
  return `${stem === '' ? 'image' : stem}.${extension}`;
}

/** One piece of the embed that counts toward the 6,000, rendered again with a smaller limit when cut. */
interface Part {
  limit: number;
  render(limit: number): string;
  text: string;
}

function part(limit: number, render: (limit: number) => string): Part {
  return { limit, render, text: render(limit) };
}

function fieldParts(fields: readonly CardField[]): Array<{ name: Part; value: Part; inline: boolean }> {
  const list = Array.isArray(fields) ? fields : [];
  const shown = list.length > EMBED_FIELDS_MAX ? list.slice(0, EMBED_FIELDS_MAX - 1) : list;
  const parts = shown.map((f) => ({
    name: part(EMBED_FIELD_NAME_MAX, (limit) => renderLine(typeof f.name === 'string' ? f.name : '', limit) || EMPTY),
    value: part(EMBED_FIELD_VALUE_MAX, (limit) => renderRich(Array.isArray(f.value) ? f.value : [], limit, { multiline: true }) || EMPTY),
    inline: f.inline === true,
  }));
  if (list.length > shown.length) {
    const left = list.length - shown.length;
    parts.push({
      name: part(EMBED_FIELD_NAME_MAX, () => ELLIPSIS),
      value: part(EMBED_FIELD_VALUE_MAX, () => `${left} more not shown`),
      inline: false,
    });
  }
  return parts;
}

/**
 * Footers show as plain text in Discord (no markdown, no mentions), so they are cleaned and cut,
 * never escaped: a backslash would show.
 */
function footerText(footer: string | undefined, limit: number): string {
  return defuseMentions(cleanText(footer, limit));
}

function total(parts: readonly Part[]): number {
  return parts.reduce((sum, p) => sum + p.text.length, 0);
}

/**
 * Cuts the longest pieces until the embed fits in EMBED_TOTAL_MAX: each round takes the longest
 * piece and renders it again with as much less room as the embed is over (at least a tenth of
 * the piece, so the rounds stay few). The title is cut last.
 */
function fitTotal(parts: Part[], title: Part): void {
  for (let round = 0; round < 200; round += 1) {
    const over = total(parts) + title.text.length - EMBED_TOTAL_MAX;
    if (over <= 0) return;
    const longest = parts.reduce<Part | null>((best, p) => (best === null || p.text.length > best.text.length ? p : best), null);
    const target = longest !== null && longest.text.length > MIN_CUT ? longest : title.text.length > MIN_CUT ? title : null;
    if (target === null) return;
    const cut = Math.max(over, Math.ceil(target.text.length / 10));
    target.limit = Math.max(MIN_CUT, target.text.length - cut);
    target.text = target.render(target.limit);
  }
}

/** Buttons as rows of five, at most five rows; keys Discord would refuse are left off. */
export function buttonRows(buttons: readonly ActionButton[]): ButtonRow[] {
  const usable = (Array.isArray(buttons) ? buttons : []).filter(
    (b) => typeof b.key === 'string' && VALID_KEY.test(b.key) && b.key.length <= CUSTOM_ID_MAX,
  );
  const seen = new Set<string>();
  const unique = usable.filter((b) => !seen.has(b.key) && seen.add(b.key) !== undefined);
  const kept = unique.slice(0, BUTTONS_PER_ROW * ROWS_MAX);
  const rows: ButtonRow[] = [];
  for (let i = 0; i < kept.length; i += BUTTONS_PER_ROW) {
    rows.push({
      type: ComponentType.ActionRow,
      components: kept.slice(i, i + BUTTONS_PER_ROW).map((b) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        // Button labels are plain text in Discord: cleaned and cut, not escaped.
        label: defuseMentions(cleanText(b.label, BUTTON_LABEL_MAX, 'Open')),
        custom_id: b.key,
      })),
    });
  }
  return rows;
}

function isoTime(date: Date | undefined): string | undefined {
  return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/** The card's embed and picture, without buttons: the part shared by every chat an alert goes to. */
export interface RenderedCard {
  embeds: APIEmbed[];
  files: DiscordFile[];
}

export function renderCardMessage(card: Card, buttons: readonly ActionButton[] = []): DiscordCardMessage {
  return { ...renderCard(card), components: buttonRows(buttons) };
}

export function renderCard(card: Card): RenderedCard {
  const title = part(EMBED_TITLE_MAX, (limit) => renderLine(typeof card.title === 'string' ? card.title : '', limit) || UNTITLED);
  const description: RichText = Array.isArray(card.description) ? card.description : [];
  const descriptionPart = part(EMBED_DESCRIPTION_MAX, (limit) => renderRich(description, limit, { multiline: true }));
  const fields = fieldParts(card.fields);
  const footer = part(EMBED_FOOTER_MAX, (limit) => footerText(card.footer, limit));
  fitTotal([descriptionPart, ...fields.flatMap((f) => [f.name, f.value]), footer], title);

  const embed: APIEmbed = { title: title.text, color: EMBED_COLORS[card.color] ?? EMBED_COLORS.neutral };
  const url = safeUrl(card.url);
  if (url !== null) embed.url = url;
  if (descriptionPart.text !== '') embed.description = descriptionPart.text;
  if (fields.length > 0) embed.fields = fields.map((f): APIEmbedField => ({ name: f.name.text, value: f.value.text, inline: f.inline }));
  const thumbnail = safeUrl(card.thumbnailUrl);
  if (thumbnail !== null) embed.thumbnail = { url: thumbnail };
  if (footer.text !== '') embed.footer = { text: footer.text };
  const timestamp = isoTime(card.timestamp);
  if (timestamp !== undefined) embed.timestamp = timestamp;

  const files: DiscordFile[] = [];
  const image = card.image;
  if (image !== undefined && image.data instanceof Uint8Array && image.data.length > 0) {
    const name = attachmentName(
      typeof image.filename === 'string' ? image.filename : '',
      typeof image.contentType === 'string' ? image.contentType : '',
    );
    const file: DiscordFile = {
      name,
      data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength),
      contentType: image.contentType,
    };
    // The description is alt text: plain, short.
    const alt = cleanText(image.description, 1024);
    if (alt !== '') file.description = alt;
    files.push(file);
    // A file that is no picture (a CSV export) is sent as an attachment beside the embed, not shown in it.
    if (image.contentType.startsWith('image/')) embed.image = { url: `attachment://${name}` };
  }

  return { embeds: [embed], files };
}

/** Characters Discord counts toward an embed's 6,000: title, description, field names and values, footer. */
export function embedLength(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0)
  );
}
