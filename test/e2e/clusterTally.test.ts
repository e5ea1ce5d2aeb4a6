/**
 * The tally of the tests of several processes (clusterTally.ts) counts alerts, not messages: a
 * digest of six is six alerts, and an alert told again inside a later digest is a repeat, which
 * fails the tally unless a kill or a stall between the two explains it. The messages are the
 * product's own: risk-status cards and digests of them, rendered for Telegram and Discord.
 */
import { describe, expect, it } from 'vitest';
import { alertCard } from '../../src/alerts/alertCard';
import type { Card } from '../../src/cards/card';
import { renderCard } from '../../src/chats/discord/embed';
import { renderCardMessages } from '../../src/chats/telegram/html';
import { digestCard } from '../../src/delivery/digest';
import type { RiskStatusEvent } from '../../src/model/events';
import { copiesIn, statusAlertsIn, tallyAlerts, toldOnce, type Copy } from './clusterTally';

const SYMBOLS = ['MOCHI', 'PUMP', 'BULL', 'MOON', 'FROG', 'CAT'];

function change(symbol: string, from: string, to: string): Card {
  const event: RiskStatusEvent = {
    kind: 'risk-status',
    key: `risk-status:${symbol}:${from}:${to}`,
    at: 1_700_000_000_000,
    token: { address: `${symbol}Address11111111111111111111111111`, symbol, name: `Neon ${symbol}`, riskStatus: to },
    from,
    to,
    flags: [],
  };
  return alertCard(event, null);
}

/** One round's changes: every token flipped the same way. */
const round = (from: string, to: string): Card[] => SYMBOLS.map((symbol) => change(symbol, from, to));

function telegram(card: Card): string {
  return renderCardMessages(card)
    .map((message) => (message.kind === 'text' ? message.html : ''))
    .join('\n');
}

const discord = (card: Card): string => JSON.stringify(renderCard(card).embeds);

/** The chat's messages, each at its time, as the copies of MOCHI's alerts. */
function mochi(messages: Array<{ at: number; card: Card }>): Copy[] {
  return messages.flatMap((message) => copiesIn({ at: message.at, text: telegram(message.card) }, 'MOCHI'));
}

describe('the tally of alerts to each chat', () => {
  it('reads each alert of a message, alone or inside a digest, on Telegram and on Discord', () => {
    const single = change('MOCHI', 'WARNING', 'DANGER');
    const digest = digestCard([...round('WARNING', 'DANGER'), change('MOCHI', 'DANGER', 'WARNING')], new Date());
    expect(statusAlertsIn(telegram(single), 'MOCHI')).toEqual(['WARNING → DANGER']);
    expect(statusAlertsIn(discord(single), 'MOCHI')).toEqual(['WARNING → DANGER']);
    expect(statusAlertsIn(telegram(digest), 'MOCHI')).toEqual(['WARNING → DANGER', 'DANGER → WARNING']);
    expect(statusAlertsIn(discord(digest), 'MOCHI')).toEqual(['WARNING → DANGER', 'DANGER → WARNING']);
    // A token whose symbol another's contains is not counted for it.
    expect(statusAlertsIn(telegram(change('MOCHIX', 'WARNING', 'DANGER')), 'MOCHI')).toEqual([]);
  });

  // The run that failed: a digest of a round's six alerts, then a digest of eight holding them again
  // with two of the next round's, then the next round's others one by one.
  const reported = (explains: boolean) => {
    const copies = mochi([
      { at: 1_000, card: digestCard(round('WARNING', 'DANGER'), new Date()) },
      {
        at: 2_000,
        card: digestCard(
          [...round('WARNING', 'DANGER'), change('PUMP', 'DANGER', 'WARNING'), change('BULL', 'DANGER', 'WARNING')],
          new Date(),
        ),
      },
      { at: 3_000, card: change('MOCHI', 'DANGER', 'WARNING') },
    ]);
    return tallyAlerts([{ what: 'telegram:-1009002 MOCHI', copies }], 2, () => explains);
  };

  it('fails on an alert told again inside a later digest when nothing explains it', () => {
    expect(() => reported(false)).toThrow(/a repeat nothing explains/);
  });

  it('counts that repeat apart when a kill between the two explains it', () => {
    expect(reported(true)).toEqual({ expected: 2, delivered: 3, explained: 1 });
  });

  it('fails when a repeat stands in for a round that never came, and does not count it as that round’s', () => {
    const copies = mochi([
      { at: 1_000, card: change('MOCHI', 'WARNING', 'DANGER') },
      { at: 2_000, card: digestCard(round('WARNING', 'DANGER'), new Date()) },
    ]);
    expect(toldOnce(copies)).toBe(1);
    expect(() => tallyAlerts([{ what: 'telegram:-1009002 MOCHI', copies }], 2, () => true)).toThrow(
      /2 alerts \(1 told again\) for 2 changes/,
    );
  });

  it('passes one alert a round, alone or in digests', () => {
    const copies = mochi([
      { at: 1_000, card: change('MOCHI', 'WARNING', 'DANGER') },
      { at: 2_000, card: digestCard(round('DANGER', 'WARNING'), new Date()) },
      { at: 3_000, card: change('MOCHI', 'WARNING', 'DANGER') },
    ]);
    expect(tallyAlerts([{ what: 'telegram:-1009002 MOCHI', copies }], 3, () => false)).toEqual({ expected: 3, delivered: 3, explained: 0 });
  });
});
