/**
 * Finds Solana addresses pasted in a message: bare, or inside a link to an explorer or a DEX
 * (Solscan, Solana Explorer, SolanaFM, DEX Screener, Birdeye, pump.fun, GMGN, Jupiter, Photon,
 * Raydium, BullX, Axiom, GeckoTerminal, DEXTools, Meteora, Orca and the like). Pure: text in,
 * addresses out.
 *
 * An address is a maximal run of base58 characters, 32 to 44 long, that decodes to exactly 32
 * bytes (a public key). "Maximal" matters: a transaction signature (87–88 characters) or a longer
 * base58 blob never yields an address from its middle, and the 32-byte check turns away words and
 * ids that merely look like base58. Links count whatever their site: an address inside a link is
 * still the thing pasted, and sites come and go faster than a list can follow. The sites we know
 * only give the link's address precedence when several are pasted.
 *
 * The quote mints every swap link carries (wrapped SOL, USDC, USDT) are passed over when the
 * message holds another address, so a Jupiter `swap/SOL-<mint>` or a Raydium
 * `inputMint=sol&outputMint=<mint>` link yields the token, not SOL.
 *
 * This is the bot's one reading of links: every chat's paste reader and every command's address
 * option (addressInput.ts) go through it, so a link answered when pasted is taken after a command
 * too. Links are written by strangers: they are only read as text, never fetched.
 */
import bs58 from 'bs58';

export interface DetectedAddress {
  address: string;
  /** The known site whose link carried it ("solscan", "dexscreener", ...), or null: bare text or another site. */
  site: string | null;
  /** Read from a link hidden behind the message's text (a Telegram text link), not from what the reader sees. */
  hidden?: boolean;
}

const BASE58_RUN = /[1-9A-HJ-NP-Za-km-z]+/g;
const MIN_LENGTH = 32;
const MAX_LENGTH = 44;

/** Quote tokens of nearly every pair: a swap link names one of them beside the token wanted. */
export const QUOTE_MINTS: ReadonlySet<string> = new Set([
  'So11111111111111111111111111111111111111112', // wrapped SOL
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC
  'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', // USDT
]);

/** Host (or its parent domain) → the site's short name. */
const SITES: ReadonlyArray<readonly [string, string]> = [
  ['solscan.io', 'solscan'],
  ['explorer.solana.com', 'solana-explorer'],
  ['solana.fm', 'solanafm'],
  ['dexscreener.com', 'dexscreener'],
  ['birdeye.so', 'birdeye'],
  ['pump.fun', 'pumpfun'],
  ['gmgn.ai', 'gmgn'],
  ['jup.ag', 'jupiter'],
  ['tinyastro.io', 'photon'],
  ['raydium.io', 'raydium'],
  ['bullx.io', 'bullx'],
  ['axiom.trade', 'axiom'],
  ['geckoterminal.com', 'geckoterminal'],
  ['dextools.io', 'dextools'],
  ['meteora.ag', 'meteora'],
  ['orca.so', 'orca'],
  ['letsbonk.fun', 'bonkfun'],
  ['bonk.fun', 'bonkfun'],
  ['moonshot.cc', 'moonshot'],
  ['rugcheck.xyz', 'rugcheck'],
  ['solsniffer.com', 'solsniffer'],
  ['coinmarketcap.com', 'coinmarketcap'],
  ['coingecko.com', 'coingecko'],
];

/**
 * A link as people paste it: with a scheme, or a bare `host.tld/path` (the scheme is often left
 * off when copied from an address bar). Runs to the next whitespace or quote-like character.
 */
const LINK = /\b(?:https?:\/\/)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?::\d{1,5})?\/[^\s<>"'`«»]*/gi;

/** The same form, as the whole of one word: what a command's argument must be to be read as a link. */
const WHOLE_LINK = new RegExp(`^${LINK.source}$`, 'i');

/** Whether `word` is a link as people paste one (with or without its scheme). */
export function isLink(word: string): boolean {
  return WHOLE_LINK.test(word);
}

function siteOf(host: string): string | null {
  const lower = host.toLowerCase().replace(/\.$/, '');
  for (const [domain, name] of SITES) if (lower === domain || lower.endsWith(`.${domain}`)) return name;
  return null;
}

/** True for a base58 text that decodes to a 32-byte public key. */
export function isSolanaPublicKey(candidate: string): boolean {
  if (candidate.length < MIN_LENGTH || candidate.length > MAX_LENGTH) return false;
  try {
    return bs58.decode(candidate).length === 32;
  } catch {
    return false;
  }
}

/** Addresses in a piece of text, in order of appearance. */
function addressesIn(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(BASE58_RUN)) if (isSolanaPublicKey(match[0])) out.push(match[0]);
  return out;
}

function hostOf(link: string): string | null {
  try {
    return new URL(/^https?:\/\//i.test(link) ? link : `https://${link}`).hostname;
  } catch {
    return null;
  }
}

/** The addresses in links, those of known sites first (in `known`) and the others' (in `other`). */
function readLinks(links: readonly string[], known: DetectedAddress[], other: DetectedAddress[], hidden: boolean): void {
  for (const link of links) {
    const host = hostOf(link);
    if (host === null) continue;
    const site = siteOf(host);
    // The host is no place for an address; the path, query and fragment are.
    const afterHost = link.slice(link.toLowerCase().indexOf(host.toLowerCase()) + host.length);
    for (const address of addressesIn(afterHost))
      (site === null ? other : known).push(hidden ? { address, site, hidden } : { address, site });
  }
}

/**
 * Every distinct address in a message: what the reader sees first (links, those of known sites
 * before the others, then bare addresses, each group in order of appearance), then what hides
 * behind the text (`links`: Telegram's text_link targets), marked `hidden`; quote mints last, and
 * only when nothing else is there. A visible address always wins over a hidden one: a message
 * showing one token's address with another behind a link is about the one it shows.
 */
export function detectAddresses(text: string, links: readonly string[] = []): DetectedAddress[] {
  const known: DetectedAddress[] = [];
  const other: DetectedAddress[] = [];
  const bare: DetectedAddress[] = [];
  const hiddenKnown: DetectedAddress[] = [];
  const hiddenOther: DetectedAddress[] = [];
  const seenLinks: string[] = [];
  let rest = text;
  for (const match of text.matchAll(LINK)) {
    seenLinks.push(match[0]);
    // The link's text is taken out, so its address is not counted again as bare text.
    rest = rest.replace(match[0], ' ');
  }
  readLinks(seenLinks, known, other, false);
  for (const address of addressesIn(rest)) bare.push({ address, site: null });
  readLinks(links, hiddenKnown, hiddenOther, true);

  const seen = new Set<string>();
  const ordered: DetectedAddress[] = [];
  const quotes: DetectedAddress[] = [];
  for (const found of [...known, ...other, ...bare, ...hiddenKnown, ...hiddenOther]) {
    if (seen.has(found.address)) continue;
    seen.add(found.address);
    (QUOTE_MINTS.has(found.address) ? quotes : ordered).push(found);
  }
  return ordered.length > 0 ? ordered : quotes;
}

/** The address a message is about, or null. */
export function detectAddress(text: string, links: readonly string[] = []): DetectedAddress | null {
  return detectAddresses(text, links)[0] ?? null;
}
