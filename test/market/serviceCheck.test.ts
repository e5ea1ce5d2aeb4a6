/**
 * The start-up check of the configured service, as the bot runs it (startApp) against the
 * simulator over real HTTP: a refused key stops start-up before anything is opened; a service that
 * is down or failing is one warning, and the bot starts and answers once the service does.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger, type Logger } from '../../src/log';
import { SERVICE_CHECK_ADDRESS, ServiceKeyRefusedError } from '../../src/market/serviceCheck';
import { isAddress } from '../../src/market/address';
import { startSimulator } from 'tmds-simulator';
import { tempDb } from '../delivery/helpers';

const KEY = 'service-check-key-77c1';
const CHECK_WARNING = 'market data service did not answer the start-up check; starting anyway, look-ups and alerts resume when it answers';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function captured(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger('info', { write: (line: string) => void lines.push(line) }), lines };
}

function settings(baseUrl: string, apiKey: string, databasePath: string) {
  // Reconciliation at start only; no retries, so a failing service fails each call at once.
  return loadConfig({
    TMDS_BASE_URL: baseUrl,
    TMDS_API_KEY: apiKey,
    DATABASE_PATH: databasePath,
    RECONCILE_CRON: '0 0 1 1 *',
    TMDS_MAX_RETRIES: '0',
  });
}

function consoleIo() {
  return { input: new PassThrough(), output: new PassThrough(), interactive: false, outDir: '/tmp' };
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the start-up check of the service', () => {
  it('asks for a well-formed address that is no token', () => {
    expect(isAddress(SERVICE_CHECK_ADDRESS)).toBe(true);
  });

  it('a refused key stops start-up with one line, before the database is opened, never naming the key', async () => {
    const sim = await startSimulator({ apiKey: KEY, port: 0, seed: 42 });
    cleanups.push(() => sim.close());
    const db = tempDb();
    cleanups.push(db.cleanup);
    const { logger, lines } = captured();
    const wrongKey = 'wrong-key-not-to-be-shown';
    const started = startApp({ config: settings(sim.baseUrl, wrongKey, db.path), logger, console: consoleIo() });
    const error = await started.then(
      (app) => {
        cleanups.push(() => app.stop());
        return null;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceKeyRefusedError);
    const message = (error as Error).message;
    expect(message).toBe(`The market data service at ${sim.baseUrl} refused TMDS_API_KEY (HTTP 401): set the key the service issued`);
    expect(message).not.toContain(wrongKey);
    expect(existsSync(db.path)).toBe(false);
    // One token-data request, for the check's address, and nothing else asked of the service.
    expect(sim.stats.requests().map((request) => [request.endpoint, request.status])).toEqual([['token-data', 401]]);
    expect(sim.stats.requests()[0]?.query).toEqual({ addresses: SERVICE_CHECK_ADDRESS });
    expect(lines.join('')).not.toContain(wrongKey);
  });

  it('an accepted key: one check that finds no token, one line saying so, and the bot starts', async () => {
    const sim = await startSimulator({ apiKey: KEY, port: 0, seed: 42 });
    cleanups.push(() => sim.close());
    const db = tempDb();
    cleanups.push(db.cleanup);
    const { logger, lines } = captured();
    const app = await startApp({ config: settings(sim.baseUrl, KEY, db.path), logger, console: consoleIo() });
    cleanups.push(() => app.stop());
    expect(sim.stats.requests('token-data')[0]).toMatchObject({ query: { addresses: SERVICE_CHECK_ADDRESS }, status: 200 });
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.filter((line) => line.msg === 'market data service answered; API key accepted')).toHaveLength(1);
    expect(parsed.filter((line) => line.msg === CHECK_WARNING)).toHaveLength(0);
  });

  it('an unreachable service: one warning, and the bot starts', async () => {
    const db = tempDb();
    cleanups.push(db.cleanup);
    const { logger, lines } = captured();
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const app = await startApp({ config: settings(baseUrl, KEY, db.path), logger, console: consoleIo() });
    cleanups.push(() => app.stop());
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === CHECK_WARNING);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, baseUrl, kind: 'unreachable' });
    expect(lines.join('')).not.toContain(KEY);
    expect(app.chats.map((chat) => chat.name)).toEqual(['console']);
  });

  it('a service failing at start: one warning, the bot starts, and answers once the service does', async () => {
    const sim = await startSimulator({ apiKey: KEY, port: 0, seed: 42, faults: { 'token-data': { script: ['500'] } } });
    cleanups.push(() => sim.close());
    const db = tempDb();
    cleanups.push(db.cleanup);
    const { logger, lines } = captured();
    const app = await startApp({ config: settings(sim.baseUrl, KEY, db.path), logger, console: consoleIo() });
    cleanups.push(() => app.stop());
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === CHECK_WARNING);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'upstream', status: 500 });
    // The scripted failure was the check's only attempt: the next look-up is served.
    const token = sim.market.tokenAddresses()[0] as string;
    const reply = await app.dispatcher.runLine(`/token ${token}`, {
      chat: { platform: 'console', chatId: 'console', threadId: null, scopeId: null },
      userId: 'u',
      isManager: async () => true,
    });
    expect(reply?.errorId).toBeNull();
    expect(reply?.card.title).toContain(sim.market.token(token)?.symbol ?? '?');
  });
});
