/**
 * Addresses the bot talks to in the clear: plain `http://` (or `ws://`) to the market data service,
 * Telegram's Bot API or Discord's REST on another machine sends the API key or the bot token
 * readable by anyone on the way. Loopback (a local proxy, a test double) is fine. Said once at
 * start, in one line, with the addresses' credentials hidden (src/urlCredentials.ts).
 *
 * The chat platforms' API addresses are their sections' (src/chats/<name>/settings.ts), which
 * check their form at start; here they are read from the same environment (`Config.env`), each
 * only while the variable that switches its platform on is set.
 */
import type { Config } from './config';
import { redactUrl } from './urlCredentials';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function plainRemote(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'ws:') && !LOOPBACK.test(url.hostname);
}

/** A chat platform's API address variable, and the variable that switches its platform on. */
const PLATFORM_ADDRESSES: ReadonlyArray<{ variable: string; token: string }> = [
  { variable: 'TELEGRAM_API_ROOT', token: 'TELEGRAM_BOT_TOKEN' },
  { variable: 'DISCORD_REST_API', token: 'DISCORD_TOKEN' },
];

/** An address variable's value as its section reads it (without trailing slashes); undefined when blank. */
function addressOf(env: Config['env'], name: string): string | undefined {
  const value = env[name]?.trim() ?? '';
  if (value === '') return undefined;
  try {
    return new URL(value).toString().replace(/\/+$/, '');
  } catch {
    return value;
  }
}

/** The one warning line to log at start, or null when every address is encrypted or local. */
export function plainAddressWarning(config: Pick<Config, 'market' | 'env'>): string | null {
  const named: Array<[string, string | null | undefined]> = [
    ['TMDS_BASE_URL', config.market?.baseUrl],
    ['TMDS_WS_URL', config.market?.wsUrl],
    ...PLATFORM_ADDRESSES.map(({ variable, token }): [string, string | undefined] => [
      variable,
      (config.env[token]?.trim() ?? '') === '' ? undefined : addressOf(config.env, variable),
    ]),
  ];
  const plain = named.filter((entry): entry is [string, string] => typeof entry[1] === 'string' && plainRemote(entry[1]));
  if (plain.length === 0) return null;
  return (
    `unencrypted address to another machine ` +
    `(${plain.map(([name, address]) => `${name}=${redactUrl(address)}`).join(', ')}): keys and tokens cross the network ` +
    `readable; use https:// and wss://`
  );
}
