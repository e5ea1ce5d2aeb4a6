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
  const loaded = loadedNames(context.commands);
  let kept = 0;
  for (const action of card.actions) if (loaded.has(action.command)) kept += 1;
  return kept === card.actions.length ? card : { ...card, actions: card.actions.filter((action) => loaded.has(action.command)) };
}

/** The names of each list of loaded commands, read once per list: a chat's Dispatcher hands over the same list on every run. */
const namesByList = new WeakMap<readonly AnyCommand[], ReadonlySet<string>>();

function loadedNames(commands: readonly AnyCommand[]): ReadonlySet<string> {
  let names = namesByList.get(commands);
  if (names === undefined) {
    names = new Set(commands.map((known) => known.name));
    namesByList.set(commands, names);
  }
  return names;
}
