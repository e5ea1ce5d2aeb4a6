/** A CommandContext for calling a command's `run` directly, as the Dispatcher would, in a test chat. */
import type { Card } from '../../src/cards/card';
import { cardForError } from '../../src/cards/errorCard';
import type { ChatRef } from '../../src/model/chat';
import type { AnyCommand, CommandContext } from '../../src/dispatch/command';
import type { QueryService } from '../../src/query/service';

export const TEST_CHAT: ChatRef = { platform: 'console', chatId: 'test', threadId: null, scopeId: null };

export function commandContext(options: { commands: readonly AnyCommand[]; query?: QueryService; now?: () => Date }): CommandContext {
  return {
    // Commands that never call the query service (help) need none.
    query: options.query ?? (undefined as unknown as QueryService),
    commands: options.commands,
    chat: TEST_CHAT,
    userId: 'tester',
    now: options.now ?? (() => new Date()),
  };
}

/** The card a person sees for a query: its answer, or the error card the Dispatcher makes of its failure. */
export function answered(card: Promise<Card>): Promise<Card> {
  return card.catch((error: unknown) => cardForError(error));
}
