/**
 * The vendor replay (test/support/vendorService.ts) checked on its own, with a raw `ws` client and
 * fetch: what it sends must be what real-service.md shows, byte for byte where the page is exact.
 * No test sleeps: each waits for the frame, the request or the count it needs.
 */
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  RECORDING_NAMES,
  SOL_MINT,
  loadRecording,
  loadRecordingEnvelope,
  makeFeedToken,
  makeHolderRecord,
  makeToken,
  makeWalletTrade,
  startVendorService,
  type StreamPath,
  type VendorService,
} from '../support/vendorService';

const KEY = 'vendor-key-7c1f';
const TOKEN = '7CXsbiVBB5XC5GWZZ3iopUBpnJDQoPJDNpgM4PBGpump';
const OTHER = '2QjvRCTuXrEAgq5MARaKLG1jBtDtwamcfvpHc4Nxpump';
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

/** A socket that keeps every text frame it received, in order, and waits for the next ones. */
class RawClient {
  readonly frames: string[] = [];
  private readonly waiting = new Set<() => void>();
  private closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(data.toString());
      for (const wake of this.waiting) wake();
    });
    ws.on('close', () => {
      this.closed = true;
      for (const wake of this.waiting) wake();
    });
  }

  static async open(service: VendorService, path: StreamPath, headers: Record<string, string> = { 'x-api-key': KEY }): Promise<RawClient> {
    const client = new RawClient(new WebSocket(`${service.wsUrl}${path}`, { headers }));
    await once(client.ws, 'open');
    return client;
  }

  /** The frame at `index` (0 is the welcome), once it came. */
  async frame(index: number): Promise<string> {
    while (this.frames.length <= index) {
      if (this.closed) throw new Error(`socket closed after ${this.frames.length} frames`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiting.delete(wake);
          resolve();
        };
        this.waiting.add(wake);
      });
    }
    return this.frames[index] ?? '';
  }

  send(message: object | string): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }
}

/** The HTTP status an upgrade was refused with. */
function refusedWith(url: string, headers: Record<string, string>): Promise<number> {
  const ws = new WebSocket(url, { headers });
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      ws.terminate();
    });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
  });
}

function get(service: VendorService, path: string, key: string | null = KEY): Promise<Response> {
  return fetch(`${service.baseUrl}${path}`, { headers: key === null ? {} : { 'x-api-key': key } });
}

let service: VendorService;
const clients: RawClient[] = [];

beforeEach(async () => {
  service = await startVendorService({ apiKey: KEY, port: 0 });
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.ws.terminate();
  await service.close();
});

async function connect(path: StreamPath): Promise<RawClient> {
  const client = await RawClient.open(service, path);
  clients.push(client);
  return client;
}

