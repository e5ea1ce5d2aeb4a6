/**
 * One made-up event of every alert kind, for /testalert: a chat sees each kind's card as it will
 * look there (permissions, layout) without waiting for a real one. Keyed by kind, each entry typed
 * as its kind's event; test/alerts/samples.test.ts holds the table complete against the registry,
 * so a new kind's descriptor does not pass its tests without its sample here.
 */
import type { AlertEvent, AlertEventsByKind, AlertKind, TokenRef } from '../model/events';

/** Made-up base58 addresses of the usual length, plainly not real ones. */
const TOKEN = 'Samp1eToken1111111111111111111111111111111';
const WALLET = 'Samp1eWa11et111111111111111111111111111111';
const OTHER_WALLET = 'Samp1eWa11et222222222222222222222222222222';
const THIRD_WALLET = 'Samp1eWa11et333333333333333333333333333333';
const POOL = 'Samp1ePoo1111111111111111111111111111111111';

function token(): TokenRef {
  return {
    address: TOKEN,
    symbol: 'SAMPLE',
    name: 'Sample Token',
    decimals: 6,
    riskStatus: 'WARNING',
    totalSupply: '1000000000000000',
    market: {
      priceNative: 0.0000412,
      priceUsd: 0.0061,
      changePct: 12.5,
      changeSecs: 3_600,
      marketCapSol: 41_200,
      liquiditySol: 310,
      poolsAgeSecs: null,
    },
  };
}

type SampleTable = { readonly [K in AlertKind]?: AlertEventsByKind[K] };

/** The fields every sample shares; its key is the kind's, so a sample never stands for a real event. */
function base(kind: string, at: number) {
  return { key: `sample:${kind}`, at, token: token() };
}

/** Kinds about the token's market and risk: risk status and flags, liquidity, price. */
function marketSamples(at: number): SampleTable {
  return {
    'risk-status': {
      ...base('risk-status', at),
      kind: 'risk-status',
      from: 'SAFE',
      to: 'WARNING',
      flags: [{ flag: 'mintAuthority', from: null, to: WALLET }],
      flagsNow: [
        { flag: 'mintAuthority', value: WALLET },
        { flag: 'freezeAuthority', value: null },
        { flag: 'mutable', value: 'false' },
      ],
    },
    'risk-flag': { ...base('risk-flag', at), kind: 'risk-flag', changes: [{ flag: 'mutable', from: 'false', to: 'true' }] },
    liquidity: {
      ...base('liquidity', at),
      kind: 'liquidity',
      pools: [{ poolAddress: POOL, from: '450000000000', to: '310000000000', gone: false, dropPct: 31.1 }],
    },
    price: {
      ...base('price', at),
      kind: 'price',
      from: 0.0000366,
      to: 0.0000412,
      changePct: 12.5,
      previousChangePct: 8.2,
      windowSecs: 3_600,
      priceUsd: 0.0061,
    },
  };
}

