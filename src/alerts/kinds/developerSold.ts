/**
 * Developer sold: the deployer's share sold reached 25%, 50% or 100% for the first time; the card
 * gives the share, the SOL received and the time since launch.
 *
 * Developer sold: the deployer's share sold (src/alerts/developerSold.ts: sold / (sold + held),
 * from its holder record on holders-live) reaches 25%, 50% or 100% for the first time.
 *
 * Baseline: the first record of the deployer ever read (in the first holders list, or live when
 * the deployer is not among the largest holders) sets the line reached without alerting: a sale
 * made before the token was followed is not news. After a reconnection holders-live sends its list
 * again and it is compared, so a line crossed while the socket was down is still told; the line
 * reached is kept in the token's state, so each line is told once, even across a restart. Lines
 * passed together (0 → 100% in one sale) are one alert, at the highest.
 *
 * Key: token and the line.
 */
import { bold, field, rich, type Card } from '../../cards/card';
import { duration, percent, sol } from '../../text/format';
import { UNKNOWN } from '../../cards/tokenFacts';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { defineAlertKind } from '../kind';
import type { TokenSnapshot } from '../../model/snapshot';
import { developerSoldLine, developerSoldPct } from '../developerSold';
import type { EventBase } from '../../model/events';
import type { HolderUpdate } from '../detect/inputs';
import { eventKey, holderSyncedAt, tokenRef } from '../detect/eventBase';

export interface DeveloperSoldEvent extends EventBase {
  kind: 'developer-sold';
  /** The deployer. */
  wallet: string;
  /** The line reached (25, 50 or 100) and the share sold itself, in percent of what the deployer had. */
  line: number;
  soldPct: number;
  /** SOL the deployer's sales brought it (the record's totalSoldETH); null when not shown. */
  solReceived: number | null;
  /** Epoch seconds of the token's creation; null when not shown. */
  launchedAt: number | null;
}

export function detectDeveloperSold(last: TokenSnapshot, update: HolderUpdate): DeveloperSoldEvent[] {
  const before = last.devSoldLine;
  if (before === undefined) return [];
  if (update.snapshot && (last.holdersSeenAt === null || last.holdersSeenAt === undefined)) return [];
  const line = developerSoldLine(last, update.holder);
  const pct = developerSoldPct(last, update.holder);
  if (line === null || pct === null || line <= before) return [];
  const received = update.holder.totalSoldETH;
  return [
    {
      kind: 'developer-sold',
      key: eventKey('developer-sold', last.address, [line]),
      at: update.at,
      syncedAt: holderSyncedAt(update.holder),
      token: tokenRef(last),
      wallet: update.holder.address,
      line,
      soldPct: pct,
      solReceived: received === null || received === undefined || !Number.isFinite(received) ? null : received,
      launchedAt: last.createdAt ?? null,
    },
  ];
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    'developer-sold': DeveloperSoldEvent;
  }
}

function developerSoldCard(event: DeveloperSoldEvent): Card {
  const sinceLaunch = event.launchedAt === null ? UNKNOWN : duration(Math.max(0, Math.round(event.at / 1000 - event.launchedAt)));
  const fields = [
    field('Sold', rich(bold(percent(event.soldPct)), ' of its tokens'), true),
    field('Received', event.solReceived === null ? UNKNOWN : sol(event.solReceived), true),
    field('Since launch', sinceLaunch, true),
    field('Developer', walletLink(event.wallet), true),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  const title =
    event.line >= 100 ? `Developer sold out: ${tokenName(event.token)}` : `Developer sold ${event.line}%: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token, [{ label: 'Wallet', command: 'wallet', args: [event.wallet] }]));
}

export const developerSoldKind = defineAlertKind({
  name: 'developer-sold',
  family: 'token',
  words: ['dev', 'developer'],
  describe: () => 'developer sales',
  detector: { input: 'holder', detect: (last, update) => detectDeveloperSold(last, update) },
  card: developerSoldCard,
});