describe('vendor replay: streams', () => {
  it('refuses an upgrade without the x-api-key header, or with a wrong one, with HTTP 401, and records each header', async () => {
    expect(await refusedWith(`${service.wsUrl}/ws/trades-live`, {})).toBe(401);
    expect(await refusedWith(`${service.wsUrl}/ws/chart-live`, { 'x-api-key': 'wrong' })).toBe(401);
    expect(await refusedWith(`${service.wsUrl}/ws/wallets-live`, { 'x-api-key': KEY })).toBe(404);
    expect(service.upgrades).toEqual([
      { path: '/ws/trades-live', query: {}, apiKeyHeader: null },
      { path: '/ws/chart-live', query: {}, apiKeyHeader: 'wrong' },
      { path: '/ws/wallets-live', query: {}, apiKeyHeader: KEY },
    ]);
    expect(service.openSockets()).toBe(0);
  });

  it('welcomes each path by its name, as soon as the socket opens', async () => {
    const names: Record<StreamPath, string> = {
      '/ws/trades-live': 'TradesLive',
      '/ws/chart-live': 'ChartLive',
      '/ws/holders-live': 'HoldersLive',
      '/ws/token-feed': 'TokenFeed',
    };
    for (const [path, name] of Object.entries(names) as Array<[StreamPath, string]>) {
      const client = await connect(path);
      const welcome = JSON.parse(await client.frame(0)) as { type: string; message: string };
      expect(welcome.type).toBe('connected');
      expect(welcome.message.startsWith(`Connected to ${name} WebSocket. Send a JSON object with `)).toBe(true);
    }
    const trades = clients[0];
    expect(await trades?.frame(0)).toBe(
      '{"type":"connected","message":"Connected to TradesLive WebSocket. Send a JSON object with \\"tokenAddress\\"."}',
    );
  });

  it('confirms {"tokenAddress"} (an apiKey field ignored), sends no snapshot, and writes raw amounts past 2^53 as digits', async () => {
    service.addToken(makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 1.1187e-7, pools: [{ protocol: 'PUMP_AMM' }] }));
    const client = await connect('/ws/trades-live');
    client.send({ tokenAddress: TOKEN, apiKey: KEY });
    expect(await client.frame(1)).toBe(`{"type":"subscriptionConfirmed","message":"Subscribed to ${TOKEN}"}`);
    expect(service.subscribers('/ws/trades-live', TOKEN)).toBe(1);
    expect(service.messages).toEqual([{ path: '/ws/trades-live', text: JSON.stringify({ tokenAddress: TOKEN, apiKey: KEY }) }]);

    const sent = service.pushTrade(TOKEN, {
      type: 'BUY',
      priceSol: 1.1187e-7,
      priceUsd: 0.0000159769,
      tokenAmount: 18446744073709551615n,
      quoteAmount: 9007199254740993n,
      usd: 282.77,
      hash: 'sig1',
      timestamp: 1746027341,
    });
    expect(sent).toBe(1);
    const text = await client.frame(2);
    expect(text).toContain('"amount":{"token":18446744073709551615,"quote":9007199254740993,"usd":282.77}');
    expect(text).not.toMatch(/maker/i);
    const trade = JSON.parse(text) as Record<string, unknown>;
    const pool = Object.values(makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 1.1187e-7 }).liquidityPools)[0];
    expect(trade).toMatchObject({
      event: 'trade',
      timestamp: 1746027341,
      datetime: '2025-04-30T15:35:41.000Z',
      tokenAddress: TOKEN,
      quoteToken: SOL_MINT,
      type: 'BUY',
      price: { sol: 1.1187e-7, usd: 0.0000159769 },
      transaction: { hash: 'sig1', blockNumber: 336925418 },
      market: { protocol: 'PUMP_AMM', poolAddress: pool?.poolAddress },
    });
  });

  it('takes several tokens on one socket, answers no unsubscribe, and keeps sending after one', async () => {
    const client = await connect('/ws/holders-live');
    client.send({ tokenAddress: TOKEN });
    client.send({ tokenAddress: OTHER });
    expect(await client.frame(2)).toBe(`{"type":"subscriptionConfirmed","message":"Subscribed to ${OTHER}"}`);
    expect(service.subscribers('/ws/holders-live', TOKEN)).toBe(1);
    expect(service.subscribers('/ws/holders-live', OTHER)).toBe(1);

    client.send({ action: 'unsubscribe', tokenAddress: TOKEN });
    await service.waitFor(() => service.messages.length === 3);
    service.pushHolder(TOKEN, {
      address: WALLET,
      currentAmount: '30000000000000',
      holderSinceIso: '2025-04-30T15:19:00.000Z',
      bought: { amount: 30000000000000n, usd: '4.2', transactions: 3 },
      tags: ['sniper'],
      syncedAtIso: '2025-04-30T15:19:02.000Z',
    });
    expect(JSON.parse(await client.frame(3))).toEqual({
      event: 'holder',
      address: WALLET,
      tokenAddress: TOKEN,
      currentAmount: '30000000000000',
      holderSince: '2025-04-30T15:19:00.000Z',
      activity: {
        totalBought: { amount: 30000000000000, usd: '4.2', transactions: 3 },
        totalSold: { amount: '0', usd: '0', transactions: 0 },
      },
      tags: ['sniper'],
      nativeBalance: '0',
      syncedAt: '2025-04-30T15:19:02.000Z',
    });
  });

  it('confirms chart-live with its timeframe and sends candles with time in milliseconds to that timeframe only', async () => {
    const client = await connect('/ws/chart-live');
    client.send({ tokenAddress: TOKEN, timeframe: 60 });
    expect(await client.frame(1)).toBe(`{"type":"subscriptionConfirmed","message":"Subscribed to ${TOKEN} with 60s timeframe"}`);
    const bare = await connect('/ws/chart-live');
    bare.send({ tokenAddress: TOKEN });
    expect(await bare.frame(1)).toBe(`{"type":"subscriptionConfirmed","message":"Subscribed to ${TOKEN} with 60s timeframe"}`);

    const prices = { open: 0.0000937, high: 0.0000937, low: 0.0000855, close: 0.0000866, volumeUsd: 233.23 };
    const candle = { ...prices, volume: 2667017166926n, timeMs: 1746026160000 };
    expect(service.pushCandle(TOKEN, { ...candle, timeframe: 300 })).toBe(0);
    expect(service.pushCandle(TOKEN, { ...candle, trades: 6, buys: 3, sells: 3 })).toBe(2);
    const text = await client.frame(2);
    expect(text).toContain('"volume":2667017166926');
    expect(JSON.parse(text)).toEqual({
      event: 'chart',
      tokenAddress: TOKEN,
      quoteToken: SOL_MINT,
      timeframe: 60,
      candle: { time: 1746026160000, datetime: '2025-04-30T15:16:00.000Z', ...prices, volume: 2667017166926, trades: 6, buys: 3, sells: 3 },
    });
  });

  it('applies token-feed filters, ignores a tokenAddress there, and sends token lists', async () => {
    const client = await connect('/ws/token-feed');
    client.send({ tokenAddress: TOKEN, apiKey: KEY });
    client.send({ type: 'setFilters', filters: { Holders: { min: 0, max: 50 }, Exclude: { text: 'rug,scam' } } });
    expect(await client.frame(1)).toBe('{"type":"subscriptionConfirmed","message":"Filters applied"}');
    expect(service.subscribers('/ws/token-feed')).toBe(1);
    expect(service.pushTokenFeed([makeFeedToken({ address: TOKEN, symbol: 'EGM', priceUsd: 0.00002248252 })])).toBe(1);
    const feed = JSON.parse(await client.frame(2)) as { event: string; data: Array<Record<string, unknown>> };
    expect(feed.event).toBe('token');
    expect(feed.data).toHaveLength(1);
    expect(feed.data[0]).toMatchObject({ address: TOKEN, symbol: 'EGM', price: '$0.00002248252', protocol: 'PUMP' });
  });

  it('never confirms with confirm off: the subscription is recorded, answered by nothing, and takes no data', async () => {
    service.confirm = false;
    const client = await connect('/ws/trades-live');
    client.send({ tokenAddress: TOKEN, apiKey: KEY });
    await service.waitFor(() => service.messages.length === 1);
    expect(service.subscribers('/ws/trades-live', TOKEN)).toBe(0);
    expect(service.pushTrade(TOKEN, { type: 'SELL', priceSol: 1, priceUsd: 150, tokenAmount: 1n, quoteAmount: 1n, usd: 150 })).toBe(0);
    // A frame sent after the subscription arrives after anything the subscription could have caused.
    expect(service.sendRaw('/ws/trades-live', '{"event":"mystery","x":1}')).toBe(1);
    expect(await client.frame(1)).toBe('{"event":"mystery","x":1}');
    expect(client.frames).toHaveLength(2);
  });

  it('disconnects sockets from the server side, and waitFor sees them go', async () => {
    await connect('/ws/trades-live');
    await connect('/ws/chart-live');
    service.disconnect('/ws/chart-live');
    await service.waitFor(() => service.openSockets('/ws/chart-live') === 0);
    expect(service.openSockets()).toBe(1);
  });
});

