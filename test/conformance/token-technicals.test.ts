/** Spec §2.5, §4.2 and the rate-limit headers of §8: GET /api/token-technicals. */
import { describe, expect, it } from 'vitest';
import {
  expectEnvelope,
  expectStatus,
  isRecord,
  MALFORMED_ADDRESS,
  orderBreaks,
  Problems,
  show,
  unknownAddress,
  type FieldSpec,
} from './support/checks';
import { readRateLimitHeaders } from './support/rate-limit';
import { conformanceTarget, titleFor, useConformance, type Reply } from './support/server';

const PATH = '/api/token-technicals';
const target = conformanceTarget();
/** Requests are counted against §8's 100/minute; a handful of tokens covers the shapes. */
const TOKENS_CHECKED = 6;
const BUYER_TYPES = ['HOLD', 'SELL_ALL', 'SELL_PARTIAL'];

/** §2.5 gives meanings but no types for these; only what the meaning fixes is checked. */
const POINT_FIELDS: FieldSpec = {
  id: 'present',
  contractAddress: 'string',
  chainId: 'integer',
  syncedAt: 'iso',
  holdersCount: 'count',
  tagsCount: 'present',
  topHoldersSupply: 'object',
  topHoldersSupplyPerc: 'object',
};
const TOKEN_STATS_FIELDS: FieldSpec = {
  isDevRug: 'present',
  isDevNew: 'present',
  devSoldSupply: 'present',
  devSoldSupplyPerc: 'present',
  initialTotalBoughtSupply: 'present',
  priceNative: 'present',
  liquidityNative: 'present',
};
const DEV_MAKER_FIELDS: FieldSpec = {
  totalBoughtAmount: 'present',
  totalSoldAmount: 'present',
  totalBoughtETH: 'present',
  totalSoldETH: 'present',
  totalSoldUSD: 'present',
  totalBuyTransactions: 'present',
  totalSellTransactions: 'present',
};
const BUYER_FIELDS: FieldSpec = {
  walletAddress: 'string',
  initialBuyerType: 'string',
  sniper: 'present',
  buyAmount: 'present',
  sellAmount: 'present',
};

function checkTopHolders(problems: Problems, point: Record<string, unknown>, where: string): void {
  const supply = point.topHoldersSupply;
  const perc = point.topHoldersSupplyPerc;
  if (!isRecord(supply) || !isRecord(perc)) return;
  const supplyKeys = Object.keys(supply).sort();
  const percKeys = Object.keys(perc).sort();
  problems.check(
    JSON.stringify(supplyKeys) === JSON.stringify(percKeys),
    `${where}: topHoldersSupply keys ${show(supplyKeys)} and topHoldersSupplyPerc keys ${show(percKeys)} should be the same`,
  );
  for (const key of supplyKeys) {
    problems.check(
      /^[1-9]\d*$/.test(key),
      `${where}.topHoldersSupply: key ${show(key)} should be a top-N holder count (a positive integer as text)`,
    );
    problems.kind(supply[key], 'numeric', `${where}.topHoldersSupply[${key}]`);
  }
  for (const key of percKeys) {
    if (problems.kind(perc[key], 'numeric', `${where}.topHoldersSupplyPerc[${key}]`)) {
      const value = Number(perc[key]);
      problems.check(
        value >= 0 && value <= 100,
        `${where}.topHoldersSupplyPerc[${key}]: a percentage should be within 0..100, got ${value}`,
      );
    }
  }
}

