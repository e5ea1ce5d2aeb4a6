/**
 * The static side of the simulated market, drawn from the seed alone: which tokens exist, their
 * metadata, contract flags, deployers, pools and how busy each one is, plus the shared wallets
 * that trade across tokens. Cheap to build, so it is built eagerly; the trade history of each
 * token is generated lazily from its profile (history.ts).
 */
import type { WirePartnerStats } from './wireTypes';
import { HOSTILE_METADATA, type HostileMetadata } from './hostile';
import { Prng, mixSeed } from './random';
import { TOKEN_UNIT } from './units';

export const TOKEN_COUNT = 44;
export const SHARED_WALLET_COUNT = 40;

/** How busy a token is; `fresh` is a token launched while the simulator runs (launches.ts), with a short history. */
export type Activity = 'active' | 'normal' | 'quiet' | 'fresh';
/** How the token's history unfolds: the balance of buyers and sellers, and whether the dev dumps. */
export type Scenario = 'steady' | 'pump' | 'dump' | 'rug';

export const PROTOCOLS = ['raydium-amm', 'raydium-clmm', 'orca-whirlpool', 'meteora-dlmm', 'pumpswap'] as const;

export interface PoolPlan {
  address: string;
  protocol: string;
  /** Share of the token's initial liquidity placed in this pool. */
  share: number;
  /** Seconds after the token's creation when the pool opens for trading. */
  delaySecs: number;
}

export interface RiskFlags {
  isMutable: boolean;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  updateAuthority: string;
}

export interface TokenProfile {
  index: number;
  address: string;
  name: string;
  symbol: string;
  description: string | null;
  website: string | null;
  logo: string;
  image: string;
  links: Record<string, string>;
  origin: string;
  version: string;
  deployer: string;
  ownerAddress: string | null;
  isVerifiedSourceCode: boolean | null;
  partnerStats: WirePartnerStats | null;
  /** Smallest units; at most 1e15 so every amount stays a safe integer. */
  totalSupply: number;
  /**
   * Decimals the token is written with beyond the ledger's TOKEN_DECIMALS (units.ts rawText): 0,
   * except the vendor protocol's 9-decimal tokens (3), whose raw amounts pass 2^53.
   */
  extraDecimals: number;
  /** Seconds between the token's creation and the market's anchor time. */
  ageSecs: number;
  risk: RiskFlags;
  activity: Activity;
  scenario: Scenario;
  /** SOL placed in the pools at launch. */
  liquiditySol: number;
  /** Share of the supply placed in the pools at launch; the rest not bought by the dev stays unallocated. */
  poolSupplyShare: number;
  /** Share of the supply the deployer buys at launch. */
  devBuyShare: number;
  pools: PoolPlan[];
  /** Other tokens by the same deployer (in this market or outside it). */
  devOtherTokens: string[];
  devHasRugged: boolean;
  hostile: HostileMetadata | null;
}

export interface SharedWallet {
  address: string;
  bot: boolean;
  /** Multiplies this wallet's trade sizes (whales trade big). */
  sizeFactor: number;
}

export interface MarketProfile {
  seed: number;
  /** A fixed SOL/USD price for the whole run. */
  solUsd: number;
  tokens: TokenProfile[];
  sharedWallets: SharedWallet[];
}

export const ADJECTIVES = [
  'Based',
  'Moon',
  'Turbo',
  'Giga',
  'Tiny',
  'Happy',
  'Angry',
  'Sleepy',
  'Golden',
  'Cosmic',
  'Degen',
  'Frosty',
  'Lucky',
  'Wild',
  'Silent',
  'Rocket',
  'Pixel',
  'Neon',
  'Retro',
  'Mega',
  'Solar',
  'Quantum',
  'Crispy',
  'Baby',
];
export const NOUNS = [
  'Cat',
  'Dog',
  'Frog',
  'Pepe',
  'Shiba',
  'Whale',
  'Otter',
  'Panda',
  'Bonk',
  'Duck',
  'Hamster',
  'Monkey',
  'Penguin',
  'Llama',
  'Goat',
  'Fox',
  'Bear',
  'Bull',
  'Wizard',
  'Ninja',
  'Mochi',
  'Capy',
  'Koala',
  'Corgi',
];
const ORIGINS = ['pump.fun', 'pump.fun', 'pump.fun', 'raydium-launchlab', 'raydium-launchlab', 'moonshot', 'bonk.fun'];
export const DESCRIPTIONS = [
  'The most community-driven {name} on Solana.',
  '{name} ({symbol}) is a meme coin with no intrinsic value or expectation of financial return.',
  'Join the {symbol} army. Fair launch, no presale.',
  'A cultural experiment powered by {name}.',
];

