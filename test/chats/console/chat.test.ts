/** The console chat's lines go through the Dispatcher as the console's own manager. */
import { describe, expect, it } from 'vitest';
import { answerLine, CONSOLE_CALLER, CONSOLE_CHAT } from '../../../src/chats/console/chat';
import { defineCommand } from '../../../src/dispatch/command';
import { Dispatcher } from '../../../src/dispatch/dispatcher';
import { silentLogger } from '../../../src/log';
import type { QueryService } from '../../../src/query/service';
import { MemoryActionKeyStore } from '../../support/memoryActionKeys';
import helpCommand from '../../../commands/help';

const ADDRESS = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';

const seen: string[] = [];
const commands = [
  helpCommand,
  defineCommand({
    name: 'token',
    description: 'Looks a token up',
    help: 'Test.',
    refresh: true,
    options: [{ name: 'address', type: 'address', description: 'A token', required: true }],
    run: async (args, context) => {
      seen.push(`${context.chat.platform}:${context.chat.chatId}:${context.userId}`);
      return { title: `Token ${args.address}`, color: 'info', fields: [], actions: [{ label: 'Help', command: 'help', args: ['token'] }] };
    },
  }),
  defineCommand({
    name: 'setup',
    description: 'Managers only',
    help: 'Test.',
    manager: true,
    options: [],
    run: async () => ({ title: 'Set up', color: 'info', fields: [], actions: [] }),
  }),
];

const dispatcher = new Dispatcher({
  commands,
  services: { query: undefined as unknown as QueryService },
  actionKeys: new MemoryActionKeyStore(),
  logger: silentLogger,
});

describe('the console chat', () => {
  it('is one chat whose person manages it', async () => {
    expect(CONSOLE_CHAT).toEqual({ platform: 'console', chatId: 'console', threadId: null, scopeId: null });
    expect(await CONSOLE_CALLER.isManager()).toBe(true);
    expect((await answerLine('/setup', dispatcher))?.title).toBe('Set up');
  });

  it('reads a bare address as /token and a command name without its slash, through the Dispatcher', async () => {
    seen.length = 0;
    const card = await answerLine(ADDRESS, dispatcher);
    expect(card?.title).toBe(`Token ${ADDRESS}`);
    expect((await answerLine(`token ${ADDRESS}`, dispatcher))?.title).toBe(`Token ${ADDRESS}`);
    expect(seen).toEqual(['console:console:console', 'console:console:console']);
    // A printed card is never edited, so it shows no Refresh hint.
    expect(card?.actions.map((action) => action.label)).toEqual(['Help']);
  });

  it('answers other text and failures with cards, blank lines with nothing', async () => {
    expect(await answerLine('   ', dispatcher)).toBeNull();
    expect((await answerLine('hello', dispatcher))?.title).toBe('"hello" is not a command');
    const typo = await answerLine('/token nope', dispatcher);
    expect(typo?.title).toBe('/token: "nope" is not a Solana address');
    // A mistyped option has nothing in the log to look up: no error id.
    expect(typo?.footer).toBeUndefined();
  });
});
