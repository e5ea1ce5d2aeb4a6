/**
 * Which market a store belongs to. Last-seen prices, risk statuses and holders are only worth
 * comparing with the market that produced them: the built-in simulator's tokens read against a
 * real service's (or another seed's) make false status changes and fake dips. So a store records
 * the market of its first start, and a start on another one is refused in one line that says what
 * to do: another store, or STORE_MARKET_RESET=1 once, which forgets what belonged to the old
 * market (last-seen state, alerts not yet sent) and keeps what the people set (follows, settings).
 *
 * The market is named without credentials: the service's address as redactUrl shows it, or the
 * simulator and its seed. Both stores run `decideMarket` inside their migration's transaction.
 */
import { redactUrl } from '../urlCredentials';

/** The setting that lets a start move a store to another market. */
export const MARKET_RESET_VARIABLE = 'STORE_MARKET_RESET';

/** What a start asks of the store's market. */
export interface StoreMarket {
  /** The market's name as recorded: `simulator seed 42`, or the service's address. */
  id: string;
  /** STORE_MARKET_RESET: another recorded market is forgotten instead of refused. */
  reset: boolean;
}

/** The market a start runs on: the service's address (never its credentials), or the built-in simulator and its seed. */
export function marketOf(settings: { market: { baseUrl: string } | null; simulatorSeed: number; storeMarketReset: boolean }): StoreMarket {
  const id = settings.market === null ? `simulator seed ${settings.simulatorSeed}` : redactUrl(settings.market.baseUrl);
  return { id, reset: settings.storeMarketReset };
}

/** What opening did about the market: first recorded, the same as before, or moved by a reset. */
export type MarketOutcome = { kind: 'recorded' | 'same'; market: string } | { kind: 'reset'; market: string; from: string };

/** A start on another market than the store's, without the reset: the detail of the one line to print. */
export class OtherMarketError extends Error {
  constructor(
    readonly recorded: string,
    readonly wanted: string,
    setting: 'DATABASE_PATH' | 'DATABASE_URL',
  ) {
    const elsewhere = setting === 'DATABASE_PATH' ? 'set DATABASE_PATH to another file' : 'set DATABASE_URL to another database';
    super(
      `it belongs to the market ${recorded}, not ${wanted}; ${elsewhere}, ` +
        `or start once with ${MARKET_RESET_VARIABLE}=1 to forget its last-seen prices and unsent alerts (follows and settings stay)`,
    );
    this.name = 'OtherMarketError';
  }
}

/** What to do with the recorded market (null: none yet); throws OtherMarketError for another one without the reset. */
export function decideMarket(
  recorded: string | null,
  wanted: StoreMarket,
  setting: 'DATABASE_PATH' | 'DATABASE_URL',
): 'record' | 'same' | 'reset' {
  if (recorded === null) return 'record';
  if (recorded === wanted.id) return 'same';
  if (!wanted.reset) throw new OtherMarketError(recorded, wanted.id, setting);
  return 'reset';
}

/**
 * The statements a reset runs, in order: what the old market produced goes (last-seen state, and
 * alerts not yet delivered, which describe it), while the delivered ones stay as the record of what
 * was sent. Plain SQL both stores read the same.
 */
export const MARKET_RESET_STATEMENTS: readonly string[] = [
  'DELETE FROM token_state',
  'DELETE FROM wallet_state',
  'DELETE FROM outbox WHERE delivered_at IS NULL',
  'DELETE FROM events WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = events.id)',
];

/** One line for what opening did about the market: the first record and a reset are worth knowing, the same market is not. */
export function logMarketOutcome(
  logger: { info(o: object, m: string): void; warn(o: object, m: string): void } | undefined,
  outcome: MarketOutcome | null,
  store: string,
): void {
  if (logger === undefined || outcome === null) return;
  if (outcome.kind === 'reset')
    logger.warn(
      { store, market: outcome.market, previous: outcome.from },
      `store moved to another market (${MARKET_RESET_VARIABLE}): last-seen state and unsent alerts forgotten; follows and settings kept`,
    );
  else if (outcome.kind === 'recorded') logger.info({ store, market: outcome.market }, 'store records the market it runs on');
}
