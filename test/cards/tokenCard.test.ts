import { describe, expect, it } from 'vitest';
import { type Card, plainText } from '../../src/cards/card';
import { percent, price, sol, usd } from '../../src/text/format';
import { buildTokenCard } from '../../src/cards/tokenCard';
import {
  NAME_MAX,
  SYMBOL_MAX,
  UNNAMED_TOKEN,
  liquiditySol,
  poolsByLiquidity,
  priceSol,
  riskFlags,
  sharePercent,
} from '../../src/cards/tokenFacts';
import { WSOL_ADDRESS } from '../../src/market/address';
import { TokenSchema, type Token } from '../../src/market/schemas';
import { expectSafeCard } from '../support/cardSafety';

const TOKEN = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
const DEPLOYER = '5TWY5giTQjmgJgwgaQkCjiv7CovhojanR44w4ftscE1V';
const POOL_A = '7VAdsXzw6XXUNch2mNmE8W9tuH6hh6gBiEsQY476rNf';
const POOL_B = '3oq18CN1gu4cNj8LB5kkpGqVdDYYoMkSUdmSzANKoMDM';
const POOL_C = 'E5VSVBeiV73VacNEzBhVmL7EQtmPjsbMYjAyJPbZBvCm';
const POOL_D = 'CAmpQ5Vq8bVBZqpqWJ2rUZ1nsyVnLqrGjDcZkMe83mGU';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const NOW = new Date('2025-01-15T12:00:00Z');
const NOW_SECS = NOW.getTime() / 1000;

function pool(address: string, protocol: string, quoteLamports: string, baseUnits: string, priceText: string, quote = WSOL_ADDRESS) {
  return {
    chainId: 1399811149,
    pairId: `${address}_1399811149`,
    poolAddress: address,
    token0Address: TOKEN,
    token1Address: quote,
    token0Decimals: 6,
    token1Decimals: 9,
    protocol,
    syncedAt: '2025-01-15T11:59:00Z',
    creationBlockNumber: 1,
    creationBlockTimestamp: NOW_SECS - 86_400,
    suspectedBaseTokenPrice: priceText,
    suspectedQuoteTokenPrice: '1',
    suspectedBaseTokenReserves: baseUnits,
    suspectedQuoteTokenReserves: quoteLamports,
  };
}

function wireToken(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `${TOKEN}_1399811149`,
    chainId: 1399811149,
    address: TOKEN,
    decimals: 6,
    name: 'Neon Mochi',
    symbol: 'MOCHI',
    syncedAt: '2025-01-15T11:59:00Z',
    description: 'The most community-driven Neon Mochi on Solana.',
    isVerifiedSourceCode: false,
    partnerStats: null,
    ownerAddress: DEPLOYER,
    totalSupply: '500000000000000',
    logo: 'https://cdn.example.com/mochi.png',
    website: 'https://mochi.example.com',
    deployerAddress: DEPLOYER,
    creationBlockNumber: 1,
    creationBlockTimestamp: NOW_SECS - (3 * 86_400 + 4 * 3600),
    holdersCount: '1201',
    version: '1',
    liquidityPools: {
      [POOL_A]: pool(POOL_A, 'raydium-amm', '62269687688', '37926791458345', '0.00000164183906135'),
      [POOL_B]: pool(POOL_B, 'meteora-dlmm', '22496459782', '13070695777196', '0.00000172113712732'),
      [POOL_C]: pool(POOL_C, 'raydium-clmm', '20082975938', '13198847285811', '0.00000152158267742'),
      [POOL_D]: pool(POOL_D, 'pumpswap', '1000000000', '600000000000', '0.0000016667'),
    },
    riskAnalysis: {
      isMutable: true,
      ownerBalance: '25236610160794',
      mintAuthority: null,
      freezeAuthority: null,
      updateAuthority: DEPLOYER,
    },
    riskStatus: 'WARNING',
    links: { twitter: 'https://x.example.com/mochi', telegram: 'javascript:alert(1)', discord: 'https://discord.example.com/mochi' },
    top10HoldersSupply: '88162532811189',
    origin: 'pumpfun',
    image: 'https://cdn.example.com/mochi-big.png',
    ...overrides,
  };
}

function token(overrides: Record<string, unknown> = {}): Token {
  return TokenSchema.parse(wireToken(overrides));
}