export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

export function riskFlagsFor(rng: Prng, updateAuthority: string): RiskFlags {
  const roll = rng.next();
  // Most launchpad tokens renounce both authorities; a minority keep one, which the risk status reflects.
  return {
    isMutable: roll >= 0.55 && roll < 0.78 ? true : rng.chance(0.08),
    mintAuthority: roll >= 0.78 && roll < 0.88 ? updateAuthority : roll >= 0.95 ? updateAuthority : null,
    freezeAuthority: roll >= 0.88 ? updateAuthority : null,
    updateAuthority,
  };
}

function scenarioFor(rng: Prng): Scenario {
  const roll = rng.next();
  if (roll < 0.45) return 'steady';
  if (roll < 0.7) return 'pump';
  if (roll < 0.88) return 'dump';
  return 'rug';
}

function activityFor(rng: Prng): Activity {
  const roll = rng.next();
  if (roll < 0.25) return 'active';
  if (roll < 0.75) return 'normal';
  return 'quiet';
}

function poolPlansFor(rng: Prng, origin: string): PoolPlan[] {
  const count = rng.pick([1, 1, 2, 2, 3]);
  const first = origin === 'pump.fun' ? 'pumpswap' : origin === 'raydium-launchlab' ? 'raydium-amm' : rng.pick(PROTOCOLS);
  const others = rng.shuffled(PROTOCOLS.filter((protocol) => protocol !== first));
  const weights = Array.from({ length: count }, (_, i) => (i === 0 ? rng.range(2, 4) : rng.range(0.3, 1)));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight, i) => ({
    address: rng.address(),
    protocol: i === 0 ? first : (others[i - 1] ?? first),
    share: weight / total,
    delaySecs: i === 0 ? 0 : rng.int(120, 3600),
  }));
}

