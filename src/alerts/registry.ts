/**
 * The alert kinds the bot knows, in the order their alerts are listed: the built-in ones, and any
 * registered beside them. Fan-out, the watcher, `/track`, the follow cards and the alert card read
 * this list; nothing else names the kinds.
 */
import type { AlertFamily, AlertKindDescriptor } from './kind';

/** What a detector reads: a token, a holder record, a wallet's trades. */
type DetectorInput = NonNullable<AlertKindDescriptor['input']>;
import { liquidityKind } from './kinds/liquidity';
import { priceKind } from './kinds/price';
import { riskFlagKind } from './kinds/riskFlag';
import { riskStatusKind } from './kinds/riskStatus';
import { targetKind } from './kinds/target';
import { dailyDigestKind } from './kinds/dailyDigest';
import { callMilestoneKind } from './kinds/callMilestone';
import { walletTradeKind } from './kinds/walletTrade';
import { whaleKind } from './kinds/whale';
import { graduationKind } from './kinds/graduation';
import { developerSoldKind } from './kinds/developerSold';
import { insidersSellingKind } from './kinds/insidersSelling';
import { walletClusterKind } from './kinds/walletCluster';

const kinds = new Map<string, AlertKindDescriptor>();
/** The kinds by what their detector reads, kept as the list changes: the watcher asks per frame. */
let byInput: Record<DetectorInput, readonly AlertKindDescriptor[]> = { token: [], holder: [], trades: [] };

function indexed(): void {
  const all = [...kinds.values()];
  byInput = {
    token: all.filter((kind) => kind.input === 'token'),
    holder: all.filter((kind) => kind.input === 'holder'),
    trades: all.filter((kind) => kind.input === 'trades'),
  };
}

/** Adds a kind (after the built-in ones); returns the function that removes it again. */
export function registerAlertKind(kind: AlertKindDescriptor): () => void {
  if (kinds.has(kind.name)) throw new Error(`an alert kind named ${kind.name} is registered already`);
  kinds.set(kind.name, kind);
  indexed();
  return () => {
    if (kinds.get(kind.name) === kind) kinds.delete(kind.name);
    indexed();
  };
}

for (const kind of [
  riskStatusKind,
  riskFlagKind,
  liquidityKind,
  priceKind,
  walletTradeKind,
  whaleKind,
  graduationKind,
  developerSoldKind,
  insidersSellingKind,
  walletClusterKind,
  targetKind,
  dailyDigestKind,
  callMilestoneKind,
])
  registerAlertKind(kind);

/**
 * Removes a kind by its name, a built-in one too; whether it was registered. The bench measures
 * the alert path with and without some kinds (BENCH_ALERTS_WITHOUT_KINDS in bench/alerts.ts).
 */
export function removeAlertKind(name: string): boolean {
  const had = kinds.delete(name);
  if (had) indexed();
  return had;
}

export function alertKinds(): readonly AlertKindDescriptor[] {
  return [...kinds.values()];
}

export function alertKind(name: string): AlertKindDescriptor | undefined {
  return kinds.get(name);
}

export function kindsOfFamily(family: AlertFamily): readonly AlertKindDescriptor[] {
  return [...kinds.values()].filter((kind) => kind.family === family);
}

export function kindsReading(input: DetectorInput): readonly AlertKindDescriptor[] {
  return byInput[input];
}
