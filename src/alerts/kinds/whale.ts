/** A whale came or went: a wallet's share of supply crossed the whale share, read from holders-live; the card gives the wallet, its share before and after, and a Wallet button (/wallet). */
import { bold, field, rich, type Card } from '../../cards/card';
import type { WhaleEvent } from '../../model/events';
import { percent } from '../../text/format';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { detectWhale } from '../detectors/whale';
import { defineAlertKind } from '../kind';

function whaleCard(event: WhaleEvent): Card {
  const from = event.fromPct === null ? 'under 1%' : percent(event.fromPct);
  const fields = [
    field('Share of supply', rich(`${from} → `, bold(percent(event.toPct))), true),
    field('Wallet', walletLink(event.wallet), true),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  const title = `Whale ${event.direction === 'in' ? 'in' : 'out'}: ${tokenName(event.token)}`;
  return base(event, title, fields, tokenActions(event.token, [{ label: 'Wallet', command: 'wallet', args: [event.wallet] }]));
}

export const whaleKind = defineAlertKind({
  name: 'whale',
  family: 'token',
  words: ['whales'],
  describe: () => 'whales',
  detector: { input: 'holder', detect: (last, update) => detectWhale(last, update) },
  card: whaleCard,
});
