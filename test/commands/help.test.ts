import { describe, expect, it } from 'vitest';
import { commandContext } from '../support/commandContext';
import { plainText, type Card } from '../../src/cards/card';
import { closestCommand, helpCard } from '../../src/cards/helpCard';
import type { AnyCommand, CommandContext } from '../../src/dispatch/command';
import { parseCommandLine, usageOf } from '../../src/dispatch/parseArgs';
import { loadCommands } from '../../src/dispatch/registry';

function fields(card: Card): Record<string, string> {
  return Object.fromEntries(card.fields.map((f) => [f.name, plainText(f.value)]));
}

describe('/help', async () => {
  const commands: AnyCommand[] = await loadCommands();
  // Help reads only the command list; a query service it never calls is left out.
  const context: CommandContext = commandContext({ commands });

  async function run(line: string): Promise<Card> {
    const parsed = parseCommandLine(line, commands);
    if (parsed === null) throw new Error(`not a command: ${line}`);
    return parsed.command.run(parsed.args, context);
  }

  it('lists every command with its usage and one line', async () => {
    const card = await run('/help');
    expect(card.title).toBe('Commands');
    expect(card.color).toBe('info');
    expect(card.fields).toHaveLength(commands.length);
    for (const command of commands) expect(fields(card)[usageOf(command)]).toBe(command.description);
  });

  it('shows one command’s usage, options, help and example', async () => {
    const card = await run('/help chart');
    expect(card.title).toBe('/chart');
    const shown = fields(card);
    expect(shown.Usage).toBe('/chart <token> [interval] [range]');
    expect(shown.Options?.split('\n')).toEqual([
      'token: Token address; an address.',
      'interval (optional): Width of one candle (default 15m); one of 1m, 5m, 15m, 1h, 4h, 1d.',
      'range (optional): How far back to look (default 24h); one of 1h, 6h, 24h, 7d, 30d.',
    ]);
    expect(shown.Example).toBe('/chart 646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25 1h 7d');
    const description = plainText(card.description ?? []);
    expect(description).toContain('Summarises the token’s candles');
    expect(description).not.toContain('Example:');
  });

  it('reads a name with a slash or in capitals', async () => {
    expect((await run('/help /Trades')).title).toBe('/trades');
    expect((await run('help wallet')).title).toBe('/wallet');
  });

  it('answers an unknown name with a guess and the list', async () => {
    const card = await run('/help chrt');
    expect(card.title).toBe('No command /chrt');
    expect(plainText(card.description ?? [])).toContain('Did you mean /chart?');
    expect(card.fields).toHaveLength(commands.length);
    expect(card.actions).toEqual([{ label: 'Help chart', command: 'help', args: ['chart'] }]);

    const nothing = await run('/help zzzzzzzz');
    expect(plainText(nothing.description ?? [])).toContain('There is no such command.');
    expect(nothing.actions).toEqual([]);
  });

  it('keeps a hostile name inert', () => {
    const card = helpCard(commands, 'x\u202E\u200B<@&123> @everyone');
    expect(card.title).toBe('No such command');
    expect(JSON.stringify(card)).not.toMatch(/\u202E|\u200B|<@|@everyone/);
  });

  it('guesses by prefix or by a small edit', () => {
    expect(closestCommand(commands, 'wal')?.name).toBe('wallet');
    expect(closestCommand(commands, 'tokn')?.name).toBe('token');
    expect(closestCommand(commands, 'holdrs')?.name).toBe('holders');
    expect(closestCommand(commands, 'qqqqqq')).toBeNull();
  });
});
