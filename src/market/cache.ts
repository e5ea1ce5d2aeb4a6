/**
 * A short-lived response cache with in-flight coalescing, for one endpoint. A key is looked up
 * in a bounded LRU with a TTL; failing that, a caller joins the identical request already on its
 * way; failing that, it starts one. Only successes are stored: an error reaches the callers that
 * shared it and is then forgotten, so the next call tries again.
 *
 * Values are shared between callers and must be treated as read-only.
 */
import { LRUCache } from 'lru-cache';

export type CacheSource = 'cache' | 'coalesced' | 'upstream';

export interface CacheOptions {
  /** 0 stores nothing (identical concurrent calls are still coalesced). */
  ttlMs: number;
  maxEntries: number;
}

export class ResponseCache<V extends {}> {
  private readonly stored: LRUCache<string, V> | null;
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(options: CacheOptions) {
    this.stored = options.ttlMs > 0 ? new LRUCache<string, V>({ max: options.maxEntries, ttl: options.ttlMs }) : null;
  }

  /** The value for `key`, and where it came from. */
  async get(key: string, load: () => Promise<V>): Promise<{ value: V; source: CacheSource }> {
    const cached = this.stored?.get(key);
    if (cached !== undefined) return { value: cached, source: 'cache' };
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return { value: await pending, source: 'coalesced' };
    const started = this.start(key, load);
    return { value: await started, source: 'upstream' };
  }

  /** Whether a fresh value is stored for `key`. */
  has(key: string): boolean {
    return this.stored?.has(key) ?? false;
  }

  clear(): void {
    this.stored?.clear();
  }

  private start(key: string, load: () => Promise<V>): Promise<V> {
    // The load starts on the next microtask, so the entry is registered before it can settle.
    const promise = Promise.resolve()
      .then(load)
      .then((value) => {
        this.stored?.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
      });
    this.inFlight.set(key, promise);
    return promise;
  }
}
