/** A token's risk status changed (SAFE, WARNING, DANGER); the flags that changed with it are named. */
import { bold, field, rich, type Card } from '../../cards/card';
import type { RiskStatusEvent } from '../../model/events';
import { base, status, tokenActions, tokenLink, tokenName } from '../cardParts';
import { detectRiskStatus } from '../detectors/riskStatus';
import { defineAlertKind } from '../kind';
import { flagChangeText } from './riskFlag';

function riskStatusCard(event: RiskStatusEvent): Card {
  const from = status(event.from);
  const to = status(event.to);
  const fields = [field('Status', rich(bold(from), ' → ', bold(to)), true), field('Token', tokenLink(event.token), true)];
  if (event.flags.length > 0) fields.push(field('Changed with it', event.flags.map((change) => flagChangeText(change, event.token)).join('\n')));
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