function fieldText(card: Card, name: string): string {
  const found = card.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${card.fields.map((f) => f.name).join(', ')}`);
  return plainText(found.value);
}

const RATE = 199.7;

describe('token facts', () => {
  it('sums liquidity over the SOL pools and prices from the deepest one', () => {
    const pools = poolsByLiquidity(token());
    expect(pools.map((p) => p.address)).toEqual([POOL_A, POOL_B, POOL_C, POOL_D]);
    expect(liquiditySol(pools)).toBeCloseTo(62.269687688 + 22.496459782 + 20.082975938 + 1, 9);
    expect(priceSol(pools)).toBe(0.00000164183906135);
  });

  it('reads a pool from the token side when the token is token1, and leaves non-SOL pools out of SOL figures', () => {
    const flipped = {
      ...pool(POOL_A, 'orca', '5000000000', '1000000000', '0.000005'),
      token0Address: WSOL_ADDRESS,
      token1Address: TOKEN,
      token0Decimals: 9,
      token1Decimals: 6,
    };
    const usdcPool = pool(POOL_B, 'raydium', '999999999999', '1000', '3', USDC);
    const pools = poolsByLiquidity(token({ liquidityPools: { [POOL_A]: flipped, [POOL_B]: usdcPool } }));
    expect(pools[0]).toMatchObject({ address: POOL_A, liquiditySol: 5, priceSol: 0.000005 });
    expect(pools[1]).toMatchObject({ address: POOL_B, liquiditySol: null, priceSol: null });
    expect(liquiditySol(pools)).toBe(5);
  });

  it('falls back to the reserves for a pool without a price', () => {
    const noPrice = { ...pool(POOL_A, 'orca', '2000000000', '4000000', '0'), suspectedBaseTokenPrice: null };
    const [facts] = poolsByLiquidity(token({ liquidityPools: [noPrice] }));
    expect(facts?.priceSol).toBe(0.5);
  });

  it('computes shares on the integers', () => {
    expect(sharePercent(1n, 3n)).toBe(33.333333);
    expect(sharePercent(88162532811189n, 500000000000000n)).toBe(17.632506);
    expect(sharePercent(1n, 0n)).toBeNull();
    expect(sharePercent(null, 10n)).toBeNull();
  });

  it('says each risk flag in words', () => {
    expect(riskFlags(token())).toEqual([
      { label: 'Mint authority', state: 'renounced', ok: true },
      { label: 'Freeze authority', state: 'renounced', ok: true },
      { label: 'Metadata', state: 'mutable', ok: false },
      { label: 'Owner balance', state: `${percent(5.047322)} of supply`, ok: false },
    ]);
    const active = token({
      riskAnalysis: { isMutable: false, ownerBalance: '0', mintAuthority: DEPLOYER, freezeAuthority: DEPLOYER, updateAuthority: DEPLOYER },
    });
    expect(riskFlags(active).map((f) => [f.state, f.ok])).toEqual([
      ['active', false],
      ['active', false],
      ['immutable', true],
      ['none', true],
    ]);
    expect(riskFlags(token({ riskAnalysis: null })).every((f) => f.ok === null && f.state === '—')).toBe(true);
  });
});

describe('buildTokenCard', () => {
  const card = buildTokenCard({ token: token(), solUsd: RATE, now: NOW });

  it('titles, links, colours and pictures the token', () => {
    expect(card.title).toBe('Neon Mochi (MOCHI)');
    expect(card.url).toBe(`https://solscan.io/token/${TOKEN}`);
    expect(card.color).toBe('warning');
    expect(card.thumbnailUrl).toBe('https://cdn.example.com/mochi.png');
    expect(card.footer).toBe('646S…uH25 · synced 1m ago');
    expect(card.timestamp).toEqual(new Date('2025-01-15T11:59:00Z'));
  });

  it('shows price, market cap and liquidity in USD and SOL', () => {
    const p = 0.00000164183906135;
    const liquidity = 62.269687688 + 22.496459782 + 20.082975938 + 1;
    expect(fieldText(card, 'Price')).toBe(`${usd(p * RATE)} · ${price(p)} SOL`);
    expect(fieldText(card, 'Market Cap')).toBe(`${usd(p * 500_000_000 * RATE)} · ${sol(p * 500_000_000)}`);
    expect(fieldText(card, 'Liquidity')).toBe(`${usd(liquidity * RATE)} · ${sol(liquidity)}`);
  });

  it('shows SOL only when no rate is known', () => {
    const solOnly = buildTokenCard({ token: token(), solUsd: null, now: NOW });
    expect(fieldText(solOnly, 'Price')).toBe(`${price(0.00000164183906135)} SOL`);
    for (const f of solOnly.fields) expect(plainText(f.value)).not.toContain('$');
  });

  it('shows holders, top-10 share, age, deployer and every risk flag', () => {
    expect(fieldText(card, 'Holders')).toBe('1,201');
    expect(fieldText(card, 'Top 10 Holders')).toBe(percent(17.632506));
    expect(fieldText(card, 'Age')).toBe('3d 4h');
    const deployer = card.fields.find((f) => f.name === 'Deployer');
    expect(deployer?.value).toEqual([{ text: '5TWY…cE1V', url: `https://solscan.io/account/${DEPLOYER}` }]);
    expect(fieldText(card, 'Risk').split('\n')).toEqual([
      'WARNING',
      'Mint authority: renounced ✅',
      'Freeze authority: renounced ✅',
      'Metadata: mutable ⚠️',
      `Owner balance: ${percent(5.047322)} of supply ⚠️`,
    ]);
  });

  it('lists the three deepest pools with protocol, and only safe links', () => {
    const pools = card.fields.find((f) => f.name.startsWith('Top Pools'));
    expect(pools?.name).toBe('Top Pools (3 of 4)');
    const lines = plainText(pools?.value ?? []).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      `raydium-amm · ${sol(62.269687688)} (${usd(62.269687688 * RATE)}) · ${price(0.00000164183906135)} SOL · 7VAd…6rNf`,
    );
    expect(lines[1]).toMatch(/^meteora-dlmm /);
    expect(lines[2]).toMatch(/^raydium-clmm /);
    const links = card.fields.find((f) => f.name === 'Links')?.value ?? [];
    expect(links.filter((s) => s.url !== undefined).map((s) => [s.text, s.url])).toEqual([
      ['Website', 'https://mochi.example.com/'],
      ['Twitter', 'https://x.example.com/mochi'],
      ['Discord', 'https://discord.example.com/mochi'],
    ]);
    expect(plainText(links)).not.toContain('Telegram');
  });

  it('shows a link written without a scheme on a known host as https, and still drops what is not a link', () => {
    const links = {
      twitter: 'x.com/mochi_sol',
      telegram: 't.me/mochi',
      discord: 'javascript:alert(1)',
      medium: 'data:text/html,<b>x</b>',
      github: 'not a host/path',
      site: 'mochi.fun',
    };
    const shown = buildTokenCard({ token: token({ links, website: null }), solUsd: RATE, now: NOW });
    const spans = shown.fields.find((f) => f.name === 'Links')?.value ?? [];
    expect(spans.filter((s) => s.url !== undefined).map((s) => s.url)).toEqual([
      'https://x.com/mochi_sol',
      'https://t.me/mochi',
      'https://mochi.fun/',
    ]);
  });

  it('offers Chart, Holders, Technicals and Track', () => {
    expect(card.actions).toEqual([
      { label: 'Chart', command: 'chart', args: [TOKEN] },
      { label: 'Holders', command: 'holders', args: [TOKEN] },
      { label: 'Technicals', command: 'technicals', args: [TOKEN] },
      { label: 'Track', command: 'track', args: ['token', TOKEN] },
    ]);
  });
});

