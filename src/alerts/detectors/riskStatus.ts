/**
 * Risk status changed: SAFE → WARNING, WARNING → DANGER, DANGER → SAFE… with the flags that changed
 * with it. A status that was not read on either side (null) is not a change: "unknown → SAFE" is
 * not news. Statuses compare without case or surrounding blanks, as the cards show them.
 *
 * Key: the token, from, to, and the time of the state it changed from (`last.seenAt`). A status
 * flipping back and forth alerts at every flip (each flip leaves a different state behind), while
 * the stream and a reconciliation comparing the same last-seen state with the same news agree.
 */
import type { RiskStatusEvent } from '../../model/events';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenRef } from './key';
import { flagChanges } from './riskFlag';
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
      from,
      to,
      flags: flagChanges(last, next),
    },
  ];
}
