/**
 * The streams in the vendor protocol over real sockets with a plain `ws` client: the key in the
 * upgrade's x-api-key header (401 without it), the welcome, the confirmation, no snapshot, then
 * data messages with an `event` field in the vendor's shapes, raw amounts past 2^53 read exactly
 * from the text; no wallet stream; token-feed as a filtered feed of launched tokens. Every wait is
 * for a message; where a test shows that something did not come, a later message on the same
 * socket marks the point by which it would have.
 */
import { describe, expect, it } from 'vitest';
import { whaleBuy } from '../src/surprises';
import { WRAPPED_SOL_MINT } from '../src/units';
import type { VendorFeedToken, VendorToken, VendorTokenEnvelope } from '../src/vendorWireTypes';
import type { WireCandle, WireHolder, WireToken } from '../src/wireTypes';
import { KEY, UNKNOWN_ADDRESS, get, shareSimulator } from './helpers';
import { Probe, isType, type Frame } from './wsProbe';

const vendor = shareSimulator({ protocol: 'vendor' });

const WITH_KEY = { headers: { 'x-api-key': KEY } };
const TRADE_KEYS = ['event', 'timestamp', 'datetime', 'tokenAddress', 'quoteToken', 'type', 'price', 'amount', 'transaction', 'market'];
const CANDLE_KEYS = ['time', 'datetime', 'open', 'high', 'low', 'close', 'volume', 'volumeUsd', 'trades', 'buys', 'sells'];
const HOLDER_KEYS = ['event', 'address', 'tokenAddress', 'currentAmount', 'holderSince', 'activity', 'tags', 'nativeBalance', 'syncedAt'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const isEvent =
  (event: string, extra: (frame: Frame) => boolean = () => true) =>
  (frame: Frame): boolean =>
    frame.event === event && extra(frame);

function token(n: number): string {
  const address = vendor.tokens[n];
  if (!address) throw new Error(`no token ${n}`);
  return address;
}

/** The token with the largest raw supply among the 9-decimal ones. */
function nineDecimalToken(): string {
  let best: { address: string; supply: bigint } | null = null;
  for (const address of vendor.tokens) {
    const reading = vendor.sim.market.token(address);
    if (reading?.decimals !== 9) continue;
    const supply = BigInt(reading.totalSupply);
    if (best === null || supply > best.supply) best = { address, supply };
  }
  if (best === null) throw new Error('seed 42 has no 9-decimal token');
  return best.address;
}

function curveToken(): { address: string; pool: string } {
  for (const address of vendor.tokens) {
    const pool = Object.values(vendor.sim.market.token(address)?.liquidityPools ?? {}).find((p) => p.protocol === 'PUMP');
    if (pool) return { address, pool: pool.poolAddress };
  }
  throw new Error('seed 42 has no token on its bonding curve');
}

/** Opens a socket with the key in the header and waits for the welcome. */
async function open(path: string): Promise<Probe> {
  const probe = await Probe.open(vendor.sim.wsUrl, path, WITH_KEY);
  await probe.next(isType('connected'), 'the welcome');
  return probe;
}

/** Sends a subscription and waits for its confirmation; returns the index of the next message. */
async function subscribe(probe: Probe, message: Frame): Promise<number> {
  const from = probe.messages.length;
  probe.send(message);
  await probe.next(isType('subscriptionConfirmed'), 'the confirmation', from);
  return probe.messages.length;
}

async function restToken(address: string): Promise<VendorToken> {
  const answer = await get<VendorTokenEnvelope>(vendor.sim, `/api/token-data?address=${address}`);
  const found = answer.body.data[address];
  if (!found) throw new Error('token missing from token-data');
  return found;
}

describe('the upgrade', () => {
  it('refuses a socket without the key in x-api-key with HTTP 401, the key in the message being no help', async () => {
    await expect(Probe.open(vendor.sim.wsUrl, '/ws/trades-live')).rejects.toThrow('upgrade refused: 401');
    await expect(Probe.open(vendor.sim.wsUrl, '/ws/chart-live', { headers: { 'x-api-key': 'wrong' } })).rejects.toThrow(
      'upgrade refused: 401',
    );
    await expect(Probe.open(vendor.sim.wsUrl, '/ws/no-such-stream', WITH_KEY)).rejects.toThrow('upgrade refused: 404');
    expect(vendor.sim.streams.socketCount()).toBe(0);
  });

  it('welcomes each path by its name', async () => {
    const names = { 'trades-live': 'TradesLive', 'chart-live': 'ChartLive', 'holders-live': 'HoldersLive', 'token-feed': 'TokenFeed' };
    for (const [path, name] of Object.entries(names)) {
      const probe = await Probe.open(vendor.sim.wsUrl, `/ws/${path}`, WITH_KEY);
      try {
        const welcome = await probe.next(isType('connected'), 'the welcome');
        expect(Object.keys(welcome)).toEqual(['type', 'message']);
        expect(welcome.message).toMatch(new RegExp(`^Connected to ${name} WebSocket\\. Send a JSON object with `));
        expect(probe.messages).toHaveLength(1);
      } finally {
        probe.close();
      }
    }
    const trades = await open('/ws/trades-live');
    trades.close();
    expect(trades.messages[0]).toEqual({
      type: 'connected',
      message: 'Connected to TradesLive WebSocket. Send a JSON object with "tokenAddress".',
    });
  });
});

describe('trades-live', () => {
  it('confirms, sends no snapshot, then each trade in the vendor’s shape, with no maker wallet', async () => {
    const T = token(0);
    const probe = await open('/ws/trades-live');
    try {
      const from = await subscribe(probe, { tokenAddress: T, apiKey: 'ignored-even-if-wrong' });
      expect(probe.messages[from - 1]).toEqual({ type: 'subscriptionConfirmed', message: `Subscribed to ${T}` });
      const { trade } = vendor.sim.controls.price({ tokenAddress: T, changePct: 20 });
      const event = await probe.next(isEvent('trade'), 'the trade', from);
      // No snapshot: the first message after the confirmation is the control's trade.
      expect(probe.messages.indexOf(event)).toBe(from);
      expect(Object.keys(event)).toEqual(TRADE_KEYS);
      const text = JSON.stringify(event);
      expect(text).not.toContain(trade.makerData.address);
      const pool = (await restToken(T)).liquidityPools[trade.poolAddress];
      expect(event).toEqual({
        event: 'trade',
        timestamp: trade.timestamp,
        datetime: new Date(trade.timestamp * 1000).toISOString(),
        tokenAddress: T,
        quoteToken: WRAPPED_SOL_MINT,
        type: 'BUY',
        price: { sol: Number(trade.suspectedBaseTokenPrice), usd: Number(trade.suspectedBaseTokenPriceUSD) },
        amount: { token: Number(trade.amountOut), quote: Number(trade.amountIn), usd: Number(trade.amountUSD) },
        transaction: { hash: trade.transactionHash, blockNumber: trade.blockNumber },
        market: { protocol: pool?.protocol, poolAddress: trade.poolAddress },
      });
      const sell = vendor.sim.controls.price({ tokenAddress: T, changePct: -10 }).trade;
      const sold = await probe.next(
        isEvent('trade', (f) => (f.transaction as Frame).hash === sell.transactionHash),
        'the sell',
      );
      expect(sold.type).toBe('SELL');
      expect(sold.amount).toMatchObject({ token: Number(sell.amountIn), quote: Number(sell.amountOut) });
      expect(probe.garbage).toEqual([]);
    } finally {
      probe.close();
    }
  });

  it('writes raw amounts past 2^53 as JSON numbers with every digit', async () => {
    const T = nineDecimalToken();
    const probe = await open('/ws/trades-live');
    try {
      const from = await subscribe(probe, { tokenAddress: T });
      const { trade } = vendor.sim.controls.price({ tokenAddress: T, changePct: 50 });
      const event = await probe.next(isEvent('trade'), 'the trade', from);
      const text = probe.texts[probe.messages.indexOf(event)] ?? '';
      const written = /"amount":\{"token":(\d+),"quote":(\d+),"usd":/.exec(text);
      expect(written).not.toBeNull();
      const tokenAmount = BigInt(written?.[1] ?? '0');
      expect(tokenAmount).toBeGreaterThan(2n ** 53n);
      expect(tokenAmount).toBe(BigInt(trade.amountOut));
      expect(BigInt(written?.[2] ?? '0')).toBe(BigInt(trade.amountIn));
      // The same amount read as a JSON number has lost its exactness: that is why it is read from the text.
      expect(Number.isSafeInteger((event.amount as Frame).token)).toBe(false);
    } finally {
      probe.close();
    }
  });

  it('refuses a wallet subscription (there is no wallet stream), an unknown token and a malformed message', async () => {
    const cases: Array<[Frame | string, number, string]> = [
      [{ wallets: [vendor.sim.market.wallets()[0] ?? ''] }, 4000, 'no wallet stream'],
      [{ tokenAddress: UNKNOWN_ADDRESS }, 4004, 'Token not found'],
      [{ tokenAddress: 'not an address' }, 4000, 'tokenAddress'],
      ['not json', 4000, 'not JSON'],
      [{ type: 'setFilters', filters: {} }, 4000, 'token-feed'],
    ];
    for (const [message, code, words] of cases) {
      const probe = await open('/ws/trades-live');
      probe.send(message);
      const closed = await probe.closed;
      expect(closed.code, JSON.stringify(message)).toBe(code);
      const error = probe.find(isType('error'))[0];
      expect(error?.message).toContain(words);
    }
  });

  it('carries several subscriptions on one socket, each confirmed, and ends one on unsubscribe', async () => {
    const [A, B] = [token(3), token(4)];
    const probe = await open('/ws/trades-live');
    try {
      await subscribe(probe, { tokenAddress: A });
      const from = await subscribe(probe, { tokenAddress: B });
      expect(vendor.sim.streams.subscriptionCount('trades-live')).toBeGreaterThanOrEqual(2);
      const a = vendor.sim.controls.price({ tokenAddress: A, changePct: 15 }).trade;
      const b = vendor.sim.controls.price({ tokenAddress: B, changePct: 15 }).trade;
      await probe.next(
        isEvent('trade', (f) => f.tokenAddress === A),
        'A’s trade',
        from,
      );
      await probe.next(
        isEvent('trade', (f) => f.tokenAddress === B),
        'B’s trade',
        from,
      );
      expect(probe.find(isEvent('trade'), from).map((f) => (f.transaction as Frame).hash)).toEqual([a.transactionHash, b.transactionHash]);

      probe.send({ action: 'unsubscribe', tokenAddress: A });
      await probe.next(isType('unsubscribed'), 'the unsubscription', from);
      const after = probe.messages.length;
      vendor.sim.controls.price({ tokenAddress: A, changePct: 15 });
      const last = vendor.sim.controls.price({ tokenAddress: B, changePct: 15 }).trade;
      await probe.next(
        isEvent('trade', (f) => (f.transaction as Frame).hash === last.transactionHash),
        'B’s next trade',
        after,
      );
      expect(
        probe.find(
          isEvent('trade', (f) => f.tokenAddress === A),
          after,
        ),
      ).toEqual([]);
    } finally {
      probe.close();
    }
  });
});

describe('chart-live', () => {
  it('confirms with the timeframe (default 60 s), then the current candle in USD with raw volume, as chart-history has it', async () => {
    const T = token(5);
    const probe = await open('/ws/chart-live');
    try {
      await subscribe(probe, { tokenAddress: T });
      expect(probe.find(isType('subscriptionConfirmed'))[0]?.message).toBe(`Subscribed to ${T} with 60s timeframe`);
      const from = await subscribe(probe, { tokenAddress: T, timeframe: 300 });
      expect(probe.messages[from - 1]?.message).toBe(`Subscribed to ${T} with 300s timeframe`);
      const { trade } = vendor.sim.controls.price({ tokenAddress: T, changePct: 25 });
      const events = await probe.count(isEvent('chart'), 2, 'a candle per timeframe');
      expect(probe.messages.indexOf(events[0] as Frame)).toBe(from);
      const solUsd = vendor.sim.market.solUsd;
      const decimals = (await restToken(T)).decimals;
      for (const event of events) {
        expect(Object.keys(event)).toEqual(['event', 'tokenAddress', 'quoteToken', 'timeframe', 'candle']);
        expect(event).toMatchObject({ event: 'chart', tokenAddress: T, quoteToken: WRAPPED_SOL_MINT });
        const timeframe = event.timeframe as number;
        const candle = event.candle as Frame;
        expect(Object.keys(candle)).toEqual(CANDLE_KEYS);
        const time = candle.time as number;
        expect(time % (timeframe * 1000)).toBe(0);
        expect(candle.datetime).toBe(new Date(time).toISOString());
        expect(time / 1000).toBe(Math.floor(trade.timestamp / timeframe) * timeframe);
        expect(candle.close).toBeCloseTo(Number(trade.suspectedBaseTokenPriceUSD), 10);
        expect(candle.trades).toBe((candle.buys as number) + (candle.sells as number));
        // The vendor's prices behave as USD: volume × close is near volumeUsd, where a SOL price would miss by the SOL rate.
        const history = await get<{ candles: WireCandle[] }>(
          vendor.sim,
          `/api/chart-history?base=${T}&intervalSecs=${timeframe}&from=${time / 1000}&to=${trade.timestamp}`,
        );
        const rest = history.body.candles.at(-1);
        expect((candle.close as number) / ((rest?.close ?? 0) * solUsd)).toBeCloseTo(1, 9);
        expect((candle.high as number) / ((rest?.high ?? 0) * solUsd)).toBeCloseTo(1, 9);
        expect((candle.volume as number) / ((rest?.volume ?? 0) * 10 ** decimals)).toBeCloseTo(1, 9);
      }
    } finally {
      probe.close();
    }
  });
});

describe('holders-live', () => {
  it('sends a whale’s buy as a holder event in the vendor’s shape, agreeing with holders-history', async () => {
    const T = token(6);
    const probe = await open('/ws/holders-live');
    try {
      const from = await subscribe(probe, { tokenAddress: T });
      const wallet = 'WhaLeWa11etWhaLeWa11etWhaLeWa11etWhaLeWa11e1';
      expect(whaleBuy(vendor.sim.market, T, wallet, 2)).toBe(true);
      const event = await probe.next(
        isEvent('holder', (f) => f.address === wallet),
        'the whale',
        from,
      );
      expect(probe.messages.indexOf(event)).toBe(from);
      expect(Object.keys(event)).toEqual(HOLDER_KEYS);
      const rest = (await get<WireHolder[]>(vendor.sim, `/api/holders-history?address=${T}`)).body.find((h) => h.address === wallet);
      expect(event).toMatchObject({ tokenAddress: T, currentAmount: rest?.currentlyHoldingAmount, nativeBalance: rest?.nativeBalance });
      expect(event.holderSince).toBe(new Date((rest?.holderSince ?? 0) * 1000).toISOString());
      expect(event.syncedAt).toMatch(ISO);
      expect(event.tags).toContain('whale');
      expect(event.activity).toEqual({
        totalBought: { amount: rest?.currentlyHoldingAmount, usd: expect.stringMatching(/^\d+(\.\d+)?$/), transactions: 1 },
        totalSold: { amount: '0', usd: '0', transactions: 0 },
      });
      expect(Number((event.activity as { totalBought: { usd: string } }).totalBought.usd)).toBeCloseTo(rest?.totalBoughtUSD ?? 0, 4);
    } finally {
      probe.close();
    }
  });

  it('sends a bonding curve’s holding as it changes, under the pool’s address', async () => {
    const { address, pool } = curveToken();
    const probe = await open('/ws/holders-live');
    try {
      const from = await subscribe(probe, { tokenAddress: address });
      const buyer = 'CurveBuyerCurveBuyerCurveBuyerCurveBuyer1111';
      vendor.sim.controls.trade({ wallet: buyer, tokenAddress: address, side: 'buy', amountUSD: 2_000 });
      await probe.next(
        isEvent('holder', (f) => f.address === buyer),
        'the buyer',
        from,
      );
      const curve = await probe.next(
        isEvent('holder', (f) => f.address === pool),
        'the curve',
        from,
      );
      const rest = (await get<WireHolder[]>(vendor.sim, `/api/holders-history?address=${address}`)).body[0];
      expect(rest?.address).toBe(pool);
      expect(curve).toMatchObject({ currentAmount: rest?.currentlyHoldingAmount, tags: [] });
      // A liquidity pull empties the curve's holding too.
      const before = probe.messages.length;
      vendor.sim.controls.liquidity({ tokenAddress: address, pull: true });
      const pulled = await probe.next(
        isEvent('holder', (f) => f.address === pool),
        'the pulled curve',
        before,
      );
      expect(BigInt(pulled.currentAmount as string)).toBeLessThan(BigInt(curve.currentAmount as string) / 100n);
    } finally {
      probe.close();
    }
  });
});

describe('the other controls', () => {
  it('show over REST token-data: a risk change and a pull', async () => {
    const T = token(7);
    vendor.sim.controls.risk({ tokenAddress: T, riskStatus: 'DANGER' });
    vendor.sim.controls.liquidity({ tokenAddress: T, pull: true });
    const after = await restToken(T);
    expect(after.riskStatus).toBe('DANGER');
    const reading = vendor.sim.market.token(T) as WireToken;
    for (const pool of Object.values(after.liquidityPools)) {
      const sol = pool.token0Address === WRAPPED_SOL_MINT ? pool.protocolData?.reserve0 : pool.protocolData?.reserve1;
      expect(sol).toBe(reading.liquidityPools[pool.poolAddress]?.suspectedQuoteTokenReserves);
      expect(Number(sol)).toBeLessThan(10 ** 9);
    }
  });
});

describe('token-feed', () => {
  it('takes a filter set, not a token', async () => {
    const probe = await open('/ws/token-feed');
    probe.send({ tokenAddress: token(0) });
    expect((await probe.closed).code).toBe(4000);
    expect(probe.find(isType('error'))[0]?.message).toContain('setFilters');
  });

  it('lists a launched token to the sockets whose filters it passes, and to no other', async () => {
    const passing = await open('/ws/token-feed');
    const excluding = await open('/ws/token-feed');
    try {
      const filters = { 'Token Age (mins)': { min: 0, max: 30 }, Holders: { min: 1, max: null }, 'A label from the future': { min: 1 } };
      const from = await subscribe(passing, { type: 'setFilters', filters });
      expect(passing.messages[from - 1]).toEqual({ type: 'subscriptionConfirmed', message: 'Filters applied' });
      const excludedFrom = await subscribe(excluding, { type: 'setFilters', filters: { Holders: { min: 1_000_000 } } });
      expect(vendor.sim.streams.subscriptionCount('token-feed')).toBe(2);

      const launched = vendor.sim.controls.launch({ origin: 'pump.fun' }).token.address;
      const event = await passing.next(isEvent('token'), 'the feed', from);
      expect(Object.keys(event)).toEqual(['event', 'data']);
      const listed = event.data as VendorFeedToken[];
      expect(listed[0]?.address).toBe(launched);
      const item = listed[0] as VendorFeedToken;
      expect(item.price).toMatch(/^\$\d+(\.\d+)?$/);
      expect(item.createdAt).toMatch(ISO);
      expect(item.timestamp).toMatch(ISO);
      expect(Date.parse(item.timestamp) - Date.parse(item.createdAt)).toBeLessThanOrEqual(30 * 60_000);
      expect(item.holders).toBeGreaterThan(0);
      expect(item.type).toBe('PUMP');
      expect(item.protocol).toBe('PUMP');
      expect(item.totalTxns).toBe(item.buys + item.sells);
      for (const key of [
        'isDevRug',
        'socialsCount',
        'botsTotalCount',
        'sniperWalletsCount',
        'buyTax',
        'sellTax',
        'links',
        'liquidityUSD',
      ]) {
        expect(item).toHaveProperty(key);
      }
      for (const key of ['devHoldingSupplyPerc', 'insiderWalletsSupplyPerc']) {
        expect(item[key as keyof VendorFeedToken]).toBeGreaterThanOrEqual(0);
        expect(item[key as keyof VendorFeedToken]).toBeLessThanOrEqual(100);
      }
      // Every listed token passes the filters: none older than 30 minutes.
      for (const listedToken of listed)
        expect(Date.parse(listedToken.timestamp) - Date.parse(listedToken.createdAt)).toBeLessThanOrEqual(30 * 60_000);
      // The launched token trades and reads over REST like any other.
      expect((await restToken(launched)).origin).toBe('PUMP');

      // A new filter set on the excluding socket: its confirmation comes after anything the launch sent it.
      await subscribe(excluding, { type: 'setFilters', filters: { Holders: { min: 1_000_000 } } });
      expect(excluding.find(isEvent('token'), excludedFrom)).toEqual([]);
      expect(vendor.sim.streams.subscriptionCount('token-feed')).toBe(2);
    } finally {
      passing.close();
      excluding.close();
    }
  });

  it('refuses a filter of the wrong form with 4000', async () => {
    const probe = await open('/ws/token-feed');
    probe.send({ type: 'setFilters', filters: { Liquidity: { min: 'lots' } } });
    expect((await probe.closed).code).toBe(4000);
    expect(probe.find(isType('error'))[0]?.message).toContain('Liquidity');
  });
});
