/**
 * What the Dispatcher counts for the operators' metrics: every run by command, platform and how it
 * ended, with its time handed to the hook; a name no command has is counted as `unknown`, never
 * under what was typed.
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card';
import { defineCommand, type AnyCommand } from '../../src/dispatch/command';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { silentLogger } from '../../src/log';
import type { QueryService } from '../../src/query/service';
import { UsageError } from '../../src/usage';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';

const card = (title: string): Card => ({ title, color: 'info', fields: [], actions: [] });

const commands: AnyCommand[] = [
  defineCommand({
    name: 'ping',
    description: 'Answers pong',
    help: 'Cooldown 10s.',
    cooldown: '10s',
    options: [],
    run: async () => card('Pong'),
  }),
  defineCommand({
    name: 'setup',
    description: 'Changes the chat',
    help: 'Managers only.',
    manager: true,
    options: [],
    run: async () => card('Set up'),
  }),
  defineCommand({
    name: 'boom',
    description: 'Fails',
    help: 'Throws.',
    options: [],
    run: async () => {
      throw new Error('unexpected');
    },
  }),
  defineCommand({
    name: 'picky',
    description: 'Refuses',
    help: 'Usage error.',
    options: [],
    run: async () => {
      throw new UsageError('not that', null, 'Say this.');
    },
  }),
];

function caller(platform: 'telegram' | 'discord', manager = false): CommandCaller {
  return { chat: { platform, chatId: '-100', threadId: null, scopeId: null }, userId: 'u1', isManager: async () => manager };
}

describe('the Dispatcher’s counts', () => {
  it('counts each run by command, platform and result, and times each one', async () => {
    const timed: string[] = [];
    const dispatcher = new Dispatcher({
      commands,
      services: { query: undefined as unknown as QueryService },
      actionKeys: new MemoryActionKeyStore(),
      logger: silentLogger,
      onAnswered: (command, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        timed.push(command);
      },
    });
    await dispatcher.runLine('/ping', caller('telegram'));
    await dispatcher.runLine('/ping', caller('telegram'));
    await dispatcher.runLine('/ping', caller('discord'));
    await dispatcher.runLine('/setup', caller('telegram'));
    await dispatcher.runLine('/setup', caller('telegram', true));
    await dispatcher.runLine('/boom', caller('telegram'));
    await dispatcher.runLine('/picky', caller('telegram'));
    await dispatcher.runLine('/ping@me extra words', caller('telegram'));
    await dispatcher.runLine('/<b>0xDEADBEEF@everyone', caller('discord'));

    const counts = dispatcher.counters().map((entry) => `${entry.command} ${entry.platform} ${entry.result} ${entry.count}`);
    expect(counts.sort()).toEqual(
      [
        'ping telegram ok 1',
        'ping telegram cooldown 1',
        'ping discord ok 1',
        'setup telegram not-manager 1',
        'setup telegram ok 1',
        'boom telegram error 1',
        'picky telegram usage 1',
        'ping telegram usage 1',
        'unknown discord usage 1',
      ].sort(),
    );
    expect(timed).toEqual(['ping', 'ping', 'ping', 'setup', 'setup', 'boom', 'picky', 'ping', 'unknown']);
  });
});
