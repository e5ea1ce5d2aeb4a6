/**
 * A token's link as a card shows it. Token metadata often writes links without a scheme
 * (`"twitter": "x.com/foo"`), as people type them; a card shows those as `https://x.com/foo` when
 * the value is plainly a host and a path on the web, and drops everything else as safeUrl does.
 *
 * The rule for a value without a scheme (written down in docs/market-client.md): it must start
 * with a host name of dot-separated labels (letters, digits, inner hyphens), followed by nothing or
 * by `/`, `?` or `#`; and the host must be a known social or link host (or a subdomain of one), or
 * end in a known top-level domain. No port, no user, no `//`, no IP address, no single-label host.
 * The result is `https://` + the value, which must then pass safeUrl like any other link. Anything
 * with a scheme (`javascript:`, `data:`, `x.com:443`…) is left to safeUrl, which takes only http
 * and https.
 */
import { safeUrl } from './sanitize';

/** Hosts token links point to most: social networks, chats, code and link pages. */
const SOCIAL_HOSTS = new Set([
  'x.com',
  'twitter.com',
  't.me',
  'telegram.me',
  'discord.gg',
  'discord.com',
  'instagram.com',
  'tiktok.com',
  'youtube.com',
  'youtu.be',
  'facebook.com',
  'reddit.com',
  'medium.com',
  'github.com',
  'linktr.ee',
  'warpcast.com',
  'pump.fun',
]);

/**
 * Top-level domains a project site commonly has: the generic ones, those crypto projects favour,
 * and the largest country codes. A host outside them and the social hosts is more likely a typo
 * or a word with a dot than a site, and a wrong guess makes a dead link on a card.
 */
const KNOWN_TLDS = new Set(
  (
    'com org net io co ai app dev xyz fun gg me so fi finance money site online tech info meme lol wtf vip club pro tv ' +
    'art lat live world life network space store shop cash exchange capital fund global cloud digital land today ' +
    'us uk de fr es it nl ch eu ca au jp kr cn in br ru sg hk to ly ws cc la'
  ).split(' '),
);

/** A host of dot-separated labels (each letters and digits, hyphens inside), then the end or a path, query or fragment. */
const BARE_HOST = /^((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?=$|[/?#])/i;

function knownHost(host: string): boolean {
  const name = host.toLowerCase();
  const bare = name.startsWith('www.') ? name.slice(4) : name;
  if (SOCIAL_HOSTS.has(bare)) return true;
  for (const social of SOCIAL_HOSTS) if (bare.endsWith(`.${social}`)) return true;
  const tld = name.slice(name.lastIndexOf('.') + 1);
  return KNOWN_TLDS.has(tld);
}

/** The link to show for `value`: a safe http(s) URL (safeUrl), the same with https:// for a bare host and path on a known host, or null. */
export function linkUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const safe = safeUrl(value);
  if (safe !== null) return safe;
  const bare = value.replace(/^ +| +$/g, '');
  const host = BARE_HOST.exec(bare)?.[1];
  if (host === undefined || !knownHost(host)) return null;
  return safeUrl(`https://${bare}`);
}
