import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/log';
import {
  MarketError,
  defaultUserMessage,
  excerpt,
  formatWait,
  isMarketError,
  withDetails,
  type MarketErrorKind,
} from '../../src/market/errors';

const KEY = 'errors-test-key-7d1f0c9a';
registerSecret(KEY);

const KINDS: MarketErrorKind[] = [
  'missing-parameter',
  'invalid-address',
  'invalid-parameter',
  'not-found',
  'unauthorized',
  'rate-limited',
  'upstream',
  'timeout',
  'unreachable',
  'unreadable',
];

describe('MarketError', () => {
  it.each(KINDS)('has a short sentence for a person for %s', (kind) => {
    const error = new MarketError({ kind, endpoint: 'token-data' });
    expect(error.userMessage).toMatch(/^[A-Z].{10,120}\.$/);
    expect(error.message).toBe(`token-data: ${error.userMessage}`);
    expect(isMarketError(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
  });

  it('tells how long to wait when rate limited', () => {
    expect(defaultUserMessage('rate-limited', 11_200)).toBe('The market data service is busy; try again in 12 s.');
    expect(defaultUserMessage('rate-limited', null)).toBe('The market data service is busy; try again in a moment.');
    expect(formatWait(1)).toBe('1 s');
    expect(formatWait(150_000)).toBe('3 min');
  });

  it('scrubs a registered secret from the message, the user message and the details', () => {
    const error = new MarketError({
      kind: 'upstream',
      endpoint: 'token-technicals',
      message: `echo ${KEY}`,
      userMessage: `oops ${KEY}`,
      details: { body: `{"key":"${KEY}"}`, nested: { list: [KEY], amount: 10n } },
    });
    expect(error.message).not.toContain(KEY);
    expect(error.userMessage).not.toContain(KEY);
    expect(JSON.stringify(error.details)).not.toContain(KEY);
    expect(error.details).toMatchObject({ endpoint: 'token-technicals', kind: 'upstream', nested: { amount: '10' } });
  });

  it("scrubs a registered secret from its cause and the cause's own causes", () => {
    const inner = Object.assign(new Error(`socket said ${KEY}`), { code: 'ECONNRESET' });
    const error = withDetails(
      new MarketError({ kind: 'unreachable', endpoint: 'token-data', cause: new Error(`request with ${KEY} failed`, { cause: inner }) }),
      { attempts: 2 },
    );
    expect(inspect(error, { depth: 8 })).not.toContain(KEY);
    expect(error.cause).toBeInstanceOf(Error);
    const cause = error.cause as Error;
    expect(cause.message).toBe('request with [redacted] failed');
    expect(String(cause.stack)).not.toContain(KEY);
    expect(cause.cause).toMatchObject({ message: 'socket said [redacted]', code: 'ECONNRESET' });
    expect(new MarketError({ kind: 'unreachable', endpoint: null, cause: `text ${KEY}` }).cause).toBe('text [redacted]');
  });

  it('keeps a cause without secrets as it is', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(new MarketError({ kind: 'unreachable', endpoint: 'token-data', cause }).cause).toBe(cause);
  });

  it('tells how long to wait when the service named a time to come back', () => {
    expect(defaultUserMessage('upstream', 90_000)).toBe('The market data service failed to answer; try again in 90 s.');
    expect(defaultUserMessage('upstream', null)).toBe('The market data service failed to answer; try again in a moment.');
  });

  it('keeps its fields when details are added', () => {
    const error = new MarketError({
      kind: 'rate-limited',
      endpoint: 'token-technicals',
      status: 429,
      retryAfterMs: 3000,
      message: 'HTTP 429',
    });
    const more = withDetails(error, { attempts: 4 });
    expect(more).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      retryAfterMs: 3000,
      message: 'token-technicals: HTTP 429',
      userMessage: error.userMessage,
    });
    expect(more.details.attempts).toBe(4);
  });

  it('cuts long body excerpts', () => {
    expect(excerpt('x'.repeat(1000)).length).toBeLessThan(310);
    expect(excerpt(`a ${KEY} b`)).toBe('a [redacted] b');
  });

  it('is not confused with other errors', () => {
    expect(isMarketError(new Error('x'))).toBe(false);
    expect(isMarketError({ kind: 'timeout' })).toBe(false);
  });
});
