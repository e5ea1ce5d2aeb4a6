/**
 * Merges single-token look-ups made within one tick into one token-data request
 * (`addresses=a,b,c`, at most `maxBatchSize` addresses each), then answers each look-up on its
 * own: an address missing from the answer is not-found, a token that fails its schema is
 * unreadable, and neither disturbs the others of the batch.
 */
import { addressKind } from './address';
import { MarketError } from './errors';
import { parseToken } from './readToken';
import type { Token } from './schemas';

/** One spelling per address: EVM hex is case-insensitive, base58 is not. */
export function normalizeAddress(address: string): string {
  return addressKind(address) === 'evm' ? address.toLowerCase() : address;
}

/** Fetches one batch: the raw `data` member of the token-data envelope. */
export type FetchTokenBatch = (addresses: string[]) => Promise<Record<string, unknown>>;

export interface TokenBatcherOptions {
  maxBatchSize: number;
  /** Called per batch sent, with the look-ups it served and the distinct addresses it asked for. */
  onBatch?: (lookups: number, addresses: number) => void;
}

interface Waiter {
  resolve: (token: Token) => void;
  reject: (error: unknown) => void;
}

/** Look-ups waiting for their batch to be sent. */
interface Batch {
  /** The look-ups waiting, by address: its size is the count of distinct addresses to ask for. */
  waiters: Map<string, Waiter[]>;
  /** Look-ups in all, repeats included. */
  lookups: number;
}

/** Promise jobs queued before a batch is sent run first, so look-ups made in them join it. */
const SETTLED = Promise.resolve();

/**
 * DataLoader's scheduling, which this batcher used: a batch goes out on the process tick after the
 * promise jobs already queued. Its general machinery (a cache, key functions, checks of the
 * batch's answer) served none of the look-ups here and ran on every one.
 */
function afterPromiseJobs(send: () => void): void {
  void SETTLED.then(() => process.nextTick(send));
}

export class TokenBatcher {
  private pending: Batch | null = null;

  constructor(
    private readonly fetchBatch: FetchTokenBatch,
    private readonly options: TokenBatcherOptions,
  ) {
    if (!(options.maxBatchSize >= 1)) throw new RangeError('maxBatchSize must be at least 1');
  }

  /** One token by address (already checked and normalized by the caller). */
  load(address: string): Promise<Token> {
    let batch = this.pending;
    if (batch === null || (batch.waiters.size >= this.options.maxBatchSize && !batch.waiters.has(address))) {
      const opened: Batch = { waiters: new Map(), lookups: 0 };
      this.pending = opened;
      afterPromiseJobs(() => void this.send(opened));
      batch = opened;
    }
    batch.lookups += 1;
    const waiters = batch.waiters;
    return new Promise<Token>((resolve, reject) => {
      const waiter = { resolve, reject };
      const waiting = waiters.get(address);
      if (waiting === undefined) waiters.set(address, [waiter]);
      else waiting.push(waiter);
    });
  }

  private async send(batch: Batch): Promise<void> {
    if (this.pending === batch) this.pending = null;
    const addresses = [...batch.waiters.keys()];
    this.options.onBatch?.(batch.lookups, addresses.length);
    try {
      const byAddress = indexByAddress(await this.fetchBatch(addresses));
      for (const [address, waiters] of batch.waiters) {
        const result = readToken(address, byAddress.get(address));
        for (const waiter of waiters) {
          if (result instanceof Error) waiter.reject(result);
          else waiter.resolve(result);
        }
      }
    } catch (error) {
      // Every look-up still waiting gets the failure (one already answered keeps its answer).
      for (const waiters of batch.waiters.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }
}

function indexByAddress(data: Record<string, unknown>): Map<string, unknown> {
  const index = new Map<string, unknown>();
  for (const [key, raw] of Object.entries(data)) {
    index.set(normalizeAddress(key), raw);
    // A service that keys its map differently still names each token's own address.
    if (raw !== null && typeof raw === 'object' && 'address' in raw && typeof raw.address === 'string') {
      const own = normalizeAddress(raw.address);
      if (!index.has(own)) index.set(own, raw);
    }
  }
  return index;
}

function readToken(address: string, raw: unknown): Token | Error {
  if (raw === undefined || raw === null) return notFound(address);
  // The hand-written reading first (a zod run over a token and its pools was the largest cost of
  // a /token after the network); what it does not take the schema judges, with zod's own reasons.
  const parsed = parseToken(raw);
  if (parsed.success) return parsed.data;
  return new MarketError({
    kind: 'unreadable',
    endpoint: 'token-data',
    status: 200,
    message: `the token ${address} does not match the schema`,
    details: {
      address,
      issues: parsed.error.issues.slice(0, 5).map((issue) => ({ path: issue.path.join('.'), message: issue.message.slice(0, 200) })),
    },
  });
}

function notFound(address: string): MarketError {
  return new MarketError({
    kind: 'not-found',
    endpoint: 'token-data',
    message: `no token ${address} in the answer`,
    details: { address },
  });
}
