/**
 * Risk status changed: SAFE → WARNING, WARNING → DANGER, DANGER → SAFE… with the flags that changed
 * with it. A status that was not read on either side (null) is not a change: "unknown → SAFE" is
 * not news. Statuses compare without case or surrounding blanks, as the cards show them.
 *
 * The event also carries every flag as it stands (flagsNow), so that a status change with no flag
 * changed can still name the flags that make the new status.
 *
 * Key: the token, from, to, and the time of the state it changed from (`last.seenAt`). A status
 * flipping back and forth alerts at every flip (each flip leaves a different state behind), while
 * the stream and a reconciliation comparing the same last-seen state with the same news agree.
 */
import type { FlagState, RiskStatusEvent } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, ownSyncedAt, tokenRef } from './key';
import { analysisRead, flagChanges } from './riskFlag';
import { normalizeStatus } from './status';

export { normalizeStatus };

export function detectRiskStatus(last: TokenSnapshot | null, next: TokenSnapshot): RiskStatusEvent[] {
  // The same text is the same status: the usual push, settled without normalizing either.
  if (last === null || last.riskStatus === next.riskStatus) return [];
  const from = normalizeStatus(last.riskStatus);
  const to = normalizeStatus(next.riskStatus);
  if (from === null || to === null || from === to) return [];
  return [
    {
      kind: 'risk-status',
      key: eventKey('risk-status', next.address, [from, to, last.seenAt]),
      at: next.seenAt,
      token: tokenRef(next),
      syncedAt: ownSyncedAt(last, next),
      from,
      to,
      flags: flagChanges(last, next),
      ...(analysisRead(next) ? { flagsNow: flagsNow(next) } : {}),
    },
  ];
}

/** Every flag of the snapshot as it stands (blank authorities read as none, as flagChanges reads them). */
function flagsNow(snapshot: TokenSnapshot): FlagState[] {
  const authority = (value: string | null) => (value === null || value.trim() === '' ? null : value);
  return [
    { flag: 'mintAuthority', value: authority(snapshot.mintAuthority) },
    { flag: 'freezeAuthority', value: authority(snapshot.freezeAuthority) },
    { flag: 'mutable', value: snapshot.isMutable === null ? null : String(snapshot.isMutable) },
    { flag: 'ownerBalance', value: snapshot.ownerBalance },
  ];
}
