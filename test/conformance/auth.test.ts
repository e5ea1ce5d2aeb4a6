/** Spec §5: the `x-api-key` header on every REST endpoint; the reply to a bad key follows the design guide. */
import { describe, expect, it } from 'vitest';
import { Problems, show } from './support/checks';
import { conformanceTarget, randomKey, titleFor, useConformance, type Conformance, type Params, type Reply } from './support/server';

const target = conformanceTarget();

/** One valid request per endpoint of §4.1–4.6. */
const ENDPOINTS: readonly [string, (c: Conformance) => Params][] = [
  ['/api/token-data', (c) => ({ address: c.tokens[0]!.address })],
  ['/api/token-technicals', (c) => ({ address: c.tokens[0]!.address })],
  ['/api/holders-history', (c) => ({ address: c.tokens[0]!.address })],
  ['/api/trades-history', (c) => ({ baseToken: c.tokens[0]!.address, wallets: c.wallets.slice(0, 3).join(',') })],
  ['/api/chart-history', (c) => ({ base: c.tokens[0]!.address })],
  ['/api/wallet-tracker', (c) => ({ wallets: c.wallets.slice(0, 3).join(',') })],
];

function expectNoKeyEchoed(reply: Reply, keys: readonly string[]): void {
  for (const key of keys) {
    expect(reply.text.includes(key), `${reply.request} → ${reply.status}: the body repeats an API key`).toBe(false);
  }
}

function expectUnauthorized(c: Conformance, reply: Reply): void {
  if (c.simulator) {
    expect(reply.status, `${reply.request} → ${reply.status} ${reply.text.slice(0, 200)}; expected 401 (design)`).toBe(401);
    const problems = new Problems(`${reply.request} → 401 body`);
    problems.fields(reply.body, { error: 'string', message: 'string' }, 'body');
    problems.assertNone();
  } else {
    expect([401, 403], `${reply.request} → ${reply.status} ${reply.text.slice(0, 200)}; expected 401 or 403`).toContain(reply.status);
  }
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: authentication (§5)', target), () => {
  const ctx = useConformance(target);

  it.each(ENDPOINTS)('%s answers with the key', async (path, params) => {
    const c = ctx();
    const reply = await c.get(path, params(c));
    expect(reply.status, `${reply.request} → ${reply.status} ${reply.text.slice(0, 200)}`).toBe(200);
    expectNoKeyEchoed(reply, [c.apiKey]);
  });

  it.each(ENDPOINTS)('%s refuses a request without the key', async (path, params) => {
    const c = ctx();
    const reply = await c.get(path, params(c), { key: null });
    expectUnauthorized(c, reply);
    expectNoKeyEchoed(reply, [c.apiKey]);
  });

  it.each(ENDPOINTS)('%s refuses a wrong key and does not echo it', async (path, params) => {
    const c = ctx();
    const wrong = randomKey();
    const reply = await c.get(path, params(c), { key: wrong });
    expectUnauthorized(c, reply);
    expectNoKeyEchoed(reply, [c.apiKey, wrong]);
  });

  it.each(ENDPOINTS)('%s refuses an empty key', async (path, params) => {
    const c = ctx();
    const reply = await c.get(path, params(c), { key: '' });
    expectUnauthorized(c, reply);
  });

  it.for(ENDPOINTS)('%s checks the key before the parameters (design: 401 for a missing key)', async ([path], { skip }) => {
    const c = ctx();
    if (!c.simulator) skip('design decision, enforced on the simulator only');
    const reply = await c.get(path, {}, { key: null });
    expectUnauthorized(c, reply);
  });

  it('refuses a key that only differs in case or by a suffix', async () => {
    const c = ctx();
    const [path, params] = ENDPOINTS[0]!;
    for (const key of [c.apiKey.toUpperCase(), `${c.apiKey}x`, c.apiKey.slice(0, -1)]) {
      if (key === c.apiKey) continue;
      const reply = await c.get(path, params(c), { key });
      expectUnauthorized(c, reply);
      expect(reply.text.includes(key), `${reply.request} → ${reply.status}: the body repeats the key sent, ${show(key)}`).toBe(false);
    }
  });
});
