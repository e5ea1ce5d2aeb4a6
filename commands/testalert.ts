/**
 * /testalert: one sample alert of every kind, sent to this chat as real alerts are (through the
 * chat's platform sender), so a manager sees each card's layout and finds out whether the bot may
 * post here before a real alert needs to. Each is marked as a sample in its title and footer, names
 * a made-up token, and carries no buttons (a Mute on a made-up token would only confuse). The
 * samples come from the kinds registry, so a new kind shows up here with its sample.
 *
 * Manager-only with a cooldown: it posts a dozen messages into a chat at once.
 */
import { field, rich, type Card } from '../src/cards/card';
import { alertKinds } from '../src/alerts/registry';
import { sampleEvent } from '../src/alerts/samples';
import { defineCommand } from '../src/dispatch/command';
import { ServiceMissingError } from '../src/dispatch/services';
import { cleanText } from '../src/text/sanitize';

export const SAMPLE_PREFIX = 'Sample: ';
const SAMPLE_FOOTER = 'Sample alert: made-up token and figures, not a real event';

/** A kind's card marked as a sample, without buttons; null for a kind with no sample event. */
export function sampleCard(kind: string, at: number): Card | null {
  const descriptor = alertKinds().find((each) => each.name === kind);
  const event = sampleEvent(kind, at);
  if (descriptor === undefined || event === null) return null;
  const card = descriptor.card(event, event.kind === 'wallet-trade' ? 'sample wallet' : null);
  return {
    ...card,
    title: `${SAMPLE_PREFIX}${card.title}`,
    footer: card.footer === undefined || card.footer === '' ? SAMPLE_FOOTER : `${SAMPLE_FOOTER} · ${card.footer}`,
    actions: [],
  };
}

export default defineCommand({
  name: 'testalert',
  description: 'Post a sample alert of each kind here, to check the bot may post and how alerts look',
  help: [
    'Posts one sample alert of every kind to this chat, as real alerts are sent, each titled "Sample:" and about a made-up token.',
    'The answer says which could not be posted (a missing permission shows here). Only chat managers may run it, once a minute.',
    'Example: /testalert',
  ].join('\n'),
  manager: true,
  cooldown: '1m',
  // A dozen posts at the platform's pace take longer than a first reply may.
  slow: true,
  options: [],
  async run(_args, ctx) {
    const send = ctx.sendToChat;
    if (send === undefined) throw new ServiceMissingError('Sending sample alerts');
    const at = ctx.now().getTime();
    let sent = 0;
    const failed: string[] = [];
    for (const kind of alertKinds()) {
      const card = sampleCard(kind.name, at);
      if (card === null) continue;
      // One after another, in the registry's order, so the chat shows them in that order.
      const outcome = await send(ctx.chat, card);
      if (outcome.status === 'sent') sent += 1;
      else failed.push(`${kind.name}: ${cleanText(outcome.reason, 200, 'not sent')}`);
    }
    const card: Card = {
      title: failed.length === 0 ? `Sent ${sent} sample alerts` : `Sent ${sent} sample alerts, ${failed.length} not sent`,
      description: rich(
        failed.length === 0
          ? 'Each kind of alert is shown above as it will look here.'
          : 'The bot could not post some of them here: check its permissions in this chat.',
      ),
      color: failed.length === 0 ? 'info' : 'error',
      fields: failed.length === 0 ? [] : [field('Not sent', failed.slice(0, 20).join('\n'))],
      actions: [],
    };
    return card;
  },
});
