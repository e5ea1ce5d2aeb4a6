import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card';
import { withLoadedActions } from '../../src/dispatch/loadedActions';

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

describe('withLoadedActions', () => {
  it('leaves off actions that name a command this installation has not loaded', () => {
    const answer = withLoadedActions(card, new Set(['look', 'help']));
    expect(answer.actions.map((action) => action.command)).toEqual(['help', 'look']);
    expect(card.actions).toHaveLength(3);
  });

  it('keeps the card as it is when each action names a loaded command', () => {
    expect(withLoadedActions(card, new Set(['look', 'help', 'track']))).toBe(card);
  });
});
