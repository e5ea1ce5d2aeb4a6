/**
 * A checker for Telegram's HTML subset (parse_mode HTML), written from the Bot API's rules and
 * independent of the renderer: telegram-test-api accepts any text, so tests check the markup here.
 *
 * Rules enforced (https://core.telegram.org/bots/api#html-style and #formatting-options):
 * - tags only b/strong, i/em, u/ins, s/strike/del, span class="tg-spoiler", tg-spoiler,
 *   a href, code, pre, blockquote (optionally expandable), tg-emoji; every tag closed, in order;
 * - `<`, `>` and `&` outside tags only as entities: &lt; &gt; &amp; &quot; or numeric ones;
 * - nesting: code and pre contain no other tag (but pre may hold one code with a language
 *   class); code, pre and a sit in no bold, italic, underline, strike, spoiler or link and
 *   contain no link; a blockquote is never inside another;
 * - and, the bot's own rule: every href is an absolute http(s) URL.
 * The length is the parsed text in UTF-16 code units, as Telegram counts its limits.
 */

export interface ParsedHtml {
  /** The text Telegram shows, entities decoded, tags gone. */
  text: string;
  /** UTF-16 code units of `text`. */
  length: number;
  /** Every href, in order. */
  links: string[];
  /** Tag names in order of opening. */
  tags: string[];
}

const STYLE_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler']);
const ALL_TAGS = new Set([...STYLE_TAGS, 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export class TelegramHtmlError extends Error {}

function decodeEntity(entity: string): string {
  const named = NAMED_ENTITIES[entity];
  if (named !== undefined) return named;
  const numeric = /^#(?:x([0-9a-f]+)|(\d+))$/i.exec(entity);
  if (numeric === null) throw new TelegramHtmlError(`unsupported entity &${entity};`);
  const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
  if (!Number.isInteger(code) || code > 0x10ffff) throw new TelegramHtmlError(`bad numeric entity &${entity};`);
  return String.fromCodePoint(code);
}

/** Text between tags: entities decoded; a bare `<`, `>` or `&` is an error. */
function decodeText(raw: string): string {
  if (/[<>]/.test(raw)) throw new TelegramHtmlError(`bare < or > in ${JSON.stringify(raw.slice(0, 40))}`);
  return raw.replace(/&([^;&\s]*);?/g, (whole, entity: string) => {
    if (!whole.endsWith(';')) throw new TelegramHtmlError(`bare & in ${JSON.stringify(raw.slice(0, 40))}`);
    return decodeEntity(entity);
  });
}

interface Open {
  name: string;
  hasLanguage: boolean;
}

function readAttributes(source: string): Map<string, string | true> {
  const attributes = new Map<string, string | true>();
  const pattern = /\s*([a-z-]+)(?:\s*=\s*"([^"]*)")?/gy;
  let rest = source;
  while (rest.trim() !== '') {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (match === null || match[0] === '') throw new TelegramHtmlError(`unreadable attributes ${JSON.stringify(source)}`);
    const name = match[1] ?? '';
    if (attributes.has(name)) throw new TelegramHtmlError(`repeated attribute ${name}`);
    attributes.set(name, match[2] === undefined ? true : decodeText(match[2]));
    rest = rest.slice(match[0].length);
  }
  return attributes;
}

function checkOpening(name: string, attributes: Map<string, string | true>, stack: readonly Open[], links: string[]): boolean {
  const inside = (names: string[]) => stack.some((open) => names.includes(open.name));
  const parent = stack[stack.length - 1];
  if (parent !== undefined && (parent.name === 'code' || (parent.name === 'pre' && name !== 'code'))) {
    throw new TelegramHtmlError(`<${name}> inside <${parent.name}>`);
  }
  let hasLanguage = false;
  const allow = (...names: string[]) => {
    for (const key of attributes.keys()) if (!names.includes(key)) throw new TelegramHtmlError(`attribute ${key} on <${name}>`);
  };
  switch (name) {
    case 'a': {
      allow('href');
      const href = attributes.get('href');
      if (typeof href !== 'string') throw new TelegramHtmlError('<a> without href');
      if (!/^https?:\/\/[^\s/]+/i.test(href)) throw new TelegramHtmlError(`href not http(s): ${href}`);
      links.push(href);
      if (inside(['a', 'code', 'pre'])) throw new TelegramHtmlError('<a> inside a link or code');
      break;
    }
    case 'code': {
      allow('class');
      const cls = attributes.get('class');
      if (cls !== undefined) {
        if (parent?.name !== 'pre' || typeof cls !== 'string' || !/^language-[\w+-]+$/.test(cls))
          throw new TelegramHtmlError('a language class outside <pre>');
        hasLanguage = true;
      }
      if (parent?.name !== 'pre' && inside([...STYLE_TAGS, 'a'])) throw new TelegramHtmlError('<code> inside a styled run or link');
      break;
    }
    case 'pre':
      allow();
      if (inside([...STYLE_TAGS, 'a', 'code', 'pre'])) throw new TelegramHtmlError('<pre> inside a styled run or link');
      break;
    case 'blockquote':
      allow('expandable');
      if (attributes.has('expandable') && attributes.get('expandable') !== true) throw new TelegramHtmlError('expandable takes no value');
      if (inside(['blockquote'])) throw new TelegramHtmlError('nested <blockquote>');
      break;
    case 'span':
      allow('class');
      if (attributes.get('class') !== 'tg-spoiler') throw new TelegramHtmlError('<span> without class="tg-spoiler"');
      break;
    case 'tg-emoji':
      allow('emoji-id');
      if (typeof attributes.get('emoji-id') !== 'string') throw new TelegramHtmlError('<tg-emoji> without emoji-id');
      break;
    default:
      allow();
  }
  return hasLanguage;
}

/** Parses Telegram HTML; throws TelegramHtmlError naming the first rule broken. */
export function parseTelegramHtml(html: string): ParsedHtml {
  const stack: Open[] = [];
  const links: string[] = [];
  const tags: string[] = [];
  let text = '';
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>/g;
  let last = 0;
  for (let match = tagPattern.exec(html); match !== null; match = tagPattern.exec(html)) {
    const piece = decodeText(html.slice(last, match.index));
    text += piece;
    last = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = (match[2] ?? '').toLowerCase();
    if (name !== match[2]) throw new TelegramHtmlError(`tag <${match[2]}> not in lower case`);
    if (!ALL_TAGS.has(name)) throw new TelegramHtmlError(`unsupported tag <${name}>`);
    if (closing) {
      if ((match[3] ?? '').trim() !== '') throw new TelegramHtmlError(`attributes on </${name}>`);
      const open = stack.pop();
      if (open?.name !== name) throw new TelegramHtmlError(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    const attributes = readAttributes(match[3] ?? '');
    const hasLanguage = checkOpening(name, attributes, stack, links);
    stack.push({ name, hasLanguage });
    tags.push(name);
  }
  text += decodeText(html.slice(last));
  if (stack.length > 0) throw new TelegramHtmlError(`<${stack[stack.length - 1]?.name}> never closed`);
  return { text, length: text.length, links, tags };
}