/** Kinds about wallets' trades and holdings, one wallet's or several at once, and the deployer's and insiders' sales. */
function walletSamples(at: number): SampleTable {
  return {
    'wallet-trade': {
      ...base('wallet-trade', at),
      kind: 'wallet-trade',
      wallet: WALLET,
      side: 'buy',
      tokenAmount: '2500000000000',
      decimals: 6,
      nativeAmount: '103000000000',
      amountUsd: 15_300,
      price: 0.0000412,
      transactionHash: 'Samp1eTransaction111111111111111111111111111111111111111111111111111111111111111111111',
      timestamp: Math.floor(at / 1000) - 2,
    },
    whale: { ...base('whale', at), kind: 'whale', wallet: WALLET, direction: 'in', fromPct: 0.4, toPct: 1.3 },
    graduation: {
      ...base('graduation', at),
      kind: 'graduation',
      poolAddress: POOL,
      protocol: 'raydium',
      launchProtocol: 'pump',
      quoteReserves: '85000000000',
    },
    'developer-sold': {
      ...base('developer-sold', at),
      kind: 'developer-sold',
      wallet: WALLET,
      line: 50,
      soldPct: 52.4,
      solReceived: 41.7,
      launchedAt: Math.floor(at / 1000) - 5_400,
    },
    'insiders-selling': {
      ...base('insiders-selling', at),
      kind: 'insiders-selling',
      sellers: [WALLET, OTHER_WALLET],
      sellerCount: 2,
      fromAmount: '80000000000000',
      toAmount: '52000000000000',
      droppedPct: 35,
      supplyPct: 2.8,
      windowSecs: 3_600,
    },
    'wallet-cluster': {
      ...base('wallet-cluster', at),
      kind: 'wallet-cluster',
      side: 'buy',
      required: 3,
      windowSecs: 1_800,
      wallets: [
        {
          wallet: WALLET,
          label: 'sample wallet',
          trades: 2,
          tokenAmount: '2500000000000',
          nativeAmount: '103000000000',
          amountUsd: 15_300,
        },
        { wallet: OTHER_WALLET, label: null, trades: 1, tokenAmount: '900000000000', nativeAmount: '37000000000', amountUsd: 5_500 },
        { wallet: THIRD_WALLET, label: null, trades: 1, tokenAmount: '400000000000', nativeAmount: null, amountUsd: null },
      ],
      decimals: 6,
      firstTimestamp: Math.floor(at / 1000) - 1_260,
      lastTimestamp: Math.floor(at / 1000) - 5,
    },
  };
}

/** Kinds a chat's own follows and calls bring: a target reached, the daily digest, a call's milestone. */
function chatSamples(at: number): SampleTable {
  return {
    target: {
      ...base('target', at),
      kind: 'target',
      followId: 0,
      target: { metric: 'price', side: 'above', value: 0.006 },
      from: 0.0058,
      to: 0.0061,
    },
    'daily-digest': {
      ...base('daily-digest', at),
      kind: 'daily-digest',
      day: new Date(at).toISOString().slice(0, 10),
      time: '09:00',
      zone: 'UTC',
      tokens: [
        {
          address: TOKEN,
          symbol: 'SAMPLE',
          name: 'Sample Token',
          priceNative: 0.0000412,
          priceUsd: 0.0061,
          change24hPct: 12.5,
          ageSecs: null,
          volumeSol: 1_250,
          liquiditySol: 310,
          solUsd: 148,
          riskStatus: 'WARNING',
        },
      ],
      tokensUnread: 0,
      wallets: [{ address: WALLET, label: 'sample wallet', buys: 3, sells: 1, usd: 15_300 }],
      walletsUnread: 0,
    },
    'call-milestone': {
      ...base('call-milestone', at),
      kind: 'call-milestone',
      calls: [
        {
          callId: 0,
          address: TOKEN,
          symbol: 'SAMPLE',
          name: 'Sample Token',
          userName: 'Sample caller',
          calledAt: at - 4 * 3_600_000,
          milestone: 2,
          multiple: 2.3,
          entryMcapUsd: 41_200,
          entryMcapSol: null,
          messageId: null,
        },
      ],
    },
  };
}

/** The events, as of `at` (epoch ms): every kind's own fields filled so its card shows them all. */
export function sampleEvents(at: number): SampleTable {
  // One table, looked up by kind (sampleEvent): the groups share no kind, so none overrides another.
  return { ...marketSamples(at), ...walletSamples(at), ...chatSamples(at) };
}

/** The sample event of a kind, or null for a kind without one (only possible for a kind added at run time). */
export function sampleEvent(kind: string, at: number): AlertEvent | null {
  const samples: Readonly<Record<string, AlertEvent | undefined>> = sampleEvents(at);
  return Object.hasOwn(samples, kind) ? (samples[kind] ?? null) : null;
}
