/**
 * Generates one token's past: its launch (the deployer's buy, snipers, transfers to insiders),
 * then days of trades by fresh and shared wallets, shaped by the token's scenario. Everything is
 * drawn from a Prng seeded by the market seed and the token's index, and times are offsets from
 * the token's creation, so a token's history is the same whenever and in whatever order it is
 * generated.
 */
import type { SharedWallet, TokenProfile } from './profiles';
import { TokenBook, type Side } from './ledger';
import { Prng, mixSeed } from './random';
import { LAMPORTS_PER_SOL } from './units';

export interface HistoryContext {
  seed: number;
  /** Unix seconds the market's history ends at (the market's creation time). */
  anchor: number;
  solUsd: number;
  sharedWallets: readonly SharedWallet[];
  nativeBalanceOf(wallet: string): number;
}

interface Shape {
  holders: number;
  tradesPerHolder: number;
  minUsd: number;
  maxUsd: number;
}

function shapeOf(profile: TokenProfile, rng: Prng): Shape {
  switch (profile.activity) {
    case 'active':
      return { holders: rng.int(350, 600), tradesPerHolder: rng.range(3, 5), minUsd: 20, maxUsd: 3000 };
    case 'normal':
      return { holders: rng.int(200, 380), tradesPerHolder: rng.range(2, 3.5), minUsd: 10, maxUsd: 1200 };
    case 'quiet':
      return { holders: rng.int(170, 240), tradesPerHolder: rng.range(1.3, 2), minUsd: 5, maxUsd: 300 };
    case 'fresh':
      // Minutes old: the launch, its snipers and the first few dozen buyers.
      return { holders: rng.int(20, 60), tradesPerHolder: rng.range(1.2, 1.8), minUsd: 5, maxUsd: 500 };
  }
}

/** Probability that a wallet holding tokens sells rather than buys, by scenario and progress (0..1). */
function sellProbability(profile: TokenProfile, progress: number, rugged: boolean): number {
  switch (profile.scenario) {
    case 'steady':
      return 0.47;
    case 'pump':
      return progress < 0.7 ? 0.36 : 0.5;
    case 'dump':
      return progress < 0.3 ? 0.45 : 0.6;
    case 'rug':
      return rugged ? 0.75 : 0.42;
  }
}

/** Trade times as seconds after creation, sorted: a launch burst, an early rush, then steady flow. */
function tradeOffsets(rng: Prng, count: number, snipers: number, ageSecs: number): number[] {
  const offsets: number[] = [0];
  for (let i = 0; i < snipers; i++) offsets.push(rng.int(1, 25));
  while (offsets.length < count) {
    const offset = rng.chance(0.25) ? 30 - Math.log(1 - rng.next()) * 7200 : rng.range(30, ageSecs);
    offsets.push(Math.min(ageSecs - 1, Math.floor(offset)));
  }
  return offsets.sort((a, b) => a - b);
}

/** Launch: the deployer buys its share in the first pool (`buy`, with the lamports it pays). */
function launch(book: TokenBook, profile: TokenProfile, createdAt: number, buy: (lamports: number) => void): void {
  book.ensureMaker(profile.deployer, createdAt);
  const first = book.pools[0];
  if (!first) return;
  const wanted = Math.floor(profile.totalSupply * profile.devBuyShare);
  buy(Math.floor((first.quote * wanted) / Math.max(1, first.base - wanted) / (1 - 0.0025)));
}

