/**
 * A kind that exists only in the tests, written as a new kind is: this one file, its descriptor.
 * "holders-up": a followed token gained holders. The test that registers it shows that following,
 * detecting, delivering and rendering it needs nothing else.
 */
import { bold, field, rich } from '../../../src/cards/card';
import { base, tokenActions, tokenLink, tokenName } from '../../../src/alerts/cardParts';
import { eventKey, tokenRef } from '../../../src/alerts/detect/eventBase';
import { defineAlertKind } from '../../../src/alerts/kind';
import type { EventBase } from '../../../src/model/events';

export interface HoldersUpEvent extends EventBase {
  kind: 'holders-up';
  from: number;
  to: number;
}

declare module '../../../src/model/events' {
  interface AlertEventsByKind {
    'holders-up': HoldersUpEvent;
  }
}

export const holdersUpKind = defineAlertKind({
  name: 'holders-up',
  family: 'token',
  words: ['holders'],
  describe: () => 'holders going up',
  detector: {
    input: 'token',
    detect(last, next) {
      const from = last.holdersCount;
      const to = next.holdersCount;
      if (from === null || to === null || to <= from) return [];
      return [
        { kind: 'holders-up', key: eventKey('holders-up', next.address, [from, to]), at: next.seenAt, token: tokenRef(next), from, to },
      ];
    },
  },
  card: (event) =>
    base(
      event,
      `Holders up: ${tokenName(event.token)}`,
      [field('Holders', rich(`${event.from} → `, bold(String(event.to))), true), field('Token', tokenLink(event.token), true)],
      tokenActions(event.token),
    ),
});
