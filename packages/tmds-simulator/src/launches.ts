/**
 * New tokens launched while the simulator runs (vendor protocol only), so that token-feed, a feed
 * of new tokens, has something to say: the driver launches one now and then, the `launch` control
 * at once. Each launch is drawn from the seed and the launch's number, so the same launches come
 * for a seed; the token was created a few minutes before its launch is announced and has a short
 * history (the deployer's buy, snipers, a few dozen buyers; history.ts's `fresh` shape).
 */
import type { TokenProfile } from './profiles';
import { ADJECTIVES, DESCRIPTIONS, NOUNS, riskFlagsFor, slug } from './profiles';
import { Prng, mixSeed } from './random';
import { TOKEN_UNIT } from './units';
import { vendorExtraDecimals } from './vendorToken';

export const LAUNCH_ORIGINS = ['pump.fun', 'moonshot', 'bonk.fun', 'raydium-launchlab'] as const;
export type LaunchOrigin = (typeof LAUNCH_ORIGINS)[number];

/** Most launches are pump.fun's, as on the real chain. */
const ORIGIN_DRAW: readonly LaunchOrigin[] = ['pump.fun', 'pump.fun', 'pump.fun', 'pump.fun', 'moonshot', 'bonk.fun', 'raydium-launchlab'];

/** The launchpad's own pool (pump.fun's is its bonding curve, bondingCurve.ts). */
const FIRST_POOL: Readonly<Record<LaunchOrigin, string>> = {
  'pump.fun': 'pumpswap',
  moonshot: 'meteora-dlmm',
  'bonk.fun': 'raydium-clmm',
  'raydium-launchlab': 'raydium-amm',
};

export function isLaunchOrigin(value: string): value is LaunchOrigin {
  return (LAUNCH_ORIGINS as readonly string[]).includes(value);
}

export interface LaunchPlan {
  seed: number;
  /** The launch's number, from 0: with the seed, it decides everything drawn. */
  launch: number;
  /** Its index in the market's token list. */
  index: number;
  /** Names already taken in the market. */
  names: ReadonlySet<string>;
  /** Default: drawn. */
  origin?: LaunchOrigin;
}

function nameFor(rng: Prng, names: ReadonlySet<string>, launch: number): string {
  for (let tries = 0; tries < 50; tries++) {
    const name = `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    if (!names.has(name)) return name;
  }
  return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${launch + 2}`;
}

export function launchedProfile(plan: LaunchPlan): TokenProfile {
  const rng = new Prng(mixSeed(plan.seed, 11, plan.launch));
  const address = rng.address();
  const name = nameFor(rng, plan.names, plan.launch);
  const [adjective = '', noun = ''] = name.split(' ');
  const symbol = rng.chance(0.5) ? noun.toUpperCase() : (adjective.slice(0, 2) + noun.slice(0, 3)).toUpperCase();
  const origin = plan.origin ?? rng.pick(ORIGIN_DRAW);
  const deployer = rng.address();
  const handle = slug(name);
  const links: Record<string, string> = {};
  if (rng.chance(0.7)) links.twitter = `https://x.example/${handle}`;
  if (rng.chance(0.5)) links.telegram = `https://t.example/${handle}`;
  return {
    index: plan.index,
    address,
    name,
    symbol,
    description: rng.chance(0.6) ? rng.pick(DESCRIPTIONS).replace('{name}', name).replace('{symbol}', symbol) : null,
    website: rng.chance(0.3) ? `https://${handle}.example` : null,
    logo: `https://cdn.tokenwatch.invalid/logo/${address}.png`,
    image: `https://cdn.tokenwatch.invalid/image/${address}.png`,
    links,
    origin,
    version: '1',
    deployer,
    ownerAddress: null,
    isVerifiedSourceCode: null,
    partnerStats: null,
    totalSupply: rng.pick([1e9, 1e9, 1e9, 1e8]) * TOKEN_UNIT,
    extraDecimals: vendorExtraDecimals(origin),
    ageSecs: rng.int(60, 240),
    risk: riskFlagsFor(rng, rng.chance(0.8) ? deployer : rng.address()),
    activity: 'fresh',
    scenario: rng.chance(0.7) ? 'steady' : 'pump',
    liquiditySol: rng.logRange(20, 80),
    poolSupplyShare: rng.range(0.7, 0.8),
    devBuyShare: rng.range(0.01, 0.05),
    pools: [{ address: rng.address(), protocol: FIRST_POOL[origin], share: 1, delaySecs: 0 }],
    devOtherTokens: [],
    devHasRugged: false,
    hostile: null,
  };
}
