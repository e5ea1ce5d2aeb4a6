/**
 * Runs a command for a chat. A card may offer actions for commands this installation does not
 * have (a look-up offers "Track" before tracking is set up): those are left off, so that no
 * button or hint ever leads to "Unknown command".
 */
import type { Card } from '../cards/card';
import type { AnyCommand, CommandContext } from './command';

export type CommandArgs = Parameters<AnyCommand['run']>[0];

export async function runCommand(command: AnyCommand, args: CommandArgs, context: CommandContext): Promise<Card> {
  const card = await command.run(args, context);
  const loaded = new Set(context.commands.map((known) => known.name));
  const actions = card.actions.filter((action) => loaded.has(action.command));
  return actions.length === card.actions.length ? card : { ...card, actions };
}
