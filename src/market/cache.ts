/**
 * A short-lived response cache with in-flight coalescing, for one endpoint, on lru-cache's own
 * `fetch`: a key is looked up among the fresh entries; failing that, a caller joins the identical
 * load already on its way; failing that, it starts one. Only successes are stored: an error
 * reaches the callers that shared it and is then forgotten, so the next call tries again.
 *
 * The cache is bounded in bytes as well as entries: each value's size is estimated once, when it
 * is stored (approxBytes), the least recently used entries go when the budget is full, a value
 * larger than the whole budget is handed to its callers but never stored, and expired entries are
 * dropped on their own timer rather than kept until pushed out.
 *
 * Values are shared between callers and must be treated as read-only.
 */
import { LRUCache } from 'lru-cache';

export type CacheSource = 'cache' | 'coalesced' | 'upstream';

export interface CacheOptions {
  /** 0 stores nothing (identical concurrent calls are still coalesced). */
  ttlMs: number;
  maxEntries: number;
  /** The most the stored values may take, by approxBytes; default 8 MiB. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

type Load<V> = () => Promise<V>;

export class ResponseCache<V extends {}> {
  private readonly lru: LRUCache<string, V, Load<V>>;
  private readonly stores: boolean;

  constructor(options: CacheOptions) {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.stores = options.ttlMs > 0;
    this.lru = new LRUCache<string, V, Load<V>>({
      max: options.maxEntries,
      maxSize: maxBytes,
      // With a TTL of 0, every value counts as too large to keep: its callers get it, the cache does not.
      sizeCalculation: (value) => (this.stores ? Math.max(1, approxBytes(value)) : maxBytes + 1),
      ...(this.stores ? { ttl: options.ttlMs, ttlAutopurge: true } : {}),
      // A load still on its way when the budget pushes its placeholder out answers its callers all the same.
      ignoreFetchAbort: true,
      // The load starts on the next microtask, so a load that throws at once still settles through the fetch.
      fetchMethod: (_key, _stale, { context }) => Promise.resolve().then(context),
    });
  }

  /** Loads on their way when nothing is stored (TTL 0), by key: identical concurrent calls still share one. */
  private readonly inflight = new Map<string, Promise<V>>();

  /** The value for `key`, and where it came from. */
  get(key: string, load: Load<V>): Promise<{ value: V; source: CacheSource }> {
    // With nothing to store, the LRU's fetch (its placeholders, abort controllers and size
    // calculation) is all cost: a map of the loads on their way does the coalescing alone.
    if (!this.stores) return this.coalesce(key, load);
    const status: LRUCache.Status<string, V, Load<V>> = {};
    // The load itself is the fetch's context: no function made per call.
    return this.lru.fetch(key, { context: load, status }).then((value) => {
      if (value === undefined) throw new Error('the cache load gave no value');
      const source: CacheSource = status.fetch === 'hit' ? 'cache' : status.fetch === 'inflight' ? 'coalesced' : 'upstream';
      return { value, source };
    });
  }

  private coalesce(key: string, load: Load<V>): Promise<{ value: V; source: CacheSource }> {
    const running = this.inflight.get(key);
    if (running !== undefined) return running.then((value) => ({ value, source: 'coalesced' }));
    // The load starts on the next microtask, as through the LRU, so one that throws at once still settles here.
    const started = Promise.resolve().then(load);
    this.inflight.set(key, started);
    // Promise handlers rather than an async function (here and in get): this runs on every look-up.
    return started.then(
      (value) => {
        this.settled(key, started);
        if (value === undefined) throw new Error('the cache load gave no value');
        return { value, source: 'upstream' };
      },
      (error: unknown) => {
        this.settled(key, started);
        throw error;
      },
    );
  }

  private settled(key: string, load: Promise<V>): void {
    if (this.inflight.get(key) === load) this.inflight.delete(key);
  }

  /** Whether a fresh value is stored for `key`. */
  has(key: string): boolean {
    return this.lru.has(key);
  }

  /** Bytes the stored values take, by approxBytes. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  clear(): void {
    this.lru.clear();
  }
}

/** Objects nested deeper than this are counted at a flat rate rather than walked. */
const MAX_DEPTH = 32;

/**
 * A rough estimate of the heap a parsed answer takes (V8 on 64 bits), enough to keep a cache
 * within a budget: strings at two bytes a character, numbers and references at eight, objects and
 * arrays with their headers, bigints by their digits.
 */
export function approxBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return 16 + value.length * 2;
    case 'number':
    case 'boolean':
    case 'undefined':
      return 8;
    case 'bigint':
      // Amounts are at most 80 digits (wire.ts), about 34 bytes of magnitude.
      return 56;
    case 'object': {
      if (value === null) return 8;
      if (depth >= MAX_DEPTH) return 64;
      if (value instanceof Date) return 48;
      if (value instanceof Map) {
        let total = 64;
        for (const [key, item] of value) total += 16 + approxBytes(key, depth + 1) + approxBytes(item, depth + 1);
        return total;
      }
      if (Array.isArray(value)) {
        let total = 32;
        for (const item of value) total += 8 + approxBytes(item, depth + 1);
        return total;
      }
      // Property names are shared by every object of a shape; only the slots count.
      let total = 32;
      const record = value as Record<string, unknown>;
      for (const key in record) total += 8 + approxBytes(record[key], depth + 1);
      return total;
    }
    default:
      return 8;
  }
}
