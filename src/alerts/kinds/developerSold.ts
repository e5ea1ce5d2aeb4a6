/** Developer sold: the deployer's share sold reached 25%, 50% or 100% for the first time; the card gives the share, the SOL received and the time since launch. */
import { bold, field, rich, type Card } from '../../cards/card';
import { duration, percent, sol } from '../../text/format';
import { UNKNOWN } from '../../cards/tokenFacts';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { detectDeveloperSold, type DeveloperSoldEvent } from '../detectors/developerSold';
import { defineAlertKind } from '../kind';


export type { DeveloperSoldEvent };

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
  const title = event.line >= 100 ? `Developer sold out: ${tokenName(event.token)}` : `Developer sold ${event.line}%: ${tokenName(event.token)}`;
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
