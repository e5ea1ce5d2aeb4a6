/** Spec §2.6 and §4.3: GET /api/holders-history. */
import { describe, expect, it } from 'vitest';
import {
  expectClientError,
  expectStatus,
  isRecord,
  MALFORMED_ADDRESS,
  orderBreaks,
  Problems,
  show,
  unknownAddress,
} from './support/checks';
import { HOLDER_FIELDS } from './support/fields';
import { conformanceTarget, titleFor, useConformance, type Reply } from './support/server';

const PATH = '/api/holders-history';
const target = conformanceTarget();
const TOKENS_CHECKED = 5;
/** Design guide: the simulator's other sort orders. */
const SIMULATOR_SORTS = ['holderSince', 'totalBoughtUSD', 'totalSoldUSD'];

function balance(holder: unknown): bigint {
  const amount = isRecord(holder) ? holder.currentlyHoldingAmount : undefined;
  return typeof amount === 'string' && /^\d+$/.test(amount) ? BigInt(amount) : -1n;
}

function holdersOf(reply: Reply): unknown[] {
  expectStatus(reply, 200);
  expect(Array.isArray(reply.body), `${reply.request}: expected a JSON array of holder records, got ${show(reply.body)}`).toBe(true);
  return reply.body as unknown[];
}

function expectByBalance(reply: Reply, holders: unknown[]): void {
  const breaks = orderBreaks(holders, (a, b) => balance(a) >= balance(b));
  const sample = breaks
    .slice(0, 3)
    .map((i) => `[${i}] ${balance(holders[i])} < [${i + 1}] ${balance(holders[i + 1])}`)
    .join('; ');
  expect(breaks, `${reply.request}: expected balance descending (currentlyHoldingAmount as BigInt); ${sample}`).toEqual([]);
}

/** §7: holders-history errors are `{error: string stating that the token address is required}`. */
function expectErrorBody(reply: Reply, mentionsAddress: boolean): void {
  const problems = new Problems(`${reply.request} → ${reply.status} error body`);
  const body = problems.fields(reply.body, { error: 'string' }, 'body');
  if (body && typeof body.error === 'string') {
    problems.check(body.error.trim().length > 0, 'body.error: expected a non-empty string');
    if (mentionsAddress)
      problems.check(/address/i.test(body.error), `body.error should state that the token address is required, got ${show(body.error)}`);
  }
  problems.assertNone();
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: holders-history (§2.6, §4.3)', target), () => {
  const ctx = useConformance(target);

  it('answers an array of complete §2.6 holder records of the requested token', async () => {
    const { tokens } = ctx();
    const checked = tokens.slice(0, TOKENS_CHECKED);
    const problems = new Problems(`${PATH} over ${checked.length} tokens`);
    let total = 0;
    for (const { address } of checked) {
      const reply = await ctx().get(PATH, { address });
      const holders = holdersOf(reply);
      total += holders.length;
      const seen = new Set<unknown>();
      holders.forEach((holder, i) => {
        const where = `${reply.request} [${i}]`;
        const record = problems.fields(holder, HOLDER_FIELDS, where);
        if (!record) return;
        problems.check(record.tokenAddress === address, `${where}.tokenAddress: expected ${address}, got ${show(record.tokenAddress)}`);
        problems.check(!seen.has(record.address), `${where}.address ${show(record.address)} appears twice`);
        seen.add(record.address);
      });
    }
    problems.check(total > 0, `no holder in ${checked.length} tokens: the record checks ran on nothing`);
    problems.assertNone();
  });

  it('sorts by balance, largest first, by default', async () => {
    for (const { address } of ctx().tokens.slice(0, TOKENS_CHECKED)) {
      const reply = await ctx().get(PATH, { address });
      expectByBalance(reply, holdersOf(reply));
    }
  });

  it('answers sortBy=balance exactly as the default', async () => {
    const address = ctx().tokens[0]!.address;
    const byDefault = holdersOf(await ctx().get(PATH, { address }));
    const reply = await ctx().get(PATH, { address, sortBy: 'balance' });
    const byBalance = holdersOf(reply);
    expectByBalance(reply, byBalance);
    const addresses = (list: unknown[]) => list.map((holder) => (isRecord(holder) ? holder.address : undefined));
    expect(addresses(byBalance), `${reply.request}: same holders in the same order as without sortBy`).toEqual(addresses(byDefault));
  });

  it.for(SIMULATOR_SORTS)('accepts sortBy=%s with the same holders (design)', async (sortBy, { skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const address = ctx().tokens[0]!.address;
    const byDefault = holdersOf(await ctx().get(PATH, { address }));
    const reply = await ctx().get(PATH, { address, sortBy });
    const sorted = holdersOf(reply);
    const addresses = (list: unknown[]) => list.map((holder) => (isRecord(holder) ? String(holder.address) : '')).sort();
    expect(addresses(sorted), `${reply.request}: the same set of holders as the default order`).toEqual(addresses(byDefault));
  });

  it('refuses an unknown sortBy with 400 (design)', async ({ skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const reply = await ctx().get(PATH, { address: ctx().tokens[0]!.address, sortBy: 'nonsense' });
    expectStatus(reply, 400);
    expectErrorBody(reply, false);
  });

  it('refuses a missing address: 4xx {error} stating the token address is required', async () => {
    const reply = await ctx().get(PATH);
    expectClientError(ctx(), reply, 400);
    expectErrorBody(reply, true);
  });

  it('refuses a malformed address: 400 {error}', async () => {
    const reply = await ctx().get(PATH, { address: MALFORMED_ADDRESS });
    expectClientError(ctx(), reply, 400);
    expectErrorBody(reply, false);
  });

  it('answers an unknown well-formed address with 404 {error} (design)', async ({ skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const reply = await ctx().get(PATH, { address: unknownAddress(ctx().tokens) });
    expectStatus(reply, 404);
    expectErrorBody(reply, false);
  });
});
