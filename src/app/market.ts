/**
 * The market part: the data service at TMDS_BASE_URL, checked once, or the built-in simulator
 * when none is configured; and the REST client every look-up and alert asks through.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { registerSecret, silentLogger, type Logger } from '../log';
import { MarketClient, type MarketClientOptions } from '../market/client';
import { checkService } from '../market/serviceCheck';
import type { Metrics } from '../ops/metrics';
import { startSimulator, type RunningSimulator } from 'tmds-simulator';
import { LIFELIKE_PACE } from 'tmds-simulator';
import { redactUrl } from '../urlCredentials';
import type { Lifecycle } from './lifecycle';

export interface MarketEndpoints {
  baseUrl: string;
  wsUrl: string;
  apiKey: string;
}

export interface MarketPart {
  endpoints: MarketEndpoints;
  /** The built-in simulator, when no service is configured. */
  simulator: RunningSimulator | null;
  client: MarketClient;
}

/**
 * One `token-data` call before anything starts (src/market/serviceCheck.ts): a refused key throws
 * ServiceKeyRefusedError, which stops start-up; a service that does not answer is one warning.
 * Its own client, without retries and without log lines of its own, so the check waits for one
 * attempt at most and is one line in the log whatever happens.
 */
async function checkServiceAtStart(clientOptions: MarketClientOptions, logger: Logger): Promise<void> {
  const checker = new MarketClient({ ...clientOptions, logger: silentLogger, maxRetries: 0 });
  try {
    const check = await checkService(checker, clientOptions.baseUrl);
    if (check.status === 'ok') {
      logger.info({ baseUrl: redactUrl(clientOptions.baseUrl) }, 'market data service answered; API key accepted');
    } else {
      const { kind, status } = check.error;
      logger.warn(
        { baseUrl: redactUrl(clientOptions.baseUrl), kind, status, reason: check.error.message },
        'market data service did not answer the start-up check; starting anyway, look-ups and alerts resume when it answers',
      );
    }
  } finally {
    await checker.close();
  }
}

function clientOptionsOf(config: Config, endpoints: MarketEndpoints, logger: Logger): MarketClientOptions {
  return {
    baseUrl: endpoints.baseUrl,
    apiKey: endpoints.apiKey,
    logger,
    connectTimeoutMs: config.connectTimeoutMs,
    headersTimeoutMs: config.timeoutMs,
    bodyTimeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    limits: config.rateLimits,
    maxRateLimitWaitMs: config.rateLimitMaxWaitMs,
    cacheTtlMs: config.cacheTtlMs,
    tokenBatchSize: config.tokenBatchSize,
    callDeadlineMs: config.callDeadlineMs,
    maxBodyBytes: config.bodyLimits,
    cacheMaxBytes: config.cacheMaxBytes,
  };
}

/** The configured service, or the built-in simulator started on a free port with a key of its own. */
async function marketSource(config: Config, lifecycle: Lifecycle): Promise<Pick<MarketPart, 'endpoints' | 'simulator'>> {
  if (config.market !== null) return { endpoints: config.market, simulator: null };
  const apiKey = randomBytes(16).toString('hex');
  // A market that trades by itself, so that a tracked token alerts within minutes with nothing forced
  // (packages/tmds-simulator/src/pace.ts).
  // The vendor's protocol writes as the live service does: its own wire style.
  const simulator = await startSimulator({
    apiKey,
    seed: config.simulatorSeed,
    port: 0,
    protocol: config.simulatorProtocol,
    ...(config.simulatorProtocol === 'vendor' ? {} : { style: config.simulatorStyle }),
    pace: LIFELIKE_PACE,
  });
  lifecycle.onStop('simulator', () => simulator.close());
  return { endpoints: { baseUrl: simulator.baseUrl, wsUrl: simulator.wsUrl, apiKey }, simulator };
}

export async function startMarket(config: Config, logger: Logger, metrics: Metrics | null, lifecycle: Lifecycle): Promise<MarketPart> {
  const { endpoints, simulator } = await marketSource(config, lifecycle);
  registerSecret(endpoints.apiKey);
  const clientOptions = clientOptionsOf(config, endpoints, logger);
  if (simulator === null) await checkServiceAtStart(clientOptions, logger);
  const client = new MarketClient({ ...clientOptions, ...(metrics === null ? {} : { onAttempt: metrics.requested }) });
  lifecycle.onStop('marketClient', () => client.close());
  return { endpoints, simulator, client };
}
