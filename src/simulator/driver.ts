/**
 * Makes the market move by itself: at a steady rate, a shared wallet buys or sells a random token
 * for a random amount. Its choices come from their own seeded generator, so the static market
 * stays the same for a seed whatever the driver does.
 */
import { Market, MarketError } from './market';
import { Prng } from './random';

/** Ticks at most this often; higher rates make several trades per tick. */
const MIN_TICK_MS = 20;

export class MarketDriver {
  private timer: NodeJS.Timeout | null = null;
  private owed = 0;
  private readonly rng: Prng;

  constructor(
    private readonly market: Market,
    private readonly tradesPerSecond: number,
    seed: number,
  ) {
    this.rng = new Prng(seed);
  }

  start(): void {
    if (this.timer || !(this.tradesPerSecond > 0)) return;
    const tickMs = Math.max(MIN_TICK_MS, 1000 / this.tradesPerSecond);
    this.timer = setInterval(() => {
      this.owed += (this.tradesPerSecond * tickMs) / 1000;
      for (; this.owed >= 1; this.owed--) {
        try {
          this.tradeOnce();
        } catch (error) {
          // A bug in one simulated trade must not take the simulator down.
          process.emitWarning(`simulated trade failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }, tickMs);
    // A moving market alone must not keep the process alive.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  tradeOnce(): void {
    const tokenAddress = this.rng.pick(this.market.tokenAddresses());
    const wallet = this.rng.pick(this.market.wallets());
    const amountUSD = Math.round(this.rng.logRange(10, 2000) * 100) / 100;
    const side = this.rng.chance(0.5) ? 'sell' : 'buy';
    try {
      this.market.executeTrade({ wallet, tokenAddress, side, amountUSD });
    } catch (error) {
      if (!(error instanceof MarketError)) throw error;
      // A wallet with nothing to sell buys instead; a trade no pool can fill is skipped.
      if (error.code === 'nothing-to-sell') {
        try {
          this.market.executeTrade({ wallet, tokenAddress, side: 'buy', amountUSD });
        } catch (retry) {
          if (!(retry instanceof MarketError)) throw retry;
        }
      }
    }
  }
}
