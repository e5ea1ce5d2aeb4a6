/**
 * The four recorded token-data answers of the live service (shared/spec/recordings/, verbatim),
 * served over HTTP to the real client and read into the /token card. Every figure checked is
 * worked out here from the recording itself: the pools' `protocolData` (price0 is token1 per
 * whole token0, price1 its reciprocal, reserves by position), not the `suspected*` fields, which
 * no recorded pool has. USDC pools are valued in dollars, never as SOL; nulls are shown as unknown.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Card, plainText } from '../../src/cards/card';
import { buildTokenCard } from '../../src/cards/tokenCard';
import { poolsByLiquidity, priceSol } from '../../src/cards/tokenFacts';
import { renderCardText } from '../../src/chats/console/render';
import { createLogger } from '../../src/log';
import { MarketClient } from '../../src/market/client';
import { readTokenFast } from '../../src/market/readToken';
import { TokenSchema, type Token } from '../../src/market/schemas';
import { percent, price, shortAddress, sol, usd } from '../../src/text/format';

const RECORDINGS = new URL('../../../shared/spec/recordings/', import.meta.url);
const NAMES = [
  'token-data-3-pools.json',
  'token-data-46-pools-usdc.json',
  'token-data-pool-time-null.json',
  'token-data-pump-curve-and-amm.json',
] as const;
type Name = (typeof NAMES)[number];

const SOL_MINT = 'So11111111111111111111111111111111111111112';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TRUMP = '6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN';
const ALCH = 'HNg5PYJmtqcmzXrv6S9zP1CDKk5BgDuyFBxbvNApump';
const EGM = '7CXsbiVBB5XC5GWZZ3iopUBpnJDQoPJDNpgM4PBGpump';
const STABLECOIN = '2QjvRCTuXrEAgq5MARaKLG1jBtDtwamcfvpHc4Nxpump';
/** USD per SOL for the cards: a fixed rate, so each figure is known exactly. */
const RATE = 250;
const NOW = new Date('2025-01-24T12:00:00Z');

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  return value as Json;
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`not text: ${JSON.stringify(value)}`);
  return value;
}

/** A recording's answer as the service sent it. */
function envelope(name: Name): Json {
  return object(JSON.parse(readFileSync(new URL(name, RECORDINGS), 'utf8')));
}

/** The one token of a recording, as raw JSON (a fresh copy at each call). */
function rawToken(name: Name): Json {
  const [token] = Object.values(object(envelope(name).data));
  return object(token);
}

interface Expected {
  address: string;
  quote: 'SOL' | 'USDC' | null;
  /** The quote in the pool, whole units (SOL or dollars); null when unknown. */
  liquidity: number | null;
  /** Quote per whole token; null when unknown. */
  price: number | null;
}

/** One pool as the recording gives it, worked out by hand: the token's side by position, its price and reserves in protocolData. */
function expectedPool(token: Json, pool: Json): Expected {
  const address = text(pool.poolAddress);
  const tokenIs0 = pool.token0Address === token.address;
  const quoteMint = tokenIs0 ? pool.token1Address : pool.token0Address;
  const quote = quoteMint === SOL_MINT ? 'SOL' : quoteMint === USDC_MINT ? 'USDC' : null;
  if (quote === null) return { address, quote, liquidity: null, price: null };
  const data = object(pool.protocolData);
  const quoteReserve = BigInt(text(tokenIs0 ? data.reserve1 : data.reserve0));
  const tokenReserve = BigInt(text(tokenIs0 ? data.reserve0 : data.reserve1));
  const priceText = text(tokenIs0 ? data.price0 : data.price1);
  const own = priceText === 'NaN' ? null : Number(priceText);
  if (quoteReserve === 0n && tokenReserve === 0n) {
    // Not read by the service ("NaN", a pump.fun curve), or emptied: no price either way.
    return { address, quote, liquidity: own === null ? null : 0, price: null };
  }
  return { address, quote, liquidity: Number(quoteReserve) / 10 ** (quote === 'SOL' ? 9 : 6), price: own };
}

function expectedPools(token: Json): Expected[] {
  return Object.values(object(token.liquidityPools)).map((pool) => expectedPool(token, object(pool)));
}

function sum(values: Array<number | null>): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

