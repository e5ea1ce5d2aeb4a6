/**
 * What every card built from hostile token data must hold, whatever the renderer: its texts carry
 * no control, invisible or direction-changing characters and no live mass mention, and no link
 * anywhere on it is anything but a safe http(s) URL. The console's text of it holds the same.
 */
import { expect } from 'vitest';
import { type Card, type RichText, plainText } from '../../src/cards/card';
import { UNSAFE_CHARACTER, safeUrl } from '../../src/text/sanitize';
import { renderCardText } from '../../src/chats/console/render';

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
  expectSafeText(renderCardText(card));
}

/** What must never reach a terminal from a stranger, written out independently of the renderer. */
const FORBIDDEN_IN_TEXT =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

/** A card as the console prints it: no control or invisible character, no live mention, only web links. */
function expectSafeText(output: string): void {
  expect(output, 'rendered text').not.toMatch(FORBIDDEN_IN_TEXT);
  // A link's address is shown as written (percent-encoded where unsafe); only the words around it can ping.
  expect(output.replace(/<https?:\/\/[^\s>]*>/g, ''), 'rendered text').not.toMatch(LIVE_MENTION);
  expect(output, 'rendered text').not.toMatch(/<(?!https?:\/\/)[a-z][a-z0-9+.-]*:/i);
  expect(output.split('\n')[0], 'title line').not.toBe('');
}
