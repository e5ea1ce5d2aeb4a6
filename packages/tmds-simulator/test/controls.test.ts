/**
 * Scenario controls: in-process and over HTTP (only with `control: true`), each changing what
 * REST shows; the refusals (400, 401, 404, 405, 409, 413); and a script that knows only the docs:
 * start `tmds-simulator --control` (its bin), subscribe, POST a control, see the change on the stream.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError } from '../src/controls';
import type { RunningSimulator } from '../src/server';
import type { WireHolder, WireToken, WireTrade } from '../src/wireTypes';
import { KEY, UNKNOWN_ADDRESS, get, start } from './helpers';
import { Probe, isType } from './wsProbe';

/** The package's bin, as `npx tmds-simulator` runs it. */
const BIN = new URL('../bin/tmds-simulator.mjs', import.meta.url).pathname;

async function restToken(sim: RunningSimulator, address: string): Promise<WireToken> {
  const answer = await get<{ data: Record<string, WireToken> }>(sim, `/api/token-data?address=${address}`);
  const token = answer.body.data[address];
  if (!token) throw new Error('token missing from token-data');
  return token;
}

function quoteReserves(token: WireToken): number[] {
  return Object.values(token.liquidityPools).map((pool) => Number(pool.suspectedQuoteTokenReserves));
}

function refusal(run: () => unknown): ControlError {
  try {
    run();
  } catch (error) {
    if (error instanceof ControlError) return error;
    throw error;
  }
  throw new Error('expected a ControlError');
}

