/**
 * §8 says rate-limit headers exist on token-technicals but not their names. Accepted: the
 * X-RateLimit-* family (the design guide's choice) and the RateLimit-* family of the IETF draft.
 */

export interface RateLimitHeaders {
  prefix: 'x-ratelimit-' | 'ratelimit-' | null;
  limit: number;
  remaining: number;
  /** As sent: seconds until the window resets, or the Unix second it resets at. */
  reset: number;
  problems: string[];
}

const WINDOW_SECONDS = 60;

/** Leading integer of a header value: `100`, or `100;w=60` from the draft's policy form. */
function leadingInteger(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\s*(\d+)/.exec(value);
  return match?.[1] === undefined ? null : Number(match[1]);
}

export function readRateLimitHeaders(headers: Headers, nowSeconds = Date.now() / 1000): RateLimitHeaders {
  const prefix = headers.has('x-ratelimit-limit') ? 'x-ratelimit-' : headers.has('ratelimit-limit') ? 'ratelimit-' : null;
  const problems: string[] = [];
  if (prefix === null) {
    const seen = [...headers.keys()].join(', ');
    return {
      prefix,
      limit: Number.NaN,
      remaining: Number.NaN,
      reset: Number.NaN,
      problems: [`no X-RateLimit-Limit or RateLimit-Limit header; headers were: ${seen}`],
    };
  }
  const read = (name: string): number => {
    const raw = headers.get(`${prefix}${name}`);
    const value = leadingInteger(raw);
    if (value === null)
      problems.push(`${prefix}${name}: expected a non-negative integer, got ${raw === null ? 'no header' : JSON.stringify(raw)}`);
    return value ?? Number.NaN;
  };
  const limit = read('limit');
  const remaining = read('remaining');
  const reset = read('reset');
  if (Number.isFinite(limit) && Number.isFinite(remaining) && remaining > limit) {
    problems.push(`${prefix}remaining ${remaining} exceeds ${prefix}limit ${limit}`);
  }
  if (Number.isFinite(reset)) {
    // Large values are a Unix time; small ones a delay. Either must fall within one window from now.
    const delay = reset > 1e9 ? reset - nowSeconds : reset;
    if (delay < -2 || delay > WINDOW_SECONDS + 2) {
      problems.push(`${prefix}reset ${reset}: expected the window to reset within ${WINDOW_SECONDS} s (as a delay or a Unix time)`);
    }
  }
  return { prefix, limit, remaining, reset, problems };
}