export function generateHistory(profile: TokenProfile, context: HistoryContext): TokenBook {
  const rng = new Prng(mixSeed(context.seed, 3, profile.index));
  const createdAt = context.anchor - profile.ageSecs;
  const book = new TokenBook(profile, createdAt, context.solUsd);
  const shape = shapeOf(profile, rng);
  const tradeCount = Math.round(shape.holders * shape.tradesPerHolder);
  const snipers = rng.int(4, 14);
  const offsets = tradeOffsets(rng, tradeCount, snipers, profile.ageSecs);

  // Which trades bring a new wallet in: the dev's, the snipers', then spread over the history.
  const newWalletAt = new Set<number>(Array.from({ length: snipers + 1 }, (_, i) => i));
  const later = rng.shuffled(Array.from({ length: tradeCount - snipers - 1 }, (_, i) => i + snipers + 1));
  for (const index of later.slice(0, Math.max(0, shape.holders - snipers - 1))) newWalletAt.add(index);

  const participants: string[] = [];
  const busy: string[] = [];
  const sizeFactor = new Map<string, number>();
  const sharedPool = rng.shuffled(context.sharedWallets);
  const sharedShare = rng.range(0.05, 0.15);

  const introduce = (t: number): string => {
    const shared = rng.chance(sharedShare) ? sharedPool.pop() : undefined;
    const wallet = shared?.address ?? rng.address();
    const bot = shared ? shared.bot : rng.chance(0.04);
    book.ensureMaker(wallet, t, bot);
    participants.push(wallet);
    if (bot || shared) busy.push(wallet);
    sizeFactor.set(wallet, shared ? shared.sizeFactor : rng.chance(0.04) ? rng.range(6, 15) : rng.range(0.5, 1.5));
    return wallet;
  };

  const buyLamports = (wallet: string, usdMin: number, usdMax: number): number => {
    const usd = rng.logRange(usdMin, usdMax) * (sizeFactor.get(wallet) ?? 1);
    const lamports = Math.floor((usd / context.solUsd) * LAMPORTS_PER_SOL);
    // Keep single trades from moving the market more than a few percent.
    const liquidity = book.mainPool()?.quote ?? lamports;
    return Math.max(1000, Math.min(lamports, Math.floor(liquidity * 0.04)));
  };

  const trade = (wallet: string, side: Side, amountIn: number, t: number) =>
    book.trade({
      wallet,
      side,
      amountIn,
      t,
      txIndex: rng.int(0, 1800),
      logIndex: rng.int(0, 7),
      nativeBalance: context.nativeBalanceOf(wallet),
    });

  const dev = profile.deployer;
  launch(book, profile, createdAt, (lamports) => trade(dev, 'buy', lamports, createdAt));
  participants.push(dev);
  sizeFactor.set(dev, 1);
  const insiders = rng.int(0, 3);
  const rugAt = profile.scenario === 'rug' ? Math.floor(profile.ageSecs * rng.range(0.55, 0.9)) : Infinity;
  const devPartialSellAt = profile.scenario === 'dump' ? Math.floor(profile.ageSecs * rng.range(0.3, 0.7)) : Infinity;
  let insidersDone = insiders === 0;
  let rugged = false;
  let devSoldPartly = false;

  for (let i = 1; i < offsets.length; i++) {
    const offset = offsets[i] ?? 0;
    const t = createdAt + offset;
    if (!insidersDone && offset > 60) {
      insidersDone = true;
      for (let k = 0; k < insiders; k++) {
        const insider = introduce(t);
        book.transfer(dev, insider, book.holdingOf(dev) * rng.range(0.1, 0.25), t);
      }
    }
    if (!rugged && offset >= rugAt) {
      rugged = true;
      trade(dev, 'sell', book.holdingOf(dev), t);
    }
    if (!devSoldPartly && offset >= devPartialSellAt) {
      devSoldPartly = true;
      trade(dev, 'sell', Math.floor(book.holdingOf(dev) * rng.range(0.3, 0.8)), t);
    }
    if (newWalletAt.has(i)) {
      const wallet = introduce(t);
      const sniper = i <= snipers;
      trade(wallet, 'buy', buyLamports(wallet, sniper ? 200 : shape.minUsd, sniper ? 3000 : shape.maxUsd), t);
      continue;
    }
    let wallet = rng.chance(0.3) && busy.length > 0 ? rng.pick(busy) : rng.pick(participants);
    for (let tries = 0; tries < 3 && book.holdingOf(wallet) === 0 && !rng.chance(0.3); tries++) wallet = rng.pick(participants);
    if (wallet === dev && profile.scenario !== 'steady') wallet = rng.pick(participants);
    const holding = book.holdingOf(wallet);
    const sells = holding > 0 && rng.chance(sellProbability(profile, offset / profile.ageSecs, rugged));
    if (sells) {
      const fraction = rng.pick([0.2, 0.33, 0.5, 1, 1]);
      trade(wallet, 'sell', Math.max(1, Math.floor(holding * fraction)), t);
    } else {
      trade(wallet, 'buy', buyLamports(wallet, shape.minUsd, shape.maxUsd), t);
    }
  }
  return book;
}
