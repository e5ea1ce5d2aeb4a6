import { describe, expect, it } from 'vitest';
import { commandContext } from '../support/commandContext';
import { exampleOf } from '../../src/cards/helpCard';
import type { AnyCommand, OptionSpec } from '../../src/dispatch/command';
import { parseCommandLine } from '../../src/dispatch/parseArgs';
import { loadCommands } from '../../src/dispatch/registry';
import { startTestMarket } from '../support/market';

/** What every option must satisfy beyond the registry's own name and length rules. */
function optionProblems(option: OptionSpec): string[] {
  const problems: string[] = [];
  switch (option.type) {
    case 'address':
      break;
    case 'addresses':
      if (!Number.isInteger(option.max) || option.max < 1) problems.push('max must be a whole number of at least 1');
      break;
    case 'choice': {
      if (option.choices.length === 0 || option.choices.length > 25) problems.push('needs 1–25 choices');
      const values = option.choices.map((choice) => choice.value.toLowerCase());
      if (new Set(values).size !== values.length) problems.push('repeats a choice');
      if (option.choices.some((choice) => choice.value.trim() === '' || choice.label.trim() === '')) problems.push('has an empty choice');
      break;
    }
    case 'number':
      if (option.min !== undefined && option.max !== undefined && option.min > option.max) problems.push('min is above max');
      break;
    case 'duration':
      if (option.minSecs !== undefined && option.minSecs < 1) problems.push('minSecs below one second');
      if (option.minSecs !== undefined && option.maxSecs !== undefined && option.minSecs > option.maxSecs)
        problems.push('minSecs is above maxSecs');
      break;
    case 'text':
      if (option.maxLength !== undefined && option.maxLength < 1) problems.push('maxLength below 1');
      break;
  }
  return problems;
}

describe('the commands folder', async () => {
  const commands: AnyCommand[] = await loadCommands();

  it('holds every command of the look-up set, with unique names', () => {
    const names = commands.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['token', 'technicals', 'holders', 'trades', 'wallet', 'chart', 'help']) expect(names).toContain(name);
  });

  it.each(commands.map((command) => [command.name, command] as const))('/%s has valid options', (_name, command) => {
    for (const option of command.options) expect(optionProblems(option), `${command.name} ${option.name}`).toEqual([]);
  });

  it.each(commands.map((command) => [command.name, command] as const))('/%s has help with an example that parses', (_name, command) => {
    expect(command.description.length).toBeGreaterThan(0);
    expect(command.help.trim().length).toBeGreaterThan(command.description.length / 2);
    const example = exampleOf(command);
    expect(example, `${command.name} has no "Example: /${command.name} …" line`).not.toBeNull();
    const parsed = parseCommandLine(example ?? '', commands);
    expect(parsed?.command.name).toBe(command.name);
    for (const option of command.options.filter((o) => o.required)) expect(parsed?.args[option.name]).toBeDefined();
  });
});

describe('the examples on the seed-42 simulator', async () => {
  const commands: AnyCommand[] = await loadCommands();

  it.each(['trades', 'wallet', 'chart', 'help'])('/%s answers its example with data', async (name) => {
    const command = commands.find((candidate) => candidate.name === name);
    if (!command) throw new Error(`no /${name}`);
    const market = await startTestMarket();
    try {
      const parsed = parseCommandLine(exampleOf(command) ?? '', commands);
      if (!parsed) throw new Error('example did not parse');
      const card = await parsed.command.run(parsed.args, commandContext({ query: market.query, commands }));
      expect(card.color, card.title).not.toBe('error');
      expect(card.color, card.title).not.toBe('neutral');
      expect(card.fields.length).toBeGreaterThan(0);
    } finally {
      await market.close();
    }
  });
});
