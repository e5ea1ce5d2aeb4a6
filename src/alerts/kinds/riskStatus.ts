/**
 * A token's risk status changed (SAFE, WARNING, DANGER); the flags behind it are named: those that
 * changed with it, or those that make it so.
 *
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
import { bold, field, rich, type Card } from '../../cards/card';
import type { RiskStatusEvent, FlagState } from '../../model/events';
import { base, marketFields, status, tokenActions, tokenLink, tokenName } from '../cardParts';
import { defineAlertKind } from '../kind';
import { flagChangeText, flagStateText, analysisRead, flagChanges } from './riskFlag';
import type { TokenSnapshot } from '../../model/snapshot';
import { eventKey, tokenChange } from '../detect/eventBase';
import { normalizeStatus } from '../detect/normalizeStatus';

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
      ...tokenChange(last, next),
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

/**
 * The flags behind the new status when none changed with it: those whose state agrees with it (the
 * clear ones for SAFE, the risky ones otherwise); when none does, the status rests on what the
 * service weighs besides the flags (liquidity, how much the largest holders own), and the card says so.
 */
function behindIt(event: RiskStatusEvent, to: string): string | null {
  if (event.flagsNow === undefined) return null;
  const safe = to === 'SAFE';
  const agreeing = event.flagsNow.map((state) => flagStateText(state, event.token)).filter((state) => state.ok === safe);
  if (agreeing.length > 0) return agreeing.map((state) => state.text).join('\n');
  return safe
    ? 'No flag is clear; the service weighs more than the flags'
    : 'No risk flag is set; the service weighs more than the flags: liquidity, and how much the largest holders own';
}

function riskStatusCard(event: RiskStatusEvent): Card {
  const from = status(event.from);
  const to = status(event.to);
  const fields = [field('Status', rich(bold(from), ' → ', bold(to)), true), field('Token', tokenLink(event.token), true)];
  if (event.flags.length > 0)
    fields.push(field('Changed with it', event.flags.map((change) => flagChangeText(change, event.token)).join('\n')));
  else {
    const behind = behindIt(event, to);
    if (behind !== null) fields.push(field('Behind it', behind));
  }
  // The status field says the risk already: the market's own would repeat it.
  fields.push(...marketFields(event.token).filter((entry) => entry.name !== 'Risk'));
  return base(
    event,
    `Risk ${from} → ${to}: ${tokenName(event.token)}`,
    fields,
    tokenActions(event.token),
    rich('Risk status changed from ', bold(from), ' to ', bold(to), '.'),
  );
}

export const riskStatusKind = defineAlertKind({
  name: 'risk-status',
  family: 'token',
  words: ['status'],
  groups: ['risk'],
  describe: () => 'risk status',
  detector: { input: 'token', detect: (last, next) => detectRiskStatus(last, next) },
  // A status change carries the flags that changed with it: a follow of flags alone is told too.
  tells: (_follow, event, wants) => wants('risk-status') || (event.flags.length > 0 && wants('risk-flag')),
  card: riskStatusCard,
});
