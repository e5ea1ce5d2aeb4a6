/**
 * One store, one market: each store (the SQLite file and a PostgreSQL database) records the market
 * of its first start, the built-in simulator and its seed or the service's address; a start on
 * another market is refused in one line that names both and what to do, and leaves the store as it
 * was; STORE_MARKET_RESET=1 moves it, forgetting the old market's last-seen state and unsent alerts
 * and keeping the follows, the settings and the record of what was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openStore } from '../../src/store/openStore';
import type { Store } from '../../src/store/store';
import { StoreOpenError } from '../../src/store/storeOpenError';
import { silentLogger } from '../../src/log';
import { redactUrl } from '../../src/urlCredentials';
import { chat, newFollow, priceEvent, tokenSnapshot } from './helpers';
import { STORE_KINDS, type StoreHome } from './support/stores';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const T0 = new Date(1_700_000_000_000);

interface Start {
  market: { baseUrl: string } | null;
  seed?: number;
  reset?: boolean;
}

/** Opens the store as a start of the bot does, on `start`'s market. */
function open(home: StoreHome, start: Start): Promise<Store> {
  return openStore(
    {
      databasePath: home.env.DATABASE_PATH ?? '',
      databaseUrl: home.env.DATABASE_URL ?? null,
      market: start.market,
      simulatorSeed: start.seed ?? 42,
      storeMarketReset: start.reset ?? false,
    },
    { logger: silentLogger },
  );
}

/** The error a start is refused with. */
async function refusal(home: StoreHome, start: Start): Promise<StoreOpenError> {
  const error: unknown = await open(home, start).then(
    async (store) => {
      await store.close();
      return null;
    },
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof StoreOpenError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe.each(STORE_KINDS)('the %s store belongs to one market', (kind, makeHome) => {
  const where = (home: StoreHome) => home.env.DATABASE_PATH ?? redactUrl(home.env.DATABASE_URL ?? '');
  const elsewhere = kind === 'sqlite' ? 'set DATABASE_PATH to another file' : 'set DATABASE_URL to another database';

  async function homeWithData(): Promise<StoreHome> {
    const home = await makeHome();
    cleanups.push(home.remove);
    const store = await open(home, { market: null });
    await store.follows.upsert(newFollow(chat('1'), 'TokenA'));
    await store.state.commitToken(
      tokenSnapshot('TokenA'),
      [{ event: priceEvent('TokenA', 'sent'), to: [{ chat: chat('1'), label: null }] }],
      T0,
    );
    const [sent] = await store.outbox.due('telegram', T0, 10);
    await store.outbox.markDelivered([sent!.id], T0);
    await store.state.commitToken(
      tokenSnapshot('TokenA', 2),
      [{ event: priceEvent('TokenA', 'waiting'), to: [{ chat: chat('1'), label: null }] }],
      T0,
    );
    await store.close();
    return home;
  }

  it('opens again on the same market, and refuses a service or another seed in one line, leaving the store as it was', async () => {
    const home = await homeWithData();
    const again = await open(home, { market: null });
    await again.close();

    const service = await refusal(home, { market: { baseUrl: 'https://data.example.com/v1?password=hunter2-secret' } });
    expect(service.reason).toBe('other-market');
    expect(service.message).toBe(
      `Cannot open the database ${where(home)}: it belongs to the market simulator seed 42, not https://data.example.com/v1?password=***; ${elsewhere}, or start once with STORE_MARKET_RESET=1 to forget its last-seen prices and unsent alerts (follows and settings stay)`,
    );
    expect(service.message).not.toContain('hunter2');
    const seed = await refusal(home, { market: null, seed: 7 });
    expect(seed.message).toContain('it belongs to the market simulator seed 42, not simulator seed 7;');

    const store = await open(home, { market: null });
    try {
      expect(await store.follows.totals()).toEqual({ follows: 1, chats: 1 });
      expect((await store.state.token('TokenA'))?.seenAt).toBe(2);
      expect((await store.outbox.pending()).count).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('moves to another market with STORE_MARKET_RESET=1: last-seen state and unsent alerts go, follows and what was sent stay', async () => {
    const home = await homeWithData();
    const service = { baseUrl: 'https://data.example.com' };
    const moved = await open(home, { market: service, reset: true });
    try {
      expect(await moved.follows.totals()).toEqual({ follows: 1, chats: 1 });
      expect(await moved.state.token('TokenA')).toBeNull();
      expect((await moved.outbox.pending()).count).toBe(0);
      expect(await moved.outbox.known(['sent', 'waiting'])).toEqual(new Set(['sent']));
    } finally {
      await moved.close();
    }
    // The move is made once: the flag left set changes nothing on the same market, and the old one is now refused.
    const again = await open(home, { market: service, reset: true });
    await again.close();
    expect((await refusal(home, { market: null })).message).toContain(
      'it belongs to the market https://data.example.com, not simulator seed 42;',
    );
  });
});

describe('the default store follows the market', () => {
  it('is data/tokenwatch-simulator.db on the built-in simulator and data/tokenwatch.db on a service; DATABASE_PATH wins', () => {
    expect(loadConfig({}).databasePath).toBe('data/tokenwatch-simulator.db');
    expect(loadConfig({ TMDS_BASE_URL: 'simulator' }).databasePath).toBe('data/tokenwatch-simulator.db');
    expect(loadConfig({ TMDS_BASE_URL: 'https://data.example.com', TMDS_API_KEY: 'k' }).databasePath).toBe('data/tokenwatch.db');
    expect(loadConfig({ DATABASE_PATH: 'elsewhere.db' }).databasePath).toBe('elsewhere.db');
  });

  it('takes STORE_MARKET_RESET as 1 or 0, off by default', () => {
    expect(loadConfig({}).storeMarketReset).toBe(false);
    expect(loadConfig({ STORE_MARKET_RESET: '1' }).storeMarketReset).toBe(true);
    expect(() => loadConfig({ STORE_MARKET_RESET: 'yes' })).toThrow('Invalid configuration: STORE_MARKET_RESET must be 1 or 0');
  });
});
