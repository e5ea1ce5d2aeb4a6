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
  const loaded = namesOf(context.commands);
  let kept = 0;
  for (const action of card.actions) if (loaded.has(action.command)) kept += 1;
  if (kept === card.actions.length) return card;
  return { ...card, actions: card.actions.filter((action) => loaded.has(action.command)) };
}

/** The names of a set of loaded commands, read once per set: a chat runs every command against the same one. */
const loadedNames = new WeakMap<readonly AnyCommand[], ReadonlySet<string>>();

function namesOf(commands: readonly AnyCommand[]): ReadonlySet<string> {
  let names = loadedNames.get(commands);
  // A list that grew since (a test adding a command) is read again.
  if (names === undefined || names.size !== commands.length) {
    names = new Set(commands.map((known) => known.name));
    loadedNames.set(commands, names);
  }
  return names;
}