/** Object or array for each (design guide: the client accepts both); an array is read by its elements. */
function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function checkTechnicals(
  problems: Problems,
  data: Record<string, unknown>,
  address: string,
  simulator: boolean,
  root: string,
): { points: number; buyers: number } {
  const counts = { points: 0, buyers: 0 };
  problems.fields(
    data,
    { overtimeTechnicals: 'array', tokenStats: 'object|array', devMakerData: 'object|array', initialBuyerStats: 'object|array' },
    root,
  );

  if (Array.isArray(data.overtimeTechnicals)) {
    const points = data.overtimeTechnicals;
    counts.points = points.length;
    points.forEach((point, i) => {
      const where = `${root}.overtimeTechnicals[${i}]`;
      const record = problems.fields(point, POINT_FIELDS, where);
      if (!record) return;
      problems.check(
        record.contractAddress === address,
        `${where}.contractAddress: expected ${address}, got ${show(record.contractAddress)}`,
      );
      checkTopHolders(problems, record, where);
    });
    const times = points.map((point) => (isRecord(point) ? Date.parse(String(point.syncedAt)) : Number.NaN));
    const breaks = orderBreaks(times, (a, b) => a >= b);
    problems.check(
      breaks.length === 0,
      `${root}.overtimeTechnicals: expected most recent first (syncedAt non-increasing); out of order after index ${breaks.slice(0, 5).join(', ')}`,
    );
  }

  if (simulator)
    problems.check(
      Array.isArray(data.tokenStats),
      `${root}.tokenStats: the design guide says an array of one object, got ${show(data.tokenStats)}`,
    );
  const stats = asList(data.tokenStats)[0];
  const statsRecord = problems.fields(stats, TOKEN_STATS_FIELDS, `${root}.tokenStats[0]`);
  if (statsRecord) {
    problems.check(
      'devDeployedTokens' in statsRecord || 'devDeployedTokensCount' in statsRecord,
      `${root}.tokenStats[0]: expected devDeployedTokens or its count devDeployedTokensCount`,
    );
    if ('devDeployedTokensCount' in statsRecord)
      problems.kind(statsRecord.devDeployedTokensCount, 'count', `${root}.tokenStats[0].devDeployedTokensCount`);
  }

  if (simulator)
    problems.check(isRecord(data.devMakerData), `${root}.devMakerData: the design guide says an object, got ${show(data.devMakerData)}`);
  asList(data.devMakerData).forEach((entry, i) =>
    problems.fields(entry, DEV_MAKER_FIELDS, Array.isArray(data.devMakerData) ? `${root}.devMakerData[${i}]` : `${root}.devMakerData`),
  );

  if (simulator)
    problems.check(
      Array.isArray(data.initialBuyerStats),
      `${root}.initialBuyerStats: the design guide says an array, got ${show(data.initialBuyerStats)}`,
    );
  const buyers = Array.isArray(data.initialBuyerStats)
    ? data.initialBuyerStats
    : isRecord(data.initialBuyerStats)
      ? [data.initialBuyerStats]
      : [];
  counts.buyers = buyers.length;
  buyers.forEach((buyer, i) => {
    const where = `${root}.initialBuyerStats[${i}]`;
    const record = problems.fields(buyer, BUYER_FIELDS, where);
    if (record) {
      problems.check(
        BUYER_TYPES.includes(String(record.initialBuyerType)),
        `${where}.initialBuyerType: expected one of ${BUYER_TYPES.join(', ')}, got ${show(record.initialBuyerType)}`,
      );
    }
  });
  return counts;
}

describe.skipIf(target.mode === 'skip')(titleFor('conformance: token-technicals (§2.5, §4.2, §8 headers)', target), () => {
  const ctx = useConformance(target);

  it('answers each token with the §2.5 envelope and its four members', async () => {
    const { tokens, simulator } = ctx();
    const checked = tokens.slice(0, TOKENS_CHECKED);
    const problems = new Problems(`${PATH} over ${checked.length} tokens`);
    let points = 0;
    let buyers = 0;
    for (const { address } of checked) {
      const reply = await ctx().get(PATH, { address });
      // §2.5: message is optional here, unlike token-data's envelope.
      const data = expectEnvelope(reply, { messageMayBeAbsent: true });
      const counts = checkTechnicals(problems, data, address, simulator, `${reply.request} data`);
      points += counts.points;
      buyers += counts.buyers;
    }
    problems.check(points > 0, `no overtimeTechnicals point in ${checked.length} tokens: the point checks ran on nothing`);
    problems.check(buyers > 0, `no initialBuyerStats entry in ${checked.length} tokens: the buyer checks ran on nothing`);
    problems.assertNone();
  });

  it('carries rate-limit headers with the limit of 100 per minute (§8)', async () => {
    const { tokens, simulator } = ctx();
    const first = await ctx().get(PATH, { address: tokens[0]!.address });
    const second = await ctx().get(PATH, { address: tokens[0]!.address });
    const a = expectRateLimitHeaders(first, simulator);
    const b = expectRateLimitHeaders(second, simulator);
    expect(a.limit, `${first.request}: rate limit`).toBe(100);
    if (simulator) {
      // Consecutive requests on an otherwise idle key: one fewer left, unless a new window began.
      expect(
        b.remaining === a.remaining - 1 || b.remaining === b.limit - 1,
        `${second.request}: remaining went from ${a.remaining} to ${b.remaining}; expected ${a.remaining - 1} (or ${b.limit - 1} in a new window)`,
      ).toBe(true);
    }
  });

  it('refuses a malformed address with 400', async () => {
    const reply = await ctx().get(PATH, { address: MALFORMED_ADDRESS });
    expectStatus(reply, 400);
  });

  it('answers an unknown well-formed address with 404', async () => {
    const reply = await ctx().get(PATH, { address: unknownAddress(ctx().tokens) });
    expectStatus(reply, 404);
  });

  it('refuses a missing address with 400 (the spec names it an error; its status follows the design guide)', async () => {
    const reply = await ctx().get(PATH);
    if (ctx().simulator) expectStatus(reply, 400);
    else expect(reply.status, `${reply.request} → ${reply.status}; expected a 4xx`).toBeGreaterThanOrEqual(400);
    expect(reply.status, `${reply.request} → ${reply.status}; expected a 4xx`).toBeLessThan(500);
  });
});

function expectRateLimitHeaders(reply: Reply, simulator: boolean): { limit: number; remaining: number; reset: number } {
  expectStatus(reply, 200);
  const headers = readRateLimitHeaders(reply.headers);
  expect(headers.problems, `${reply.request}: rate-limit headers`).toEqual([]);
  if (simulator) {
    expect(headers.prefix, `${reply.request}: the design guide names X-RateLimit-Limit, -Remaining, -Reset`).toBe('x-ratelimit-');
  }
  return { limit: headers.limit, remaining: headers.remaining, reset: headers.reset };
}
