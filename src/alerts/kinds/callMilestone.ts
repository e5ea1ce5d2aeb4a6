/**
 * A call's milestone (docs/calls.md): when a call's peak first reaches ×2, ×5, ×10… (CALL_MILESTONES),
 * the chat is told, as a reply to the message that made the call. Made by the peak job
 * (src/jobs/callPeaks.ts), never by a follow; the calls of one chat that reached a milestone in one
 * run go as one card, replying to the first of them. Carried whole by its event, so a card sent
 * late says what was reached then.
 */
import { lookAlikeOf } from '../../cards/lookAlike';
import { field, rich, type Card } from '../../cards/card';
import { callerName, multipleText } from '../../cards/callText';
import type { EventBase } from '../../model/events';
import { relativeTime, usd } from '../../text/format';
import { defineAlertKind } from '../kind';
import { tokenName } from '../cardParts';
import { explorerTokenUrl } from '../../cards/explorer';

/** One call that reached a milestone. */
export interface CallMilestone {
  callId: number;
  address: string;
  symbol: string;
  name: string;
  /** The caller's display name then (untrusted text). */
  userName: string;
  /** Epoch ms of the call. */
  calledAt: number;
  /** The milestone reached (2, 5, 10…), and the peak multiple itself. */
  milestone: number;
  multiple: number;
  /** Market cap at the call and at the peak, in USD (null: no rate then), else in SOL. */
  entryMcapUsd: number | null;
  entryMcapSol: number | null;
  /** The message that made the call; null where there was none. */
  messageId: string | null;
}

export interface CallMilestoneEvent extends EventBase {
  kind: 'call-milestone';
  /** Highest multiple first; `token` is the first one's. */
  calls: CallMilestone[];
}

declare module '../../model/events' {
  interface AlertEventsByKind {
    'call-milestone': CallMilestoneEvent;
  }
}

/** Lines on one card: a run that finds more is rare, and the rest are in /calls. */
const MAX_LINES = 10;

function mcapText(usdValue: number | null, solValue: number | null, multiple: number): string | null {
  if (usdValue !== null) return usd(usdValue * multiple);
  if (solValue !== null) return `${usd(solValue * multiple).replace('$', '')} SOL`;
  return null;
}

/** "×5.1 since Alice's call 4h ago: $41.2K → $210K mcap". */
export function milestoneLine(milestone: CallMilestone, at: number): string {
  const from = mcapText(milestone.entryMcapUsd, milestone.entryMcapSol, 1);
  const to = mcapText(milestone.entryMcapUsd, milestone.entryMcapSol, milestone.multiple);
  const mcap = from === null || to === null ? '' : `: ${from} → ${to} mcap`;
  return (
    `${multipleText(milestone.multiple)} since ${callerName(milestone.userName)}’s ` +
    `call ${relativeTime(milestone.calledAt / 1000, at / 1000)}${mcap}`
  );
}

/** A copy of a well-known token is marked on its own line too, not only where the card leads with its token. */
function copyMark(milestone: { address: string; symbol: string; name: string }): string {
  const real = lookAlikeOf(milestone);
  return real === null ? '' : ` ⚠️ not the real ${real.symbol}`;
}

export function callMilestoneCard(event: CallMilestoneEvent): Card {
  const [first] = event.calls;
  const shown = event.calls.slice(0, MAX_LINES);
  const url = explorerTokenUrl(event.token.address);
  const fields =
    event.calls.length === 1
      ? []
      : shown.map((milestone) =>
          field(`${tokenName(milestone)}${copyMark(milestone)} ×${milestone.milestone}`, milestoneLine(milestone, event.at)),
        );
  const more = event.calls.length - shown.length;
  return {
    title:
      event.calls.length === 1
        ? `${tokenName(event.token)} reached ×${first?.milestone ?? ''}`
        : `${event.calls.length} calls reached a milestone`,
    ...(url === null || event.calls.length > 1 ? {} : { url }),
    description: rich(
      event.calls.length === 1 && first !== undefined
        ? milestoneLine(first, event.at)
        : `Peaks since the calls, from traded candles’ closes.${more > 0 ? ` ${more} more in /calls.` : ''}`,
    ),
    color: 'info',
    fields,
    footer: 'call milestone · /calls · /leaderboard',
    timestamp: new Date(event.at),
    actions: [],
    ...(first?.messageId === null || first === undefined ? {} : { replyTo: first.messageId }),
  };
}

export const callMilestoneKind = defineAlertKind({
  name: 'call-milestone',
  family: 'chat',
  words: [],
  describe: () => 'call milestones',
  card: callMilestoneCard,
  // A reply to one message: never merged into a digest of a backlog.
  alone: true,
});
