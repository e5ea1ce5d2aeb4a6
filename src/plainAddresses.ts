/**
 * Addresses the bot talks to in the clear: plain `http://` (or `ws://`) to the market data service,
 * Telegram's Bot API or Discord's REST on another machine sends the API key or the bot token
 * readable by anyone on the way. Loopback (a local proxy, a test double) is fine. Said once at
 * start, in one line, with the addresses' credentials hidden (src/urlCredentials.ts).
 *
 * The chat platforms' addresses come as their settings sections read them (`platformAddresses`,
 * src/chats/platforms.ts): each platform names its own, and only while it is configured.
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

/** The one warning line to log at start, or null when every address is encrypted or local. */
export function plainAddressWarning(
  config: Pick<Config, 'market'>,
  chatAddresses: ReadonlyArray<readonly [string, string]> = [],
): string | null {
  const named: Array<readonly [string, string | null | undefined]> = [
    ['TMDS_BASE_URL', config.market?.baseUrl],
    ['TMDS_WS_URL', config.market?.wsUrl],
    ...chatAddresses,
  ];
  const plain = named.filter((entry): entry is [string, string] => typeof entry[1] === 'string' && plainRemote(entry[1]));
  if (plain.length === 0) return null;
  return (
    `unencrypted address to another machine ` +
    `(${plain.map(([name, address]) => `${name}=${redactUrl(address)}`).join(', ')}): keys and tokens cross the network ` +
    `readable; use https:// and wss://`
  );
}
