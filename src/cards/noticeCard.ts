/**
 * Short answers that are not failures: a command refused by its policy (manager only, cooldown)
 * and a button that can no longer be pressed. Each says what happened and what to do instead;
 * chats show them only to the person who asked, where they can.
 */
import { code, rich, type Card } from './card';
import { waitText } from './errorCard';

/** Neutral: the warning colour names a token's risk status, and a notice is about none. */
function notice(title: string, ...description: Parameters<typeof rich>): Card {
  return { title, description: rich(...description), color: 'neutral', fields: [], actions: [] };
}

/** `name` is a loaded command's own name, never text a person typed. */
export function managerOnlyCard(name: string): Card {
  return notice('Managers only', code(`/${name}`), ' changes this chat, so only someone who manages it may run it.');
}

/** A second run within the command's cooldown. */
export function cooldownCard(name: string, waitMs: number): Card {
  return notice('Slow down', code(`/${name}`), ` was just run; wait ${waitText(waitMs)} before running it again.`);
}

export type GoneReason = 'expired' | 'unknown' | 'wrong-chat';

/** A pressed button whose action is gone: expired, forgotten (a restart) or shown in another chat. */
export function actionGoneCard(reason: GoneReason): Card {
  switch (reason) {
    case 'expired':
      return notice('Button expired', 'This button is too old to press. Run the command again for fresh buttons.');
    case 'unknown':
      return notice(
        'Button no longer known',
        'The bot no longer knows this button (it may have restarted). Run the command again for fresh buttons.',
      );
    case 'wrong-chat':
      return notice('Button from another chat', 'This button belongs to the chat it was first shown in. Run the command here instead.');
  }
}
