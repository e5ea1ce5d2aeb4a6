/**
 * A platform's alert sender that marks every card it sends as simulated data: alerts, digests and
 * the plain card of an alert whose own could not be built all leave through a sender, so marking
 * here covers each of them on every platform. The marked card of a card is always the same object,
 * so a sender that renders once per card (renderOnce) still does.
 */
import { withSimulatedData } from '../cards/simulatedData';
import type { AlertSender } from './sender';

export function simulatedDataSender(sender: AlertSender): AlertSender {
  return {
    platform: sender.platform,
    ...(sender.concurrency === undefined ? {} : { concurrency: sender.concurrency }),
    send: (chat, card, buttons, key) => sender.send(chat, withSimulatedData(card), buttons, key),
  };
}
