/** Insiders selling: the holders tagged as snipers, bots or insiders together hold a quarter less within the hour; the card says how many sold and what share of the supply left them. */
import { field, joinRich, rich, bold, type Card } from '../../cards/card';
import { changeWindow, percent } from '../../text/format';
import { UNKNOWN } from '../../cards/tokenFacts';
import { base, marketFields, tokenActions, tokenLink, tokenName, walletLink } from '../cardParts';
import { detectInsidersSelling, type InsidersSellingEvent } from '../detectors/insidersSelling';
import { defineAlertKind } from '../kind';


export type { InsidersSellingEvent };

declare module '../../model/events' {
  interface AlertEventsByKind {
    'insiders-selling': InsidersSellingEvent;
  }
}

function insidersSellingCard(event: InsidersSellingEvent): Card {
  const more = event.sellerCount - event.sellers.length;
  const wallets = joinRich([...event.sellers.map((wallet) => walletLink(wallet)), more > 0 ? `and ${more} more` : ''], ', ');
  const fields = [
    field('Wallets sold', String(event.sellerCount), true),
    field('Sold', rich(bold(percent(event.droppedPct)), ` of their holdings in ${changeWindow(event.windowSecs)}`), true),
    field('Supply that left them', event.supplyPct === null ? UNKNOWN : percent(event.supplyPct), true),
    field('Wallets', wallets.length === 0 ? UNKNOWN : wallets),
    field('Token', tokenLink(event.token), true),
    ...marketFields(event.token),
  ];
  return base(event, `Insiders selling: ${tokenName(event.token)}`, fields, tokenActions(event.token));
}

export const insidersSellingKind = defineAlertKind({
  name: 'insiders-selling',
  family: 'token',
  words: ['insiders', 'snipers'],
  describe: () => 'insiders selling',
  detector: { input: 'holder', detect: (last, update) => detectInsidersSelling(last, update) },
  card: insidersSellingCard,
});
