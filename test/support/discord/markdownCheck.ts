/**
 * An independent reader of the Discord markdown the bot writes, for tests: it walks a text the way
 * Discord's parser does (a backslash makes the next punctuation literal; nothing is escaped inside
 * a code span) and reports every piece of active markup. The renderer may write only bold and
 * italic runs, code spans and `[label](http(s) URL)` links; anything else active (a mention, a
 * spoiler, a heading, a quote, an angle-bracket link) means a stranger's text got through.
 */
import { expect } from 'vitest';

export interface MarkdownReading {
  /** The text a reader sees: escapes resolved, markers dropped. */
  visible: string;
  /** Every active construct found, in order: `bold`, `italic`, `code`, `link:URL`, or `bad:…`. */
  markup: string[];
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const LINE_MARKER = /[ \t]*(?:#{1,3} |-# |> |>>> |[-*+] |\d+\. )/y;
const LINK = /\[((?:\\.|`[^`]*`|[^\]\\`])*)\]\(([^()\s]*)\)/sy;
const STARS = /\*+/y;

export function readMarkdown(text: string, startsLine = true): MarkdownReading {
  const markup: string[] = [];
  let visible = '';
  let lineStart = startsLine;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (lineStart) {
      LINE_MARKER.lastIndex = i;
      const marker = LINE_MARKER.exec(text);
      if (marker !== null) markup.push(`bad:line-start ${JSON.stringify(marker[0])}`);
    }
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      visible += text[i + 1];
      i += 2;
      lineStart = false;
      continue;
    }
    if (c === '\\') markup.push('bad:dangling backslash');
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end === -1) {
        markup.push('bad:unclosed code');
        i += 1;
        continue;
      }
      const inner = text.slice(i + 1, end);
      if (inner.includes('\n')) markup.push('bad:code across lines');
      markup.push('code');
      visible += inner;
      i = end + 1;
      lineStart = false;
      continue;
    }
    if (c === '[') {
      LINK.lastIndex = i;
      const link = LINK.exec(text);
      if (link === null) {
        markup.push('bad:bracket');
        i += 1;
        continue;
      }
      const target = link[2] ?? '';
      markup.push(/^https?:\/\/[^\s()<>]+$/.test(target) ? `link:${target}` : `bad:link ${target}`);
      const label = readMarkdown(link[1] ?? '', false);
      markup.push(
        ...label.markup
          .filter((m) => m.startsWith('bad:') || m.startsWith('link:'))
          .map((m) => (m.startsWith('link:') ? 'bad:nested link' : m)),
      );
      visible += label.visible;
      i += link[0].length;
      lineStart = false;
      continue;
    }
    if (c === '*') {
      STARS.lastIndex = i;
      const run = STARS.exec(text)?.[0] ?? '*';
      markup.push(run.length === 2 ? 'bold' : run.length === 1 ? 'italic' : `bad:${run}`);
      i += run.length;
      lineStart = false;
      continue;
    }
    if (c === '<') {
      markup.push(`bad:angle ${JSON.stringify(text.slice(i, i + 24))}`);
    } else if (c === '|' && text[i + 1] === '|') {
      markup.push('bad:spoiler');
    } else if (c === '~' && text[i + 1] === '~') {
      markup.push('bad:strike');
    } else if (c === '_' && text[i + 1] === '_') {
      markup.push('bad:underline');
    } else if (c === '_') {
      markup.push('bad:underscore');
    }
    visible += c;
    lineStart = c === '\n';
    i += 1;
  }
  return { visible, markup };
}

/** Plain text shows no markup, but a mention's syntax is defused there too. */
const LIVE_MENTION = /@(everyone|here)\b|<[@#]/i;
const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

/** A text Discord renders as markdown (title, description, field name or value) that no stranger could have steered. */
export function expectSafeMarkdown(text: string, where: string, options: { plain?: boolean } = {}): MarkdownReading {
  const reading = readMarkdown(text);
  expect(
    reading.markup.filter((m) => m.startsWith('bad:')),
    `${where}: ${JSON.stringify(text.slice(0, 300))}`,
  ).toEqual([]);
  if (options.plain === true) expect(reading.markup, `${where} has markup`).toEqual([]);
  expect(text, `${where}: forbidden character`).not.toMatch(FORBIDDEN);
  // What a reader sees may contain "<@1>" as text (escaped), but Discord resolves mentions only
  // from unescaped syntax, checked above; mass mentions must not even be seen as ASCII.
  expect(reading.visible, `${where}: mass mention`).not.toMatch(/@(everyone|here)\b/i);
  for (const m of reading.markup) if (m.startsWith('link:')) expect(m).toMatch(/^link:https?:\/\//);
  return reading;
}

/** A text Discord shows as plain (footer, button label): nothing invisible, no mass mention. */
export function expectSafePlain(text: string, where: string): void {
  expect(text, `${where}: forbidden character`).not.toMatch(FORBIDDEN);
  expect(text, `${where}: mention`).not.toMatch(LIVE_MENTION);
}