describe('buildTokenCard: price changes, volume and market links', () => {
  const moves = {
    changes: [
      { label: '5m', kind: 'change' as const, pct: 1.234 },
      { label: '1h', kind: 'change' as const, pct: -3.4 },
      { label: '6h', kind: 'unknown' as const },
      { label: '24h', kind: 'younger' as const, ageSecs: 3 * 3600 },
    ],
    volume24h: { tokens: 1_000_000, sol: 61.5 },
  };

  it('shows the change over each window, the token’s age for a window it is younger than, and the day’s volume in USD and SOL', () => {
    const card = buildTokenCard({ token: token(), solUsd: RATE, now: NOW, moves });
    expect(fieldText(card, 'Price change')).toBe('5m +1.23% · 1h −3.4% · 6h — · 24h: token is 3h old');
    expect(fieldText(card, 'Volume 24h')).toBe(`${usd(61.5 * RATE)} · ${sol(61.5)}`);
    const names = card.fields.map((f) => f.name);
    expect(names.indexOf('Price change')).toBe(names.indexOf('Liquidity') + 1);
  });

  it('says the changes are unavailable when the candles could not be read, and leaves them out when not asked', () => {
    const card = buildTokenCard({ token: token(), solUsd: RATE, now: NOW, moves: null });
    expect(fieldText(card, 'Price change')).toBe('unavailable (the chart data could not be read)');
    expect(fieldText(card, 'Volume 24h')).toBe('unavailable');
    expect(buildTokenCard({ token: token(), solUsd: RATE, now: NOW }).fields.some((f) => f.name === 'Price change')).toBe(false);
  });

  it('links DEX Screener, Birdeye, GeckoTerminal, Jupiter and Solscan from the address, beside the token’s own links', () => {
    const card = buildTokenCard({ token: token(), solUsd: RATE, now: NOW, moves });
    const market = card.fields.find((f) => f.name === 'Trade & charts')?.value ?? [];
    expect(market.filter((s) => s.url !== undefined).map((s) => [s.text, s.url])).toEqual([
      ['DEX Screener', `https://dexscreener.com/solana/${TOKEN}`],
      ['Birdeye', `https://birdeye.so/token/${TOKEN}?chain=solana`],
      ['GeckoTerminal', `https://www.geckoterminal.com/solana/tokens/${TOKEN}`],
      ['Jupiter', `https://jup.ag/swap/SOL-${TOKEN}`],
      ['Solscan', `https://solscan.io/token/${TOKEN}`],
    ]);
    expect(card.fields.some((f) => f.name === 'Links')).toBe(true);
    expectSafeCard(card);
  });

  it('gives a token of another chain no such links', () => {
    const evm = buildTokenCard({
      token: token({ address: '0x1111111111111111111111111111111111111111', chainId: 1 }),
      solUsd: RATE,
      now: NOW,
      moves,
    });
    expect(evm.fields.some((f) => f.name === 'Trade & charts')).toBe(false);
  });
});

