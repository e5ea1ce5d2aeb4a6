import { describe, expect, it } from 'vitest';
import { commandContext } from '../support/commandContext';
import type { Card } from '../../src/cards/card';
import { defineCommand, type AnyCommand, type CommandContext } from '../../src/dispatch/command';
import { runCommand } from '../../src/dispatch/runCommand';
import type { QueryService } from '../../src/query/service';

const card: Card = {
  title: 'A card',
  color: 'info',
  fields: [],
  actions: [
    { label: 'Help', command: 'help', args: [] },
    { label: 'Track', command: 'track', args: ['x'] },
    { label: 'Look', command: 'look', args: ['y'] },
  ],
};

function command(name: string): AnyCommand {
  return defineCommand({ name, description: `${name} things`, help: name, options: [], run: async () => card });
}

function context(commands: AnyCommand[]): CommandContext {
  return commandContext({ commands });
}

describe('runCommand', () => {
  it('leaves off actions that name a command this installation has not loaded', async () => {
    const look = command('look');
    const answer = await runCommand(look, {}, context([look, command('help')]));
    expect(answer.actions.map((action) => action.command)).toEqual(['help', 'look']);
    expect(card.actions).toHaveLength(3);
  });

  it('keeps every action when each names a loaded command', async () => {
    const look = command('look');
    const answer = await runCommand(look, {}, context([look, command('help'), command('track')]));
    expect(answer.actions).toEqual(card.actions);
  });
});
