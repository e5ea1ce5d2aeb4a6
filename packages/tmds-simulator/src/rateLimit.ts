/**
 * The service's limit on token-technicals (spec §8: 100 requests per minute per API key) as a
 * fixed window per key: the first request opens a window of windowMs; at most `limit` requests
 * are served in it; the next request after it opens a new window.
 */

export interface RateLimitConfig {
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAtMs: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly clock: () => number,
  ) {}

  take(key: string): RateDecision {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.config.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.count < this.config.limit;
    if (allowed) window.count++;
    return {
      allowed,
      limit: this.config.limit,
      remaining: Math.max(0, this.config.limit - window.count),
      resetAtMs: window.start + this.config.windowMs,
    };
  }

  /** Headers every token-technicals answer carries. */
  static headers(decision: RateDecision, now: number): Record<string, string> {
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(Math.ceil(decision.resetAtMs / 1000)),
    };
    if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((decision.resetAtMs - now) / 1000)));
    return headers;
  }
}
