/**
 * Wiring: settings → market data (the configured service, or the built-in simulator) → commands →
 * chat. With no chat token configured the chat is the console.
 */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { runConsoleChat } from './chats/console/chat';
import { ConfigError, loadConfig, loadDotEnv, type Config } from './config';
import { Dispatcher } from './dispatch/dispatcher';
import { loadCommands } from './dispatch/registry';
import { createLogger, registerSecret } from './log';
import { MarketClient } from './market/client';
import { QueryService } from './query/service';
import type { Market } from './simulator/market';
import { startSimulator, type RunningSimulator } from './simulator/server';
import { MemoryActionKeyStore } from './store/memoryActionKeys';
import { openSqliteStore } from './store/sqliteStore';
import { telegramChat } from './chats/telegram/chatStarter';

function readConfig(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * Addresses for the banner: tokens with ordinary names first (the hostile ones are there to be
 * found, not to greet), and wallets that traded the first of them, so `/trades` with the two
 * suggestions has something to show.
 */
function addressesToTry(market: Market): { tokens: string[]; wallets: string[] } {
  const hostile = new Set(market.hostileTokens());
  const listing = market.listing();
  const tokens = listing.tokens.filter((token) => !hostile.has(token.address)).slice(0, 3).map((token) => token.address);
  const first = tokens[0];
  const traded = first === undefined ? [] : (market.tokenTrades(first, listing.wallets)?.tradeHistory ?? []).map((trade) => trade.makerData.address);
  const wallets = [...new Set([...traded, ...listing.wallets])].slice(0, 2);
  return { tokens, wallets };
}

async function main(): Promise<void> {
  const config = readConfig();
  // Logs go to standard error so that the console chat's answers on standard output stay clean.
  const logger = createLogger(config.logLevel, pino.destination(2));

  let simulator: RunningSimulator | null = null;
  let market = config.market;
  if (market === null) {
    const apiKey = randomBytes(16).toString('hex');
    simulator = await startSimulator({ apiKey, seed: config.simulatorSeed, port: 0 });
    market = { baseUrl: simulator.baseUrl, wsUrl: simulator.wsUrl, apiKey };
  }
  registerSecret(market.apiKey);

  const client = new MarketClient({
    baseUrl: market.baseUrl,
    apiKey: market.apiKey,
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
  });
  const commands = await loadCommands();
  if (config.telegram !== null) {
    // A chat platform keeps its state (button keys, chat settings) in the store.
    const store = openSqliteStore(config.databasePath);
    const dispatcher = new Dispatcher({ commands, services: { query: new QueryService(client), chatSettings: store.chats }, actionKeys: store.actionKeys, logger });
    const telegram = await telegramChat({ config, logger, dispatcher, store });
    const stop = async () => {
      await telegram?.stop();
      await client.close();
      await simulator?.close();
      await store.close();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
    return;
  }
  const dispatcher = new Dispatcher({ commands, services: { query: new QueryService(client) }, actionKeys: new MemoryActionKeyStore(), logger });

  const shutdown = async () => {
    await client.close();
    await simulator?.close();
  };
  process.once('SIGTERM', () => void shutdown().then(() => process.exit(0)));

  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (simulator !== null) {
    const { tokens, wallets } = addressesToTry(simulator.market);
    process.stdout.write(
      `TokenWatch console chat on the built-in simulator (seed ${config.simulatorSeed}, ${simulator.baseUrl}); try /token ${tokens.join(' or ')}, /wallet ${wallets.join(' or ')}, /help\n`,
    );
  } else {
    process.stdout.write(`TokenWatch console chat on ${market.baseUrl}; type /help\n`);
  }
  await runConsoleChat({ input: process.stdin, output: process.stdout, dispatcher, outDir: 'data/out', interactive });
  await shutdown();
}

main().catch((error: unknown) => {
  process.stderr.write(`TokenWatch stopped: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