describe('vendor replay: REST', () => {
  it('answers token-data exactly as each recording, and leaves unknown tokens out', async () => {
    for (const name of RECORDING_NAMES) {
      const recorded = loadRecording(name);
      service.addToken(recorded);
      const answer = await get(service, `/api/token-data?address=${recorded.address}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual(loadRecordingEnvelope(name));
    }
    const many = await get(service, `/api/token-data?addresses=${TOKEN},11111111111111111111111111111111,${OTHER}`);
    const body = (await many.json()) as { statusCode: number; message: null; data: Record<string, { symbol: string }> };
    expect(body.statusCode).toBe(200);
    expect(body.message).toBeNull();
    expect(Object.keys(body.data).sort()).toEqual([OTHER, TOKEN].sort());
  });

  it('requires the key on token-data, changes risk over REST, and answers a missing parameter with 400', async () => {
    service.addToken(makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 1e-7 }));
    expect((await get(service, `/api/token-data?address=${TOKEN}`, null)).status).toBe(401);
    expect((await get(service, `/api/token-data?address=${TOKEN}`, 'wrong')).status).toBe(401);
    service.setRisk(TOKEN, 'DANGER');
    const body = (await (await get(service, `/api/token-data?address=${TOKEN}`)).json()) as {
      data: Record<string, { riskStatus: string }>;
    };
    expect(body.data[TOKEN]?.riskStatus).toBe('DANGER');
    const missing = await get(service, '/api/token-data');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect(service.requests.map((request) => request.apiKeyHeader)).toEqual([null, 'wrong', KEY, KEY]);
    expect(service.requests[0]).toEqual({ path: '/api/token-data', query: { address: TOKEN }, apiKeyHeader: null });
  });

  it('writes pools without suspected* fields, price and reserves in protocolData', () => {
    const token = makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 2e-7, pools: [{}, { quote: 'USDC', tokenIsToken0: false }] });
    const pools = Object.values(token.liquidityPools);
    expect(pools).toHaveLength(2);
    for (const pool of pools) {
      expect(Object.keys(pool).filter((key) => key.startsWith('suspected'))).toEqual(['suspectedBaseToken']);
      expect(pool.protocolData).toMatchObject({
        price0: expect.any(String),
        reserve0: expect.any(String),
        token0Address: pool.token0Address,
      });
    }
    expect(pools[1]?.token1Address).toBe(TOKEN);
    // The two mints sorted, whatever the sides: '7' sorts before 'E'.
    expect(pools[1]?.pairId).toBe(`${TOKEN}_EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
    expect(
      makeToken({ address: 'HNg5PYJmtqcmzXrv6S9zP1CDKk5BgDuyFBxbvNApump', symbol: 'ALCH', priceSol: 1e-4, pools: [{ quote: 'USDC' }] })
        .liquidityPools,
    ).toSatisfy((byAddress: object) => Object.values(byAddress).every((pool: { pairId: string }) => pool.pairId.startsWith('EPjF')));
  });

  it('fails the next requests as told (429 with Retry-After, 503 on one path), then answers again', async () => {
    service.failNext(2, { status: 429, retryAfterSec: 3 });
    service.failNext(1, { status: 503, path: '/api/wallet-tracker' });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const limited = await get(service, `/api/token-data?address=${TOKEN}`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('3');
    }
    expect((await get(service, `/api/token-data?address=${TOKEN}`)).status).toBe(200);
    expect((await get(service, `/api/wallet-tracker?wallets=${WALLET}`)).status).toBe(503);
    expect((await get(service, `/api/wallet-tracker?wallets=${WALLET}`)).status).toBe(200);
  });

  it('answers wallet-tracker with the wallets’ trades newest first and the metadata of the tokens it holds', async () => {
    service.addToken(makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 1e-7 }));
    const base = { wallet: WALLET, tokenAmount: 5_000_000_000n, quoteAmount: 500_000_000n, priceSol: 1e-7, priceUsd: 1.5e-5, usd: 75 };
    service.addWalletTrade(WALLET, makeWalletTrade({ ...base, token: TOKEN, type: 'BUY', timestamp: 1_700_000_000 }));
    service.addWalletTrade(WALLET, makeWalletTrade({ ...base, token: OTHER, type: 'SELL', timestamp: 1_700_000_100 }));
    expect(() => service.addWalletTrade(OTHER, makeWalletTrade({ ...base, token: TOKEN, type: 'BUY' }))).toThrow(/makerData/);
    const body = (await (await get(service, `/api/wallet-tracker?wallets=${WALLET},${OTHER}`)).json()) as {
      tradeHistory: Array<{ timestamp: number; tokenIn: string; amountOut: string; makerData: { address: string } }>;
      tokensMetadata: Record<string, { symbol: string }>;
    };
    expect(body.tradeHistory.map((trade) => trade.timestamp)).toEqual([1_700_000_100, 1_700_000_000]);
    expect(body.tradeHistory[1]).toMatchObject({ tokenIn: SOL_MINT, amountOut: '5000000000', makerData: { address: WALLET } });
    expect(body.tokensMetadata).toEqual({ [TOKEN]: { address: TOKEN, name: 'EGM', symbol: 'EGM', decimals: 6, logo: null } });
    expect((await get(service, '/api/wallet-tracker')).status).toBe(400);
  });

  it('answers holders-history without a key, largest first (the bonding curve pool among them)', async () => {
    const curve = Object.values(
      makeToken({ address: TOKEN, symbol: 'EGM', priceSol: 1e-7, pools: [{ protocol: 'PUMP' }] }).liquidityPools,
    )[0];
    service.setHolders(TOKEN, [
      makeHolderRecord({ token: TOKEN, address: WALLET, amount: 30_000_000_000_000n }),
      makeHolderRecord({ token: TOKEN, address: curve?.poolAddress ?? '', amount: 800_000_000_000_000n }),
    ]);
    const answer = await get(service, `/api/holders-history?address=${TOKEN}`, null);
    expect(answer.status).toBe(200);
    const holders = (await answer.json()) as Array<{ address: string; currentlyHoldingAmount: string }>;
    expect(holders.map((holder) => holder.address)).toEqual([curve?.poolAddress, WALLET]);
    expect((await get(service, `/api/holders-history?address=${TOKEN}`, 'wrong')).status).toBe(401);
    expect((await get(service, '/api/token-technicals?address=x')).status).toBe(404);
  });
});
