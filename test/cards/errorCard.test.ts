import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import { cardForError, waitText } from '../../src/cards/errorCard';
import { defineCommand } from '../../src/dispatch/command';
import { UsageError } from '../../src/dispatch/parseArgs';
import { registerSecret } from '../../src/log';
import { MarketError, type MarketErrorKind } from '../../src/market/errors';

function textOf(card: Card): string {
  return [
    card.title,
    plainText(card.description ?? []),
    ...card.fields.flatMap((f) => [f.name, plainText(f.value)]),
    card.footer ?? '',
  ].join('\n');
}

const chart = defineCommand({
  name: 'chart',
  description: 'Chart',
  help: 'Example: /chart So11111111111111111111111111111111111111112',
  options: [{ name: 'token', type: 'address', description: 'Token address', required: true }],
  run: () => Promise.resolve({ title: '', color: 'info', fields: [], actions: [] }),
});

describe('cardForError with market errors', () => {
  const cases: Array<[MarketErrorKind, string, RegExp]> = [
    ['invalid-address', 'Not an address', /That is not a token address\..*32–44/],
    ['missing-parameter', 'Something is missing', /Give a token address\./],
    ['invalid-parameter', 'Invalid option', /must be a whole number/],
    ['not-found', 'Not found', /No token was found at that address\./],
    ['unreachable', 'Service unreachable', /cannot be reached right now/],
    ['timeout', 'Service too slow', /took too long/],
    ['upstream', 'Service error', /failed to answer/],
    ['unreadable', 'Unreadable answer', /could not read/],
    ['unauthorized', 'API key refused', /operator must check TMDS_API_KEY/],
  ];
  const userMessages: Partial<Record<MarketErrorKind, string>> = {
    'invalid-address': 'That is not a token address.',
    'missing-parameter': 'Give a token address.',
    'invalid-parameter': 'The chart option intervalSecs must be a whole number of at least 1.',
  };

  it.each(cases)('%s reads as "%s"', (kind, title, body) => {
    const card = cardForError(new MarketError({ kind, endpoint: 'token-data', userMessage: userMessages[kind] }));
    expect(card.title).toBe(title);
    expect(card.color).toBe('error');
    expect(textOf(card)).toMatch(body);
    expect(textOf(card)).not.toMatch(/token-data|HTTP|stack|at .*\.ts/);
  });

  it('tells how long to wait when the service is busy', () => {
    const busy = (retryAfterMs: number | null) =>
      textOf(cardForError(new MarketError({ kind: 'rate-limited', endpoint: 'token-technicals', retryAfterMs })));
    expect(busy(12_000)).toContain('try again in 12 s.');
    expect(busy(1_200)).toContain('try again in 2 s.');
    expect(busy(150_000)).toContain('try again in 3 min.');
    expect(busy(null)).toContain('try again in a moment.');
    expect(cardForError(new MarketError({ kind: 'rate-limited', endpoint: null })).title).toBe('Service busy');
  });

  it('rounds waits up', () => {
    expect(waitText(0)).toBe('1 s');
    expect(waitText(59_001)).toBe('60 s');
    expect(waitText(119_000)).toBe('119 s');
    expect(waitText(120_000)).toBe('2 min');
  });

  it('never shows the API key, even when the service echoed it', () => {
    const key = 'tmds-secret-key-7f3a9c';
    registerSecret(key);
    const error = new MarketError({
      kind: 'unauthorized',
      endpoint: 'token-data',
      status: 401,
      message: `invalid key ${key}`,
      details: { body: `{"error":"bad key ${key}"}` },
    });
    const card = cardForError(error);
    expect(JSON.stringify(card)).not.toContain(key);
    expect(textOf(card)).toContain('TMDS_API_KEY');
  });

  it('adds a hint', () => {
    const card = cardForError(new MarketError({ kind: 'timeout', endpoint: 'chart-history' }), {
      hint: 'Charts of a long range take longer.',
    });
    expect(plainText(card.description ?? [])).toMatch(/took too long[\s\S]*Charts of a long range take longer\./);
  });
});

describe('cardForError with usage errors', () => {
  it('names the command and the problem in the title, what to do below it, and the usage once', () => {
    const card = cardForError(new UsageError('token is missing', chart, 'Paste the token’s address.'));
    expect(card.title).toBe('/chart: token is missing');
    expect(card.color).toBe('error');
    expect(plainText(card.description ?? [])).toBe('Paste the token’s address.\nType /help chart for its options and an example.');
    expect(card.footer).toBeUndefined();
    expect(card.fields.map((f) => [f.name, plainText(f.value)])).toEqual([['Usage', '/chart <token>']]);
    expect(card.actions).toEqual([{ label: 'Help', command: 'help', args: ['chart'] }]);
  });

  it('explains an unknown command', () => {
    const card = cardForError(new UsageError('Unknown command "/chrt"', null, 'Try /help.'));
    expect(card.title).toBe('Unknown command "/chrt"');
    expect(plainText(card.description ?? [])).toBe('Try /help.');
    expect(card.fields).toEqual([]);
  });
});

describe('cardForError with anything else', () => {
  const leaks = [
    new Error('ENOENT: no such file or directory, open /home/bot/.env'),
    new TypeError("Cannot read properties of undefined (reading 'apiKey') at /srv/tokenwatch/src/main.ts:12:3"),
    Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'), { stack: 'Error\n    at secret (/srv/x.ts:1:1)' }),
    'a thrown string with /etc/passwd',
    { message: 'an object with TMDS_API_KEY=abc' },
    undefined,
    null,
  ];

  it.each(leaks.map((error) => [error]))('says only that something went wrong (%#)', (error) => {
    const card = cardForError(error);
    expect(card.title).toBe('Something went wrong');
    expect(card.color).toBe('error');
    const json = JSON.stringify(card);
    for (const secret of ['ENOENT', '/home', '/srv', '/etc', 'hunter2', 'ECONNREFUSED', 'apiKey', 'TMDS_API_KEY', 'stack', '.ts']) {
      expect(json).not.toContain(secret);
    }
  });

  it('lets a hint replace the generic advice', () => {
    const card = cardForError(new Error('"hello" is not a command'), { hint: 'Commands start with /. Try /help.' });
    const description = plainText(card.description ?? []);
    expect(description).toContain('Commands start with /. Try /help.');
    expect(description).not.toContain('hello');
    expect(description).not.toContain('operator');
  });
});