export function buildMarketProfile(seed: number): MarketProfile {
  const rng = new Prng(mixSeed(seed, 1));
  const solUsd = Math.round(rng.range(120, 200) * 100) / 100;

  const sharedWallets: SharedWallet[] = Array.from({ length: SHARED_WALLET_COUNT }, (_, i) => ({
    address: rng.address(),
    bot: i % 5 === 0,
    sizeFactor: i % 7 === 3 ? rng.range(8, 20) : rng.range(0.5, 2),
  }));

  // Deployers: most deploy one token, a few are serial deployers with several here and elsewhere.
  const deployers = Array.from({ length: 30 }, () => ({
    address: rng.address(),
    external: [] as string[],
    externalRug: false,
  }));
  for (const deployer of deployers.slice(0, 6)) {
    deployer.external = Array.from({ length: rng.int(1, 6) }, () => rng.address());
    deployer.externalRug = rng.chance(0.5);
  }

  const hostileSlots = new Map<number, HostileMetadata>();
  const slotOrder = rng.shuffled(Array.from({ length: TOKEN_COUNT }, (_, i) => i));
  HOSTILE_METADATA.forEach((metadata, i) => hostileSlots.set(slotOrder[i] ?? i, metadata));

  const usedNames = new Set<string>();
  const tokens: TokenProfile[] = [];
  for (let index = 0; index < TOKEN_COUNT; index++) {
    const t = new Prng(mixSeed(seed, 2, index));
    const address = t.address();
    let name = '';
    do name = `${t.pick(ADJECTIVES)} ${t.pick(NOUNS)}`;
    while (usedNames.has(name));
    usedNames.add(name);
    const [adjective = '', noun = ''] = name.split(' ');
    const symbol = t.chance(0.5) ? noun.toUpperCase() : (adjective.slice(0, 2) + noun.slice(0, 3)).toUpperCase();
    const origin = t.pick(ORIGINS);
    const deployer = deployers[index < deployers.length ? index : t.int(0, 5)] ?? deployers[0];
    if (!deployer) throw new Error('no deployer');
    const updateAuthority = t.chance(0.7) ? deployer.address : t.address();
    const activity = activityFor(t);
    const isNew = t.chance(0.1);
    const supplyWhole = t.pick([1e9, 1e9, 1e9, 1e8, 5e8, 1e7]);
    const handle = slug(name);
    const links: Record<string, string> = { twitter: `https://x.example/${handle}` };
    if (t.chance(0.8)) links.telegram = `https://t.example/${handle}`;
    if (t.chance(0.4)) links.discord = `https://discord.example/invite/${handle}`;
    const token: TokenProfile = {
      index,
      address,
      name,
      symbol,
      description: t.chance(0.75) ? t.pick(DESCRIPTIONS).replace('{name}', name).replace('{symbol}', symbol) : null,
      website: t.chance(0.6) ? `https://${handle}.example` : null,
      logo: `https://cdn.tokenwatch.invalid/logo/${address}.png`,
      image: `https://cdn.tokenwatch.invalid/image/${address}.png`,
      links,
      origin,
      version: '1',
      deployer: deployer.address,
      ownerAddress: t.chance(0.6) ? deployer.address : null,
      isVerifiedSourceCode: t.chance(0.2) ? null : false,
      partnerStats: t.chance(0.3)
        ? { source: 'dexscreener', boosts: t.int(0, 500), trendingRank: t.chance(0.5) ? t.int(1, 100) : null }
        : null,
      totalSupply: supplyWhole * TOKEN_UNIT,
      extraDecimals: 0,
      ageSecs: isNew ? t.int(2 * 3600, 12 * 3600) : t.int(3 * 86400, 7 * 86400),
      risk: riskFlagsFor(t, updateAuthority),
      activity,
      scenario: scenarioFor(t),
      liquiditySol: activity === 'active' ? t.logRange(200, 3000) : activity === 'normal' ? t.logRange(30, 400) : t.logRange(5, 60),
      poolSupplyShare: t.range(0.6, 0.8),
      devBuyShare: t.range(0.01, 0.08),
      pools: poolPlansFor(t, origin),
      devOtherTokens: [],
      devHasRugged: deployer.externalRug,
      hostile: null,
    };
    const hostile = hostileSlots.get(index);
    if (hostile) applyHostile(token, hostile);
    tokens.push(token);
  }

  // A deployer's other tokens are the ones here by the same address plus its deployments elsewhere.
  for (const token of tokens) {
    const siblings = tokens.filter((other) => other.deployer === token.deployer && other !== token);
    const deployer = deployers.find((d) => d.address === token.deployer);
    token.devOtherTokens = [...siblings.map((s) => s.address), ...(deployer?.external ?? [])];
    token.devHasRugged = token.devHasRugged || tokens.some((o) => o.deployer === token.deployer && o.scenario === 'rug');
  }

  return { seed, solUsd, tokens, sharedWallets };
}

function applyHostile(token: TokenProfile, hostile: HostileMetadata): void {
  token.hostile = hostile;
  token.name = hostile.name;
  token.symbol = hostile.symbol;
  if (hostile.description !== undefined) token.description = hostile.description;
  if (hostile.website !== undefined) token.website = hostile.website;
  if (hostile.logo !== undefined) token.logo = hostile.logo;
  if (hostile.image !== undefined) token.image = hostile.image;
  if (hostile.links !== undefined) token.links = { ...hostile.links };
  if (hostile.ownerAddressNull) token.ownerAddress = null;
  if (hostile.isVerifiedSourceCodeNull) token.isVerifiedSourceCode = null;
  if (hostile.ownerAddressNull || hostile.top10Null) {
    token.risk = { ...token.risk, mintAuthority: null, freezeAuthority: null };
  }
}
