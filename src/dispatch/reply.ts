/** What a chat shows for a command, an action or an alert: a card and its buttons. */
import type { Card } from '../cards/card';
import type { ActionButton } from '../model/chat';

export interface ChatReply {
  card: Card;
  buttons: ActionButton[];
  /** Shown only to the person who asked, where the platform can (Discord); errors and refusals. */
  ephemeral: boolean;
  /** Set on failures: the id that the log line carries too. */
  errorId: string | null;
}
