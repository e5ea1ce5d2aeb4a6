/**
 * The start-up check of the configured service: one `token-data` call, made once before anything
 * else starts, that tells a wrong key apart from a service that is down.
 *
 * - The key refused (401 or 403): start-up stops. Nothing the bot does would work, and retrying a
 *   refused key only piles up refused requests.
 * - The service answered: it is there and took the key. The address asked for is Solana's System
 *   Program, well formed and never a token, so the usual answer is "not found" (the token left out
 *   of `data`, or a 404): the service checks the key before it looks anything up, so a refused key
 *   is a 401 whatever the address, and any other answer proves the key.
 * - Anything else (unreachable, too slow, 5xx, an answer it could not read): one warning, and the
 *   bot starts anyway. An outage must not keep the bot down: the streams reconnect, the
 *   reconciliation runs again every minute, and each look-up asks the service anew.
 */
import { isMarketError, type MarketError } from './errors';
import type { MarketClient } from './client';

/** Solana's System Program: a well-formed address that no service holds as a token. */
export const SERVICE_CHECK_ADDRESS = '11111111111111111111111111111111';

/** The service refused the API key: start-up stops with this one line. */
export class ServiceKeyRefusedError extends Error {
  constructor(baseUrl: string, status: number | null) {
    super(
      `The market data service at ${baseUrl} refused TMDS_API_KEY (${status === null ? 'unauthorized' : `HTTP ${status}`}): ` +
        `set the key the service issued`,
    );
    this.name = 'ServiceKeyRefusedError';
  }
}

export type ServiceCheck = { status: 'ok' } | { status: 'unavailable'; error: MarketError };

/**
 * Asks the service once. `client` should not retry (the bot's own client waits and retries for
 * up to TMDS_CALL_DEADLINE, which would hold start-up and log each retry).
 */
export async function checkService(client: Pick<MarketClient, 'tokenBatch'>, baseUrl: string): Promise<ServiceCheck> {
  try {
    await client.tokenBatch([SERVICE_CHECK_ADDRESS]);
    return { status: 'ok' };
  } catch (error) {
    if (!isMarketError(error)) throw error;
    if (error.kind === 'unauthorized') throw new ServiceKeyRefusedError(baseUrl, error.status);
    // A 404 for an address the service does not hold: the key was taken.
    if (error.kind === 'not-found') return { status: 'ok' };
    return { status: 'unavailable', error };
  }
}
