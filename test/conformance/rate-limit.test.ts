/**
 * Spec §8: 100 requests per minute per key on token-technicals, and 429 with Retry-After beyond.
 * Its own file and its own simulator: the burst exhausts the key it uses, which the other files share.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, Problems, show } from './support/checks';
import { readRateLimitHeaders } from './support/rate-limit';
import { conformanceTarget, titleFor, useConformance, type Reply } from './support/server';

const PATH = '/api/token-technicals';
const LIMIT = 100;
/** Fired in small waves so the server sees them in order without a slow one-by-one loop. */
const WAVE = 10;
/** A fixed window may start anew mid-burst, granting at most one more window's worth. */
const MAX_REQUESTS = 2 * LIMIT + WAVE;

const base = conformanceTarget();
// Against another server the burst spends the key's quota that the other files share: opt in.
const target =
  base.mode === 'external' && process.env.CONFORMANCE_RATE_LIMIT !== '1'
    ? ({ mode: 'skip', reason: 'set CONFORMANCE_RATE_LIMIT=1 and run this file alone to burst an external server' } as const)
    : base;

describe.skipIf(target.mode === 'skip')(titleFor('conformance: rate limit (§8)', target), () => {
  const ctx = useConformance(target, { ownSimulator: true });

  it(`answers the first ${LIMIT} token-technicals requests of a minute, then 429 with Retry-After`, async () => {
    const c = ctx();
    const address = c.tokens[0]!.address;
    const replies: Reply[] = [];
    let limited: Reply | undefined;
    // A window that starts anew shows as Remaining going up from one wave to a later one.
    let lowestRemaining = Number.POSITIVE_INFINITY;
    let windowRestarted = false;
    while (!limited && replies.length < MAX_REQUESTS) {
      const wave = await Promise.all(Array.from({ length: WAVE }, () => c.get(PATH, { address })));
      const remaining = wave.map((reply) => readRateLimitHeaders(reply.headers).remaining).filter(Number.isFinite);
      if (remaining.length === 0) windowRestarted = true;
      else {
        if (Math.max(...remaining) > lowestRemaining) windowRestarted = true;
        lowestRemaining = Math.min(lowestRemaining, ...remaining);
      }
      replies.push(...wave);
      limited = replies.find((reply) => reply.status === 429);
    }

    const firstHundred = replies.slice(0, LIMIT);
    const refused = firstHundred.flatMap((reply, i) => (reply.status === 200 ? [] : [`#${i + 1}: ${reply.status}`]));
    expect(refused, `the first ${LIMIT} requests on a fresh key should all be answered`).toEqual([]);
    expect(limited, `${replies.length} requests within ${MAX_REQUESTS} brought no 429`).toBeDefined();
    const answered = replies.filter((reply) => reply.status === 200).length;
    if (windowRestarted) {
      // Without headers to tell, or across a window boundary: at most two windows' worth.
      expect(answered, `answered requests before the 429 (at most two ${LIMIT}-request windows)`).toBeLessThanOrEqual(2 * LIMIT);
    } else {
      expect(answered, `answered requests within one window before the 429`).toBe(LIMIT);
    }

    const reply = limited!;
    const problems = new Problems(`${reply.request} → 429`);
    const retryAfter = reply.headers.get('retry-after');
    if (problems.check(retryAfter !== null, 'no Retry-After header')) {
      const seconds = /^\d+$/.test(retryAfter!) ? Number(retryAfter) : (Date.parse(retryAfter!) - Date.now()) / 1000;
      problems.check(
        Number.isFinite(seconds) && seconds >= 0 && seconds <= 61,
        `Retry-After ${show(retryAfter)}: expected delay-seconds (or an HTTP date) within the one-minute window`,
      );
    }
    problems.check(reply.body !== null && typeof reply.body === 'object', `body: expected a JSON object, got ${show(reply.body)}`);
    problems.check(!reply.text.includes(c.apiKey), 'body repeats the API key');
    const headers = readRateLimitHeaders(reply.headers);
    if (headers.prefix !== null)
      problems.check(headers.remaining === 0, `${headers.prefix}remaining on a 429: expected 0, got ${headers.remaining}`);
    problems.assertNone();
  });

  it('counts down X-RateLimit-Remaining and keeps refusing within the window', async () => {
    const c = ctx();
    // The key is exhausted by the test above: the next request in the same minute is refused too.
    const reply = await c.get(PATH, { address: c.tokens[0]!.address });
    if (reply.status === 200) {
      // A new window may just have begun; then the headers must say so.
      const headers = readRateLimitHeaders(reply.headers);
      expect(headers.problems, `${reply.request}: rate-limit headers`).toEqual([]);
      expect(headers.remaining, `${reply.request}: a fresh window after a burst`).toBe(LIMIT - 1);
    } else {
      expectStatus(reply, 429);
      expect(reply.headers.get('retry-after'), `${reply.request} → 429 without Retry-After`).not.toBeNull();
    }
  });
});
