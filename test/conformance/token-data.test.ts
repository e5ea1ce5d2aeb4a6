/** Spec §2.1–2.4 and §4.1: GET /api/token-data. */
import { describe, expect, it } from 'vitest';
import {
  chunk,
  expectClientError,
  expectEnvelope,
  expectErrorMessageBody,
  isRecord,
  MALFORMED_ADDRESS,
  Problems,
  show,
  unknownAddress,
} from './support/checks';
import { POOL_FIELDS, RISK_FIELDS, TOKEN_FIELDS } from './support/fields';
import { conformanceTarget, titleFor, useConformance } from './support/server';

const PATH = '/api/token-data';
const target = conformanceTarget();
/** Design guide, "riskStatus values". */
const SIMULATOR_RISK_STATUSES = ['SAFE', 'WARNING', 'DANGER'];

function checkToken(problems: Problems, token: unknown, address: string, where: string): void {
  const record = problems.fields(token, TOKEN_FIELDS, where);
  if (!record) return;
  problems.check(record.address === address, `${where}.address: expected the requested key ${address}, got ${show(record.address)}`);
  if (typeof record.chainId === 'number') {
    problems.check(
      record.id === `${address}_${record.chainId}`,
      `${where}.id: expected "${address}_${record.chainId}" (address_chainId), got ${show(record.id)}`,
    );
  }
  if (typeof record.decimals === 'number') problems.check(record.decimals >= 0, `${where}.decimals: expected ≥ 0, got ${record.decimals}`);

  if (isRecord(record.liquidityPools)) {
    for (const [key, pool] of Object.entries(record.liquidityPools)) {
      const at = `${where}.liquidityPools[${key}]`;
      const fields = problems.fields(pool, POOL_FIELDS, at);
      if (!fields) continue;
      problems.check(fields.poolAddress === key, `${at}.poolAddress: expected the map key ${key}, got ${show(fields.poolAddress)}`);
      problems.check(
        fields.token0Address === address || fields.token1Address === address,
        `${at}: a pool of token ${address} should have it as token0Address or token1Address, got ${show(fields.token0Address)} / ${show(fields.token1Address)}`,
      );
    }
  }
  problems.fields(record.riskAnalysis, RISK_FIELDS, `${where}.riskAnalysis`);
  if (isRecord(record.links)) {
    for (const [name, url] of Object.entries(record.links)) {
      problems.check(typeof url === 'string', `${where}.links.${name}: expected a URL string, got ${show(url)}`);
    }
  }
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: token-data (§2.1–2.4, §4.1)', target), () => {
  const ctx = useConformance(target);

  it('answers `address` with the §2.1 envelope keyed by exactly that address', async () => {
    const { tokens } = ctx();
    const address = tokens[0]!.address;
    const reply = await ctx().get(PATH, { address });
    const data = expectEnvelope(reply);
    expect(Object.keys(data), `${reply.request}: data keys`).toEqual([address]);
    const problems = new Problems(reply.request);
    checkToken(problems, data[address], address, `data[${address}]`);
    problems.assertNone();
  });

  it('answers `addresses` for every listed token with a complete §2.2 Token for each', async () => {
    const { tokens } = ctx();
    const problems = new Problems(`${PATH}?addresses=… over ${tokens.length} tokens`);
    for (const batch of chunk(tokens, 10)) {
      const requested = batch.map((token) => token.address);
      const reply = await ctx().get(PATH, { addresses: requested.join(',') });
      const data = expectEnvelope(reply);
      expect(Object.keys(data).sort(), `${reply.request}: data should be keyed by each requested address`).toEqual([...requested].sort());
      for (const address of requested) checkToken(problems, data[address], address, `data[${address}]`);
    }
    problems.assertNone();
  });

  it('has at least one token with a liquidity pool, so the pool checks are not vacuous', async () => {
    const { tokens } = ctx();
    const reply = await ctx().get(PATH, {
      addresses: tokens
        .slice(0, 10)
        .map((token) => token.address)
        .join(','),
    });
    const data = expectEnvelope(reply);
    const pools = Object.values(data).flatMap((token) =>
      isRecord(token) && isRecord(token.liquidityPools) ? Object.keys(token.liquidityPools) : [],
    );
    expect(pools.length, `${reply.request}: no liquidity pool in the first ten tokens`).toBeGreaterThan(0);
  });

  it('agrees with the simulator listing on symbol, name and riskStatus (design: SAFE, WARNING, DANGER)', async ({ skip }) => {
    const { tokens, simulator } = ctx();
    if (!simulator) skip('only the simulator has a listing');
    const problems = new Problems(`${PATH} against --list`);
    for (const batch of chunk(tokens, 10)) {
      const reply = await ctx().get(PATH, { addresses: batch.map((token) => token.address).join(',') });
      const data = expectEnvelope(reply);
      for (const listed of batch) {
        const token = data[listed.address];
        if (!isRecord(token)) continue;
        const where = `data[${listed.address}]`;
        problems.check(
          token.symbol === listed.symbol,
          `${where}.symbol ${show(token.symbol)} differs from the listing's ${show(listed.symbol)}`,
        );
        problems.check(token.name === listed.name, `${where}.name ${show(token.name)} differs from the listing's ${show(listed.name)}`);
        problems.check(
          token.riskStatus === listed.riskStatus,
          `${where}.riskStatus ${show(token.riskStatus)} differs from the listing's ${show(listed.riskStatus)}`,
        );
        problems.check(
          SIMULATOR_RISK_STATUSES.includes(String(token.riskStatus)),
          `${where}.riskStatus: expected one of ${SIMULATOR_RISK_STATUSES.join(', ')}, got ${show(token.riskStatus)}`,
        );
      }
    }
    problems.assertNone();
  });

  it('leaves an unknown well-formed address out of data, next to a known one', async () => {
    const { tokens } = ctx();
    const known = tokens[0]!.address;
    const unknown = unknownAddress(tokens);
    const reply = await ctx().get(PATH, { addresses: `${known},${unknown}` });
    const data = expectEnvelope(reply);
    expect(Object.keys(data), `${reply.request}: data keys`).toEqual([known]);
  });

  it('answers a lone unknown address with 200 and empty data (design)', async ({ skip }) => {
    if (!ctx().simulator) skip('design decision, enforced on the simulator only');
    const reply = await ctx().get(PATH, { address: unknownAddress(ctx().tokens) });
    const data = expectEnvelope(reply);
    expect(data, `${reply.request}: data`).toEqual({});
  });

  it('answers both `address` and `addresses` with their union (design)', async ({ skip }) => {
    const { tokens, simulator } = ctx();
    if (!simulator) skip('design decision, enforced on the simulator only');
    const [a, b, c] = tokens.map((token) => token.address);
    const reply = await ctx().get(PATH, { address: a, addresses: `${b},${c}` });
    const data = expectEnvelope(reply);
    expect(Object.keys(data).sort(), `${reply.request}: data keys`).toEqual([a, b, c].sort());
  });

  it('refuses a request with neither parameter: 400 {error, message} naming the parameter', async () => {
    const reply = await ctx().get(PATH);
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply, /address/i);
  });

  it('refuses an empty `address` as a missing or invalid parameter: 400 {error, message}', async () => {
    const reply = await ctx().get(PATH, { address: '' });
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply);
  });

  it.each([
    ['address', MALFORMED_ADDRESS],
    ['addresses', MALFORMED_ADDRESS],
    ['address', '0xZZ'],
  ])('refuses a malformed %s=%s: 400 {error, message}', async (param, value) => {
    const reply = await ctx().get(PATH, { [param]: value });
    expectClientError(ctx(), reply, 400);
    expectErrorMessageBody(reply);
  });
});
