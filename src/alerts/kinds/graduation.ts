/** Graduation: a token whose pools were all on its launch protocol got a pool on another; the card names the new pool, its protocol and its liquidity. */
import { bold, field, rich, type Card } from '../../cards/card';
import { untrusted } from '../../text/sanitize';
import { base, lamports, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { detectGraduation, type GraduationEvent } from '../detectors/graduation';
import { defineAlertKind } from '../kind';


export type { GraduationEvent };

declare module '../../model/events' {
  interface AlertEventsByKind {
    graduation: GraduationEvent;
  }
}

/** Protocol names are the service's text: cleaned and cut like any name. */
const PROTOCOL_MAX = 32;

function graduationCard(event: GraduationEvent): Card {
  const from = untrusted(event.launchProtocol, PROTOCOL_MAX, '?');
  const to = untrusted(event.protocol, PROTOCOL_MAX, '?');
  const fields = [
    field('Protocol', rich(`${from} → `, bold(to)), true),
    field('New pool', walletLink(event.poolAddress), true),
    field('Pool liquidity', lamports(event.quoteReserves), true),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  return base(event, `Graduated: ${tokenName(event.token)}`, fields, tokenActions(event.token));
}

export const graduationKind = defineAlertKind({
  name: 'graduation',
  family: 'token',
  words: ['graduated', 'graduations'],
  describe: () => 'graduation',
  detector: { input: 'token', detect: (last, next) => detectGraduation(last, next) },
  card: graduationCard,
});
