/** A token's risk status changed (SAFE, WARNING, DANGER); the flags behind it are named: those that changed with it, or those that make it so. */
import { bold, field, rich, type Card } from '../../cards/card';
import type { RiskStatusEvent } from '../../model/events';
import { base, marketFields, status, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectRiskStatus } from '../detectors/riskStatus';
import { defineAlertKind } from '../kind';
import { flagChangeText, flagStateText } from './riskFlag';

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
  return safe ? 'No flag is clear; the service weighs more than the flags' : 'No risk flag is set; the service weighs more than the flags: liquidity, and how much the largest holders own';
}

function riskStatusCard(event: RiskStatusEvent): Card {
  const from = status(event.from);
  const to = status(event.to);
  const fields = [field('Status', rich(bold(from), ' → ', bold(to)), true), field('Token', tokenLink(event.token), true)];
  if (event.flags.length > 0) fields.push(field('Changed with it', event.flags.map((change) => flagChangeText(change, event.token)).join('\n')));
  else {
    const behind = behindIt(event, to);
    if (behind !== null) fields.push(field('Behind it', behind));
  }
  // The status field says the risk already: the market's own would repeat it.
  fields.push(...marketFields(event.token).filter((entry) => entry.name !== 'Risk'));
  return base(event, `Risk ${from} → ${to}: ${tokenName(event.token)}`, fields, tokenActions(event.token), rich('Risk status changed from ', bold(from), ' to ', bold(to), '.'));
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
