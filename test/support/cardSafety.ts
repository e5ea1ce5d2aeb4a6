/**
 * What every card built from hostile token data must hold, whatever the renderer: its texts carry
 * no control, invisible or direction-changing characters and no live mass mention, and no link
 * anywhere on it is anything but a safe http(s) URL.
 */
import { expect } from 'vitest';
import { type Card, type RichText, plainText } from '../../src/cards/card';
import { UNSAFE_CHARACTER, safeUrl } from '../../src/cards/sanitize';

/** Every piece of text on the card a reader sees, one entry per piece. */
export function cardTexts(card: Card): string[] {
  const rich = (value: RichText | undefined) => (value === undefined ? [] : [plainText(value)]);
  return [
    card.title,
    ...rich(card.description),
    ...card.fields.flatMap((f) => [f.name, plainText(f.value)]),
    ...(card.footer === undefined ? [] : [card.footer]),
    ...card.actions.flatMap((a) => [a.label, a.command, ...a.args]),
  ];
}

/** Every URL on the card: its own, the thumbnail's and every span's. */
export function cardUrls(card: Card): string[] {
  const spans = [...(card.description ?? []), ...card.fields.flatMap((f) => f.value)];
  return [card.url, card.thumbnailUrl, ...spans.map((span) => span.url)].filter((url): url is string => url !== undefined);
}

const LIVE_MENTION = /@(everyone|here)|<[@#]/i;

export function expectSafeCard(card: Card, options: { titleMax?: number } = {}): void {
  for (const piece of cardTexts(card)) {
    expect(UNSAFE_CHARACTER.test(piece), `unsafe character in ${JSON.stringify(piece)}`).toBe(false);
    expect(LIVE_MENTION.test(piece), `live mention in ${JSON.stringify(piece)}`).toBe(false);
  }
  for (const url of cardUrls(card)) {
    expect(safeUrl(url), `unsafe url ${url}`).toBe(url);
    expect(url).toMatch(/^https?:\/\//);
    expect(url).not.toMatch(/^(javascript|data):/i);
  }
  if (options.titleMax !== undefined) expect(card.title.length).toBeLessThanOrEqual(options.titleMax);
}