describe('buildTokenCard with hostile or missing data', () => {
  it('keeps the links field within a chat field’s length', () => {
    const long = (i: number) => `https://example${i}.com/${'a'.repeat(480)}`;
    const links = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`site${i}`, long(i)]));
    const card = buildTokenCard({ token: token({ links, website: null }), solUsd: RATE, now: NOW });
    const spans = card.fields.find((f) => f.name === 'Links')?.value ?? [];
    const size = spans.reduce((sum, s) => sum + s.text.length + (s.url?.length ?? 0) + 4, 0);
    expect(spans.filter((s) => s.url).length).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(1024);
  });

  it('builds from a token with nulls everywhere and an empty name', () => {
    const bare = TokenSchema.parse({ address: TOKEN, decimals: 6, name: '', symbol: '' });
    const card = buildTokenCard({ token: bare, solUsd: RATE, now: NOW });
    expect(card.title).toBe(UNNAMED_TOKEN);
    expect(card.color).toBe('neutral');
    expect(card.thumbnailUrl).toBeUndefined();
    expect(card.description).toBeUndefined();
    for (const name of ['Price', 'Market Cap', 'Liquidity', 'Holders', 'Top 10 Holders', 'Age', 'Deployer'])
      expect(fieldText(card, name)).toBe('—');
    expect(fieldText(card, 'Pools')).toBe('none');
    expect(card.fields.some((f) => f.name === 'Links')).toBe(false);
    expect(card.footer).toBe('646S…uH25');
    expectSafeCard(card);
  });

  it('cleans names, defuses mentions, drops script and data links', () => {
    const hostile = token({
      name: '@everyone \u202eFREE\u200b AIRDROP\n\nRisk: SAFE ✅ ' + 'x'.repeat(300),
      symbol: '<@&123456789012345678>\u0000',
      description: 'ping @here <#123>\u001b[31m',
      logo: 'data:text/html;base64,PHNjcmlwdD4=',
      image: 'javascript:alert(1)',
      website: 'JaVaScRiPt:alert(1)',
      links: { '@everyone': 'https://x.example.com/a', twitter: 'data:text/html,<b>', 'x\u200b': 'java\tscript:alert(1)' },
      riskStatus: 'SAFE\u202e',
      liquidityPools: [pool(POOL_A, '@here <b>amm</b>', '1000000000', '1000000', '1')],
      deployerAddress: 'not an address @everyone',
    });
    const card = buildTokenCard({ token: hostile, solUsd: RATE, now: NOW });
    expectSafeCard(card, { titleMax: NAME_MAX + SYMBOL_MAX + 3 });
    expect(card.thumbnailUrl).toBeUndefined();
    expect(card.title.startsWith('＠everyone FREE AIRDROP Risk: SAFE ✅')).toBe(true);
    expect(fieldText(card, 'Risk').split('\n')[0]).toBe('SAFE');
    expect(card.color).toBe('safe');
    const links = card.fields.find((f) => f.name === 'Links')?.value ?? [];
    expect(links.map((s) => s.url).filter(Boolean)).toEqual(['https://x.example.com/a']);
  });
});