/** The deepest priced pool, a USDC pool's dollars counted in SOL at RATE. */
function deepestPriced(pools: readonly Expected[]): Expected {
  const priced = pools.filter((pool) => pool.price !== null);
  const depth = (pool: Expected) => (pool.liquidity ?? 0) / (pool.quote === 'USDC' ? RATE : 1);
  const best = priced.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return best;
}

function fieldText(card: Card, name: string): string {
  const found = card.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${card.fields.map((f) => f.name).join(', ')}`);
  return plainText(found.value);
}

/** The card as the console prints it, one long line per field. */
function cardText(card: Card): string {
  return renderCardText(card, { width: 1000 });
}

function expectNothingMadeUp(card: Card): void {
  const all = cardText(card);
  for (const bad of ['Invalid', 'NaN', 'null', 'undefined', '1970', 'Infinity']) expect(all).not.toContain(bad);
}

let server: Server;
let client: MarketClient;
const served: string[] = [];

beforeAll(async () => {
  const tokens = new Map<string, Json>();
  for (const name of NAMES) for (const [address, token] of Object.entries(object(envelope(name).data))) tokens.set(address, object(token));
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/api/token-data') {
      response.writeHead(404).end('{}');
      return;
    }
    const asked = (url.searchParams.get('addresses') ?? url.searchParams.get('address') ?? '').split(',');
    served.push(...asked);
    const data = Object.fromEntries(asked.flatMap((address) => (tokens.has(address) ? [[address, tokens.get(address)]] : [])));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 200, message: null, data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new MarketClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'recordings-test-key', logger: createLogger('silent') });
});

afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The token as the client reads it from the recorded answer, over HTTP. */
async function viaClient(address: string): Promise<Token> {
  return client.token(address);
}

describe('the recorded token-data answers, through the client', () => {
  it.each(NAMES)('%s: read whole, the same by the client, the schema and the fast reader', async (name) => {
    const raw = rawToken(name);
    const token = await viaClient(text(raw.address));
    expect(served).toContain(raw.address);
    const schema = TokenSchema.parse(rawToken(name));
    expect(token).toStrictEqual(schema);
    expect(readTokenFast(rawToken(name))).toStrictEqual(schema);
    expect(token.liquidityPools).toHaveLength(Object.keys(object(raw.liquidityPools)).length);
    // Not one pool has the four suspected figures: their price and reserves are protocolData's.
    for (const pool of token.liquidityPools) {
      expect(pool.suspectedBaseTokenPrice).toBeNull();
      expect(pool.suspectedQuoteTokenReserves).toBeNull();
      expect(pool.protocolData).not.toBeNull();
    }
  });

  it.each(NAMES)('%s: every pool read from the token’s side, USDC pools in dollars and never as SOL', async (name) => {
    const raw = rawToken(name);
    const token = await viaClient(text(raw.address));
    const facts = new Map(poolsByLiquidity(token, RATE).map((pool) => [pool.address, pool]));
    for (const expected of expectedPools(raw)) {
      const pool = facts.get(expected.address);
      expect(pool?.quote).toBe(expected.quote);
      if (expected.quote === 'USDC') {
        expect(pool).toMatchObject({ liquiditySol: null, priceSol: null, liquidityUsd: expected.liquidity, priceUsd: expected.price });
      } else {
        expect(pool).toMatchObject({ liquiditySol: expected.liquidity, priceSol: expected.price, liquidityUsd: null, priceUsd: null });
      }
    }
  });
});

describe('the /token card of each recording', () => {
  it.each(NAMES)('%s: price, market cap and liquidity as worked out from the recording', async (name) => {
    const raw = rawToken(name);
    const token = await viaClient(text(raw.address));
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    const pools = expectedPools(raw);
    const best = deepestPriced(pools);
    const solLiquidity = sum(pools.filter((pool) => pool.quote === 'SOL').map((pool) => pool.liquidity));
    const usdcLiquidity = sum(pools.filter((pool) => pool.quote === 'USDC').map((pool) => pool.liquidity));
    const supply = Number(BigInt(text(raw.totalSupply))) / 10 ** Number(raw.decimals);
    // In every recording the deepest priced pool is a SOL pool.
    expect(best.quote).toBe('SOL');
    const p = best.price ?? NaN;
    expect(fieldText(card, 'Price')).toBe(`${usd(p * RATE)} · ${price(p)} SOL`);
    expect(fieldText(card, 'Market Cap')).toBe(`${usd(p * supply * RATE)} · ${sol(p * supply)}`);
    const liquidityUsd = solLiquidity * RATE + usdcLiquidity;
    expect(fieldText(card, 'Liquidity')).toBe(`${usd(liquidityUsd)} · ${sol(solLiquidity + usdcLiquidity / RATE)}`);
    expect(fieldText(card, 'Top 10 Holders')).toBe('—');
    expectNothingMadeUp(card);
  });

  it('OFFICIAL TRUMP: the METEORA pool 4CTU… prices TRUMP at 0.1609 SOL (price0: token0 is TRUMP, token1 SOL)', async () => {
    const token = await viaClient(TRUMP);
    const dlmm = poolsByLiquidity(token).find((pool) => pool.address === '4CTUHtiHrPHFT4Zc1qNScrposmM7xfupU7EVDWCR7PZw');
    expect(dlmm).toMatchObject({ quote: 'SOL', priceSol: 0.1609044449901135509, liquiditySol: 32782.858381473 });
    // The other two put SOL first: their price is price1, and it agrees.
    const pools = poolsByLiquidity(token);
    expect(pools.map((pool) => pool.address)).toEqual([
      'GQsPr4RJk9AZkkfWHud7v4MtotcxhaYzZHdsPCg9vNvW',
      'HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs',
      '4CTUHtiHrPHFT4Zc1qNScrposmM7xfupU7EVDWCR7PZw',
    ]);
    expect(priceSol(pools)).toBe(0.16034794220675327);
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    expect(fieldText(card, 'Pools')).toContain(
      `RAYDIUM_CLMM · ${sol(51734.728577596)} (${usd(51734.728577596 * RATE)}) · ${price(0.16034794220675327)} SOL · ${shortAddress('GQsPr4RJk9AZkkfWHud7v4MtotcxhaYzZHdsPCg9vNvW')}`,
    );
  });

  it('Alchemist AI: 13 USDC pools valued in dollars, the SOL liquidity the SOL pools’ alone', async () => {
    const raw = rawToken('token-data-46-pools-usdc.json');
    const token = await viaClient(ALCH);
    const pools = poolsByLiquidity(token, RATE);
    const usdcPools = pools.filter((pool) => pool.quote === 'USDC');
    expect(usdcPools).toHaveLength(13);
    const usdcReserves = expectedPools(raw)
      .filter((pool) => pool.quote === 'USDC')
      .map((pool) => pool.liquidity);
    expect(sum(usdcPools.map((pool) => pool.liquidityUsd))).toBeCloseTo(sum(usdcReserves), 6);
    // The deepest USDC pool: 35,275.067188 USDC at 0.1110… USD per ALCH.
    const deepUsdc = usdcPools[0];
    expect(deepUsdc).toMatchObject({
      address: 'HcuGm8KuFCsMH9xxerKkdesKAnLRG6dVMCp7U4ECRraw',
      liquidityUsd: 35275.067188,
      priceUsd: 0.11106468267991685,
    });
    // The deepest pool of all: RAYDIUM, SOL as token0, 8,795.677 SOL.
    expect(pools[0]).toMatchObject({ address: 'FyDF3vKQFbcvNTsBi7L7LremrFPmXKbQqgAgnPg1hXXd', quote: 'SOL', liquiditySol: 8795.677020792 });
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    const lines = fieldText(card, 'Top Pools (3 of 46)').split('\n');
    expect(lines[0]).toBe(
      `RAYDIUM · ${sol(8795.677020792)} (${usd(8795.677020792 * RATE)}) · ${price(0.00033085954730303343)} SOL · ${shortAddress('FyDF3vKQFbcvNTsBi7L7LremrFPmXKbQqgAgnPg1hXXd')}`,
    );
  });

  it('Alchemist AI with its USDC pools alone: the price in USD, in SOL at the rate, and in USD alone without one', async () => {
    const token = await viaClient(ALCH);
    const usdcOnly: Token = { ...token, liquidityPools: token.liquidityPools.filter((pool) => pool.token1Address === USDC_MINT) };
    const p = 0.11106468267991685106;
    const supply = 999993725122930 / 1e6;
    const dollars = sum(
      expectedPools(rawToken('token-data-46-pools-usdc.json'))
        .filter((pool) => pool.quote === 'USDC')
        .map((pool) => pool.liquidity),
    );
    const card = buildTokenCard({ token: usdcOnly, solUsd: RATE, now: NOW });
    expect(fieldText(card, 'Price')).toBe(`${usd(p)} · ${price(p / RATE)} SOL`);
    expect(fieldText(card, 'Market Cap')).toBe(`${usd(p * supply)} · ${sol((p * supply) / RATE)}`);
    expect(fieldText(card, 'Liquidity')).toBe(`${usd(dollars)} · ${sol(dollars / RATE)}`);
    const noRate = buildTokenCard({ token: usdcOnly, solUsd: null, now: NOW });
    expect(fieldText(noRate, 'Price')).toBe(usd(p));
    expect(fieldText(noRate, 'Liquidity')).toBe(usd(dollars));
    for (const f of noRate.fields) expect(plainText(f.value)).not.toMatch(/\d SOL/);
    // Both kinds of pool and no rate: two parts, never one value in two units.
    const both = buildTokenCard({ token, solUsd: null, now: NOW });
    const solPools = sum(
      expectedPools(rawToken('token-data-46-pools-usdc.json'))
        .filter((pool) => pool.quote === 'SOL')
        .map((pool) => pool.liquidity),
    );
    expect(fieldText(both, 'Liquidity')).toBe(`${sol(solPools)} + ${usd(dollars)}`);
    expect(fieldText(both, 'Price')).toBe(`${price(0.00033085954730303343)} SOL`);
  });

  it('Elongame: a pool whose creation time is null is read as unknown, never 0 or an invalid date', async () => {
    const token = await viaClient(EGM);
    const clmm = token.liquidityPools.find((pool) => pool.poolAddress === 'GVmSKzDX5DQKa41qKyDwh3LUzwjS3qZ4W56RWuVLMX9T');
    expect(clmm?.creationBlockTimestamp).toBeNull();
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    expect(fieldText(card, 'Age')).toBe('13d 19h');
    expectNothingMadeUp(card);
  });

  it('Stable Coin: the pump.fun curve with no figures ("NaN", zero reserves) is unknown, the AMM pool prices the token', async () => {
    const token = await viaClient(STABLECOIN);
    const pools = poolsByLiquidity(token, RATE);
    expect(pools.map((pool) => [pool.address, pool.liquiditySol, pool.priceSol])).toEqual([
      ['D29kHv4zGRsQzkPFeNTitPSRqUkTTz7YyksiNFhNt7QZ', 19.896615843, 0.00000002175594153743],
      ['8mQKsFRz9xepon8rSmj2N27SV5dTUGX4KS1PaveHLvC6', null, null],
    ]);
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    expect(fieldText(card, 'Liquidity')).toBe(`${usd(19.896615843 * RATE)} · ${sol(19.896615843)}`);
    expect(fieldText(card, 'Pools').split('\n')[1]).toBe(
      `PUMP · SOL pair, — · ${shortAddress('8mQKsFRz9xepon8rSmj2N27SV5dTUGX4KS1PaveHLvC6')}`,
    );
  });

  it('nulls where the spec shows values (logo, deployer, origin, creation time) are shown as unknown', () => {
    const raw = { ...rawToken('token-data-3-pools.json'), logo: null, deployerAddress: null, origin: null, creationBlockTimestamp: null };
    const token = TokenSchema.parse(raw);
    expect(token).toMatchObject({ logo: null, deployerAddress: null, origin: null, creationBlockTimestamp: null });
    const card = buildTokenCard({ token, solUsd: RATE, now: NOW });
    expect(fieldText(card, 'Deployer')).toBe('—');
    expect(fieldText(card, 'Age')).toBe('—');
    expect(card.thumbnailUrl).toBe(token.image);
    expect(token.image).toMatch(/^https:\/\/token-media\.defined\.fi\//);
    expectNothingMadeUp(card);
  });

  it('top10HoldersSupply: a raw amount is a share of the supply; a percentage or more than the supply is left out', () => {
    const base = rawToken('token-data-3-pools.json');
    const supply = Number(text(base.totalSupply));
    const top10 = (value: unknown) =>
      fieldText(
        buildTokenCard({ token: TokenSchema.parse({ ...base, top10HoldersSupply: value }), solUsd: RATE, now: NOW }),
        'Top 10 Holders',
      );
    expect(top10('30017094994293')).toBe(percent((30017094994293 / supply) * 100));
    expect(top10('45.2')).toBe('—');
    expect(top10(45.2)).toBe('—');
    expect(top10('2000000000000000')).toBe('—');
    expect(top10(null)).toBe('—');
  });
});