async function post(sim: RunningSimulator, name: string, body: unknown, key: string | null = KEY) {
  const response = await fetch(`${sim.baseUrl}/_control/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> };
}

describe('in-process controls', () => {
  let sim: RunningSimulator;
  let tokens: string[];
  let wallets: string[];

  beforeAll(async () => {
    sim = await start();
    tokens = sim.market.tokenAddresses();
    wallets = sim.market.wallets();
  });

  afterAll(async () => {
    await sim.close();
  });

  it('risk sets the status and flags; null returns to the derived status', async () => {
    const T = tokens[0] ?? '';
    const derived = (await restToken(sim, T)).riskStatus;
    const forced = derived === 'DANGER' ? 'SAFE' : 'DANGER';
    const { token } = sim.controls.risk({ tokenAddress: T, riskStatus: forced, riskAnalysis: { isMutable: true } });
    expect(token).toMatchObject({ address: T, riskStatus: forced, riskAnalysis: { isMutable: true } });
    const rest = await restToken(sim, T);
    expect(rest.riskStatus).toBe(forced);
    expect(rest.riskAnalysis.isMutable).toBe(true);
    sim.controls.risk({ tokenAddress: T, riskStatus: null, riskAnalysis: { isMutable: false } });
    expect((await restToken(sim, T)).riskStatus).toBe(derived);
  });

  it('liquidity pulls every pool (or one), or scales reserves by a factor at the same price', async () => {
    const T = tokens[1] ?? '';
    const before = await restToken(sim, T);
    // Growth is bounded by the unallocated supply (supply is conserved), shrinking is exact.
    const { token: halved } = sim.controls.liquidity({ tokenAddress: T, factor: 0.5 });
    const after = await restToken(sim, T);
    quoteReserves(after).forEach((reserve, n) => expect(reserve / (quoteReserves(before)[n] ?? 0)).toBeCloseTo(0.5, 6));
    expect(Number(halved.liquiditySol)).toBeCloseTo(quoteReserves(after).reduce((a, b) => a + b, 0) / 1e9, 6);
    const deepest = Object.values(before.liquidityPools).sort(
      (a, b) => Number(b.suspectedQuoteTokenReserves) - Number(a.suspectedQuoteTokenReserves),
    )[0];
    expect(Number(halved.priceSol) / Number(deepest?.suspectedBaseTokenPrice)).toBeCloseTo(1, 4);

    const { token: pulled } = sim.controls.liquidity({ tokenAddress: T, pull: true });
    expect(Number(pulled.liquiditySol)).toBeLessThan(0.01 * Number(halved.liquiditySol));
    const rest = await restToken(sim, T);
    expect(rest.riskStatus).toBe('DANGER');
    expect(Math.max(...quoteReserves(rest))).toBeLessThan(0.001 * Math.max(...quoteReserves(after)));

    const other = tokens.find((address) => Object.keys(sim.market.token(address)?.liquidityPools ?? {}).length > 1) ?? '';
    const reserves = (token: { pools: Array<{ poolAddress: string; suspectedQuoteTokenReserves: string }> }) =>
      token.pools.map((pool) => Number(pool.suspectedQuoteTokenReserves));
    const untouched = sim.controls.liquidity({ tokenAddress: other, factor: 1 }).token;
    const first = untouched.pools[0]?.poolAddress;
    const single = sim.controls.liquidity({ tokenAddress: other, poolAddress: first, pull: true }).token;
    const [pulledPool = 0, ...others] = reserves(single);
    expect(pulledPool).toBeLessThan(0.001 * (reserves(untouched)[0] ?? 0));
    expect(others).toEqual(reserves(untouched).slice(1));
  });

  it('liquidity pull pushes one changed Token on token-feed, the same as REST shows', async () => {
    const T = tokens[8] ?? '';
    const probe = await Probe.open(sim.wsUrl, '/ws/token-feed');
    try {
      probe.send({ tokenAddress: T, apiKey: KEY });
      const snapshot = (
        await probe.next(
          isType('token', (f) => f.snapshot === true),
          'the snapshot',
        )
      ).data as WireToken;
      expect(Math.max(...quoteReserves(snapshot))).toBeGreaterThan(0);
      const before = probe.messages.length;
      sim.controls.liquidity({ tokenAddress: T, pull: true });
      const pushed = (await probe.next(isType('token'), 'the pushed Token', before)).data as WireToken;
      expect(pushed.address).toBe(T);
      expect(Math.max(...quoteReserves(pushed))).toBeLessThan(0.001 * Math.max(...quoteReserves(snapshot)));
      expect(pushed.riskStatus).toBe('DANGER');
      const rest = await restToken(sim, T);
      // syncedAt is the time of reading, which may have moved on a second between the push and the REST call.
      const unsynced = (pools: WireToken['liquidityPools']) =>
        JSON.parse(JSON.stringify(pools, (key, value: unknown) => (key === 'syncedAt' ? undefined : value))) as unknown;
      expect(unsynced(pushed.liquidityPools)).toEqual(unsynced(rest.liquidityPools));
      expect(pushed.riskStatus).toBe(rest.riskStatus);
      // Every pool is pulled in one control: the changes are pushed together, as one Token. A later
      // control's push follows any second push of the pull on this socket, so the next Token is that one.
      const marker = 'PullSentinelMint111111111111111111111111111';
      sim.controls.risk({ tokenAddress: T, riskAnalysis: { mintAuthority: marker } });
      await probe.next(
        isType('token', (f) => (f.data as WireToken).riskAnalysis.mintAuthority === marker),
        'the next control’s push',
        before,
      );
      const tokensPushed = probe.find(isType('token'), before);
      expect(tokensPushed).toHaveLength(2);
      expect((tokensPushed[1]?.data as WireToken).riskAnalysis.mintAuthority).toBe(marker);
    } finally {
      probe.close();
    }
  });

  it('price moves the deepest pool by trading, and REST shows the trade', async () => {
    const T = tokens[2] ?? '';
    const before = Number(sim.controls.risk({ tokenAddress: T, riskStatus: null }).token.priceSol);
    const { trade, token } = sim.controls.price({ tokenAddress: T, changePct: 40 });
    expect(Number(token.priceSol) / before).toBeCloseTo(1.4, 2);
    const wallet = trade.makerData.address;
    const rest = await get<{ tradeHistory: WireTrade[] }>(sim, `/api/trades-history?baseToken=${T}&wallets=${wallet}`);
    expect(rest.body.tradeHistory[0]).toEqual(trade);
    const down = sim.controls.price({ tokenAddress: T, changePct: -50 }).token;
    expect(Number(down.priceSol) / Number(token.priceSol)).toBeCloseTo(0.5, 2);
  });

  it('trade buys and sells for any wallet; holders-history follows', async () => {
    const T = tokens[3] ?? '';
    const W = 'Scr1ptWa11etScr1ptWa11etScr1ptWa11etScr1ptW';
    const bought = sim.controls.trade({ wallet: W, tokenAddress: T, side: 'buy', amountUSD: 1_000 });
    expect(bought.trade.makerData).toMatchObject({ address: W, tokenAddress: T, totalBuyTransactions: 1 });
    const holders = await get<WireHolder[]>(sim, `/api/holders-history?address=${T}`);
    expect(holders.body.find((holder) => holder.address === W)?.currentlyHoldingAmount).toBe(bought.trade.makerData.currentlyHoldingAmount);
    const sold = sim.controls.trade({ wallet: W, tokenAddress: T, side: 'sell', amountUSD: 1_000_000 });
    expect(sold.trade.makerData.currentlyHoldingAmount).toBe('0');
    expect(refusal(() => sim.controls.trade({ wallet: W, tokenAddress: T, side: 'sell', amountUSD: 10 }))).toMatchObject({
      status: 409,
      title: 'Conflict',
    });
  });

  it('holder gives a wallet a share of supply, or takes it back', async () => {
    const T = tokens[4] ?? '';
    const W = wallets[0] ?? '';
    const { holder, token } = sim.controls.holder({ tokenAddress: T, wallet: W, supplyPct: 12.5 });
    const supply = BigInt((await restToken(sim, T)).totalSupply);
    expect(BigInt(holder.currentlyHoldingAmount)).toBe((supply * 125n) / 1000n);
    expect(BigInt(token.top10HoldersSupply ?? '0')).toBeGreaterThanOrEqual(BigInt(holder.currentlyHoldingAmount));
    const rest = await get<WireHolder[]>(sim, `/api/holders-history?address=${T}`);
    expect(rest.body[0]?.address).toBe(W);
    expect(sim.controls.holder({ tokenAddress: T, wallet: W, supplyPct: 0 }).holder.currentlyHoldingAmount).toBe('0');
  });

  it('faults replaces the REST fault configuration; {} clears it', async () => {
    const T = tokens[5] ?? '';
    expect(sim.controls.faults({ 'token-data': { script: ['500'] } })).toEqual({ faults: { 'token-data': { script: ['500'] } } });
    expect((await get(sim, `/api/token-data?address=${T}`)).status).toBe(500);
    expect((await get(sim, `/api/token-data?address=${T}`)).status).toBe(200);
    sim.controls.faults({ '*': { error500Rate: 1 } });
    expect((await get(sim, `/api/token-technicals?address=${T}`)).status).toBe(500);
    expect(sim.controls.faults({})).toEqual({ faults: {} });
    expect((await get(sim, `/api/token-technicals?address=${T}`)).status).toBe(200);
    expect(refusal(() => sim.controls.faults({ '*': { error500Rate: 2 } }))).toMatchObject({ status: 400 });
  });

  it('drop cuts every socket and says how many', async () => {
    const probe = await Probe.open(sim.wsUrl, '/ws/token-feed');
    probe.send({ tokenAddress: tokens[6], apiKey: KEY });
    await probe.next(isType('subscribed'), 'the acknowledgement');
    expect(sim.controls.drop()).toEqual({ dropped: 1 });
    expect((await probe.closed).code).toBe(1006);
    expect(sim.streams.subscriptionCount()).toBe(0);
    expect(sim.controls.drop({})).toEqual({ dropped: 0 });
  });

  it('refuses bad input (400) and unknown tokens or pools (404), changing nothing', async () => {
    const T = tokens[7] ?? '';
    const before = JSON.stringify(sim.market.token(T)?.liquidityPools);
    const bad: Array<() => unknown> = [
      () => sim.controls.risk({ tokenAddress: T }),
      () => sim.controls.risk({ tokenAddress: T, riskStatus: 'SCARY' as 'SAFE' }),
      () => sim.controls.risk({ tokenAddress: 'abc', riskStatus: 'SAFE' }),
      () => sim.controls.liquidity({ tokenAddress: T }),
      () => sim.controls.liquidity({ tokenAddress: T, pull: true, factor: 2 }),
      () => sim.controls.liquidity({ tokenAddress: T, factor: -1 }),
      () => sim.controls.price({ tokenAddress: T, changePct: 0 }),
      () => sim.controls.price({ tokenAddress: T, changePct: -100 }),
      () => sim.controls.trade({ wallet: 'w', tokenAddress: T, side: 'buy', amountUSD: 10 }),
      () => sim.controls.trade({ wallet: wallets[0] ?? '', tokenAddress: T, side: 'hold' as 'buy', amountUSD: 10 }),
      () => sim.controls.trade({ wallet: wallets[0] ?? '', tokenAddress: T, side: 'buy', amountUSD: 0 }),
      () => sim.controls.holder({ tokenAddress: T, wallet: wallets[0] ?? '', supplyPct: 101 }),
      () => sim.controls.holder({ tokenAddress: T, wallet: wallets[0] ?? '', supplyPct: 1, extra: true } as never),
      () => sim.controls.drop({ now: true } as never),
    ];
    for (const run of bad) expect(refusal(run)).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(refusal(() => sim.controls.risk({ tokenAddress: UNKNOWN_ADDRESS, riskStatus: 'SAFE' }))).toMatchObject({
      status: 404,
      message: 'Token not found',
    });
    expect(refusal(() => sim.controls.liquidity({ tokenAddress: T, poolAddress: UNKNOWN_ADDRESS, pull: true }))).toMatchObject({
      status: 404,
      message: 'Pool not found for this token',
    });
    expect(JSON.stringify(sim.market.token(T)?.liquidityPools)).toBe(before);
  });
});

describe('controls over HTTP', () => {
  it('do not exist without control: true', async () => {
    const sim = await start();
    try {
      const T = sim.market.tokenAddresses()[0] ?? '';
      const answer = await post(sim, 'risk', { tokenAddress: T, riskStatus: 'DANGER' });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'Not Found' });
      expect(sim.market.token(T)?.riskStatus).not.toBe('DANGER');
    } finally {
      await sim.close();
    }
  });

  describe('with control: true', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await start({ control: true });
    });
    afterAll(async () => {
      await sim.close();
    });

    it('answer 200 with the same result as the in-process call, and REST and streams follow', async () => {
      const T = sim.market.tokenAddresses()[0] ?? '';
      const probe = await Probe.open(sim.wsUrl, '/ws/token-feed');
      probe.send({ tokenAddress: T, apiKey: KEY });
      await probe.next(isType('token'), 'the snapshot');
      try {
        const before = probe.messages.length;
        const risk = await post(sim, 'risk', { tokenAddress: T, riskStatus: 'WARNING', riskAnalysis: { freezeAuthority: null } });
        expect(risk.status).toBe(200);
        expect(risk.headers.get('content-type')).toMatch(/^application\/json/);
        expect(risk.body).toEqual(JSON.parse(JSON.stringify(sim.controls.risk({ tokenAddress: T, riskStatus: 'WARNING' }))));
        expect((await probe.next(isType('token'), 'the pushed change', before)).data).toMatchObject({ riskStatus: 'WARNING' });
        expect((await restToken(sim, T)).riskStatus).toBe('WARNING');

        const trade = await post(sim, 'trade', { wallet: sim.market.wallets()[0], tokenAddress: T, side: 'buy', amountUSD: 50 });
        expect(trade.status).toBe(200);
        expect(trade.body).toMatchObject({ trade: { tokenOut: T }, token: { address: T } });
        expect((await post(sim, 'price', { tokenAddress: T, changePct: 5 })).status).toBe(200);
        expect((await post(sim, 'holder', { tokenAddress: T, wallet: sim.market.wallets()[1], supplyPct: 1 })).body).toMatchObject({
          holder: { address: sim.market.wallets()[1] },
        });
        expect((await post(sim, 'liquidity', { tokenAddress: T, factor: 1.5 })).status).toBe(200);
        expect((await post(sim, 'faults', { 'token-data': { script: ['429'] } })).body).toEqual({
          faults: { 'token-data': { script: ['429'] } },
        });
        expect((await get(sim, `/api/token-data?address=${T}`)).status).toBe(429);
        expect((await post(sim, 'faults', {})).body).toEqual({ faults: {} });
        expect(await post(sim, 'drop', {})).toMatchObject({ status: 200, body: { dropped: 1 } });
        expect((await probe.closed).code).toBe(1006);
        // An empty body is read as {}.
        expect((await post(sim, 'drop', '')).body).toEqual({ dropped: 0 });
      } finally {
        probe.close();
      }
    });

    it('refuse with 401, 405, 404, 400, 409 and 413 as documented', async () => {
      const T = sim.market.tokenAddresses()[1] ?? '';
      const cases: Array<[Promise<{ status: number; body: Record<string, unknown> }>, number, string]> = [
        [post(sim, 'risk', { tokenAddress: T, riskStatus: 'DANGER' }, null), 401, 'Unauthorized'],
        [post(sim, 'risk', { tokenAddress: T, riskStatus: 'DANGER' }, 'wrong'), 401, 'Unauthorized'],
        [post(sim, 'rug', {}), 404, 'Not Found'],
        [post(sim, 'risk', '{"tokenAddress":'), 400, 'Bad Request'],
        [post(sim, 'risk', '[]'), 400, 'Bad Request'],
        [post(sim, 'risk', { tokenAddress: T, riskStatus: 'RED' }), 400, 'Bad Request'],
        [post(sim, 'price', { tokenAddress: T, changePct: '10' }), 400, 'Bad Request'],
        [post(sim, 'faults', { 'token-data': { script: ['boom'] } }), 400, 'Bad Request'],
        [post(sim, 'risk', { tokenAddress: UNKNOWN_ADDRESS, riskStatus: 'DANGER' }), 404, 'Not Found'],
        [post(sim, 'trade', { wallet: UNKNOWN_ADDRESS, tokenAddress: T, side: 'sell', amountUSD: 5 }), 409, 'Conflict'],
        [
          post(sim, 'holder', { tokenAddress: T, wallet: UNKNOWN_ADDRESS, supplyPct: 1, padding: 'x'.repeat(70_000) }),
          413,
          'Payload Too Large',
        ],
      ];
      for (const [answer, status, error] of cases) {
        const { status: got, body } = await answer;
        expect({ got, body }).toMatchObject({ got: status, body: { error, message: expect.any(String) } });
      }
      const getAnswer = await fetch(`${sim.baseUrl}/_control/risk`, { headers: { 'x-api-key': KEY } });
      expect(getAnswer.status).toBe(405);
      expect(getAnswer.headers.get('allow')).toBe('POST');
      await getAnswer.arrayBuffer();
      expect(sim.market.token(T)?.riskStatus).not.toBe('RED');
      // Controls are not REST requests: they are not counted in stats.
      expect(sim.stats.requests().some((request) => request.endpoint.includes('control'))).toBe(false);
    });
  });
});

describe('a script that knows only the docs', () => {
  it('starts the simulator with --control, subscribes, POSTs a control and sees the change', async () => {
    const key = 'script-key-5d21';
    const child = spawn(process.execPath, [BIN, '--port', '0', '--api-key', key, '--control', '--trades-per-second', '0'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (pid !== undefined) process.kill(-pid, signal);
      } catch {
        // Already gone.
      }
    };
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      let stdout = '';
      const settings = await new Promise<Record<string, string>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no TMDS_* lines: ${stdout}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const base = /^TMDS_BASE_URL=(\S+)$/m.exec(stdout)?.[1];
          const ws = /^TMDS_WS_URL=(\S+)$/m.exec(stdout)?.[1];
          if (base && ws) {
            clearTimeout(timer);
            resolve({ base, ws });
          }
        });
      });
      const base = settings.base ?? '';
      const listing = (await (await fetch(`${base}/api/token-data?address=x`, { headers: { 'x-api-key': key } })).json()) as unknown;
      expect(listing).toMatchObject({ error: 'Invalid address' });
      const tokenLine = /^Tokens: (\S+)/m.exec(stdout)?.[1] ?? '';

      const probe = await Probe.open(settings.ws ?? '', '/ws/token-feed');
      probe.send({ tokenAddress: tokenLine, apiKey: key });
      await probe.next(
        isType('token', (f) => f.snapshot === true),
        'the snapshot',
        0,
        15_000,
      );
      const before = probe.messages.length;
      const answer = await fetch(`${base}/_control/risk`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ tokenAddress: tokenLine, riskStatus: 'DANGER', riskAnalysis: { isMutable: true } }),
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ token: { address: tokenLine, riskStatus: 'DANGER' } });
      // The simulator is a process of its own: on a loaded machine its push can take a while.
      const change = await probe.next(isType('token'), 'the change', before, 15_000);
      expect(change.data).toMatchObject({ address: tokenLine, riskStatus: 'DANGER', riskAnalysis: { isMutable: true } });
      probe.close();
    } finally {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      killGroup('SIGKILL');
    }
  }, 120_000);
});
