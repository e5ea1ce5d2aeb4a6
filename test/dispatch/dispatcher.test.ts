/**
 * The Dispatcher driven as a second chat would drive it (a Telegram-like group with two people,
 * one of them a manager): policy, cooldown, slow commands, error ids that the log carries too,
 * lines addressed to bots, and buttons pressed in and out of their chat.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { plainText, type Card } from '../../src/cards/card';
import type { ChatRef } from '../../src/model/chat';
import { defineCommand, type AnyCommand } from '../../src/dispatch/command';
import { Dispatcher, type CommandCaller } from '../../src/dispatch/dispatcher';
import { createLogger } from '../../src/log';
import { MarketError } from '../../src/market/errors';
import type { QueryService } from '../../src/query/service';
import { UsageError } from '../../src/usage';
import { MemoryActionKeyStore } from '../support/memoryActionKeys';
import helpCommand from '../../commands/help';

const ADDRESS = '646Scq36PCtwMaWewiUpiZ2F2kUQG3Xe8dTp766TuH25';
const SECRET_DETAIL = '/srv/tokenwatch/secret-path.ts:12';

function card(title: string, actions: Card['actions'] = []): Card {
  return { title, color: 'info', fields: [], actions };
}

/** Test-only commands, one per policy. */
const commands: AnyCommand[] = [
  helpCommand,
  defineCommand({
    name: 'setup',
    description: 'Changes the chat',
    help: 'Managers only.',
    manager: true,
    options: [],
    run: async () => card('Set up'),
  }),
  defineCommand({
    name: 'ping',
    description: 'Answers pong',
    help: 'Cooldown 10s.',
    cooldown: '10s',
    options: [],
    run: async () => card('Pong'),
  }),
  defineCommand({ name: 'slowpoke', description: 'Takes its time', help: 'Slow.', slow: true, options: [], run: async () => card('Done') }),
  defineCommand({
    name: 'boom',
    description: 'Fails unexpectedly',
    help: 'Throws.',
    options: [],
    run: async () => {
      throw new Error(`cannot read ${SECRET_DETAIL}`);
    },
  }),
  defineCommand({
    name: 'busy',
    description: 'Fails as the service would',
    help: 'Market error.',
    options: [],
    run: async () => {
      throw new MarketError({ kind: 'rate-limited', endpoint: 'token-data', retryAfterMs: 5000, userMessage: 'busy' });
    },
  }),
  defineCommand({
    name: 'picky',
    description: 'Refuses what it is given',
    help: 'Usage error of its own.',
    options: [],
    run: async () => {
      throw new UsageError('"blue" is not a colour it takes', null, 'Say red.');
    },
  }),
  defineCommand({
    name: 'look',
    description: 'Looks a token up',
    help: 'Refreshable.',
    refresh: true,
    options: [{ name: 'address', type: 'address', description: 'A token', required: true }],
    run: async (args, context) =>
      card(`Token ${args.address} for ${context.userId} in ${context.chat.chatId}`, [
        { label: 'Help', command: 'help', args: ['look'] },
        { label: 'Track', command: 'track', args: [args.address] },
      ]),
  }),
];

const GROUP: ChatRef = { platform: 'telegram', chatId: '-1001', threadId: null, scopeId: null };
const OTHER_GROUP: ChatRef = { platform: 'telegram', chatId: '-1002', threadId: null, scopeId: null };

interface Asked {
  count: number;
}

function person(userId: string, manager: boolean, chat: ChatRef = GROUP, asked: Asked = { count: 0 }): CommandCaller {
  return {
    chat,
    userId,
    isManager: () => {
      asked.count++;
      return Promise.resolve(manager);
    },
  };
}

function setup(actionTtlMs?: number) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('debug', { write: (text: string) => void sink.write(text) });
  let nowMs = Date.UTC(2026, 0, 1);
  const dispatcher = new Dispatcher({
    commands,
    services: { query: undefined as unknown as QueryService },
    actionKeys: new MemoryActionKeyStore(),
    logger,
    now: () => new Date(nowMs),
    ...(actionTtlMs === undefined ? {} : { actionTtlMs }),
  });
  return { dispatcher, lines, advance: (ms: number) => (nowMs += ms) };
}

describe('the Dispatcher, driven as a chat would', () => {
  it('refuses a manager-only command to someone who does not manage the chat, and asks only then', async () => {
    const { dispatcher } = setup();
    const asked = { count: 0 };
    const refused = await dispatcher.run('setup', { kind: 'text', text: '' }, person('alice', false, GROUP, asked));
    expect(refused.card.title).toBe('Managers only');
    expect(refused.ephemeral).toBe(true);
    expect(refused.errorId).toBeNull();
    expect(asked.count).toBe(1);

    const allowed = await dispatcher.run('setup', { kind: 'text', text: '' }, person('bob', true));
    expect(allowed.card.title).toBe('Set up');
    expect(allowed.ephemeral).toBe(false);

    await dispatcher.run('ping', { kind: 'text', text: '' }, person('alice', false, GROUP, asked));
    expect(asked.count).toBe(1);
  });

  it('applies a cooldown per person and command: a second run is told to wait, then runs once it has passed', async () => {
    const { dispatcher, advance } = setup();
    const alice = person('alice', false);
    expect((await dispatcher.run('ping', { kind: 'text', text: '' }, alice)).card.title).toBe('Pong');

    advance(3_000);
    const hit = await dispatcher.run('ping', { kind: 'text', text: '' }, alice);
    expect(hit.card.title).toBe('Slow down');
    expect(plainText(hit.card.description ?? [])).toContain('wait 7 s');
    expect(hit.ephemeral).toBe(true);
    // Someone else, and another command, are not held back.
    expect((await dispatcher.run('ping', { kind: 'text', text: '' }, person('bob', false))).card.title).toBe('Pong');
    expect((await dispatcher.run('setup', { kind: 'text', text: '' }, person('alice', true))).card.title).toBe('Set up');

    advance(7_000);
    expect((await dispatcher.run('ping', { kind: 'text', text: '' }, alice)).card.title).toBe('Pong');
  });

  it('reports slow commands as slow', () => {
    const { dispatcher } = setup();
    expect(dispatcher.isSlow('slowpoke')).toBe(true);
    expect(dispatcher.isSlow('ping')).toBe(false);
    expect(dispatcher.isSlow('no-such-command')).toBe(false);
  });

  it('answers an unexpected failure with an error card whose id the log line carries, and nothing of the error', async () => {
    const { dispatcher, lines } = setup();
    const reply = await dispatcher.run('boom', { kind: 'text', text: '' }, person('alice', false));
    expect(reply.errorId).toMatch(/^[0-9a-f]{8}$/);
    expect(reply.card.color).toBe('error');
    expect(reply.card.title).toBe('Something went wrong');
    expect(reply.card.footer).toContain(reply.errorId);
    expect(reply.ephemeral).toBe(true);
    expect(JSON.stringify(reply)).not.toContain('secret-path');

    const logged = lines.filter((line) => line.errorId === reply.errorId);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.level).toBe(50);
    expect(logged[0]?.command).toBe('boom');
    expect(JSON.stringify(logged[0])).toContain('secret-path');
  });

  it('gives market failures an error id too, in its log line; a usage mistake none, its title naming the command and the problem', async () => {
    const { dispatcher, lines } = setup();
    const busy = await dispatcher.run('busy', { kind: 'text', text: '' }, person('alice', false));
    expect(busy.card.title).toBe('Service busy');
    expect(busy.errorId).toMatch(/^[0-9a-f]{8}$/);
    expect(lines.some((line) => line.errorId === busy.errorId)).toBe(true);

    const typo = await dispatcher.run('look', { kind: 'text', text: 'not-an-address' }, person('alice', false));
    expect(typo.card.title).toBe('/look: "not-an-address" is not a Solana address');
    expect(typo.errorId).toBeNull();
    expect(typo.card.footer).toBeUndefined();
    expect(typo.ephemeral).toBe(true);
    const refused = lines.find((line) => line.msg === 'command refused: usage');
    expect(refused?.command).toBe('look');
    expect(refused?.errorId).toBeUndefined();
  });

  it('titles a refusal thrown by a command itself with that command, never "Unknown command"', async () => {
    const { dispatcher } = setup();
    const reply = await dispatcher.run('picky', { kind: 'text', text: '' }, person('alice', false));
    expect(reply.card.title).toBe('/picky: "blue" is not a colour it takes');
    expect(plainText(reply.card.description ?? [])).toContain('Say red.');
    expect(reply.errorId).toBeNull();
  });

  it('logs the time every command took at debug', async () => {
    const { dispatcher, lines } = setup();
    await dispatcher.run('ping', { kind: 'text', text: '' }, person('alice', false));
    const timing = lines.find((line) => line.msg === 'command answered' && line.command === 'ping');
    expect(timing?.level).toBe(20);
    expect(typeof timing?.ms).toBe('number');
    expect(timing?.outcome).toBe('ok');
  });

  it('reads named options as a slash command sends them, and a line as a person types it', async () => {
    const { dispatcher } = setup();
    const alice = person('alice', false);
    const named = await dispatcher.run('look', { kind: 'options', values: { address: ADDRESS } }, alice);
    expect(named.card.title).toBe(`Token ${ADDRESS} for alice in -1001`);
    expect((await dispatcher.runLine(`/look ${ADDRESS}`, alice))?.card.title).toBe(named.card.title);
    expect((await dispatcher.runLine(`/look@TokenWatchBot ${ADDRESS}`, alice, 'tokenwatchbot'))?.card.title).toBe(named.card.title);
    expect(await dispatcher.runLine(`/look@OtherBot ${ADDRESS}`, alice, 'TokenWatchBot')).toBeNull();
    expect(await dispatcher.runLine('hello there', alice)).toBeNull();
    expect(await dispatcher.runLine(ADDRESS, alice)).toBeNull();
    const unknown = await dispatcher.runLine('/nosuch', alice);
    expect(unknown?.card.title).toBe('Unknown command "/nosuch"');
    expect(unknown?.errorId).toBeNull();
  });

  it('issues short keys for loaded commands only, and a Refresh that answers in place', async () => {
    const { dispatcher } = setup();
    const alice = person('alice', false);
    const reply = await dispatcher.run('look', { kind: 'text', text: ADDRESS }, alice);
    // Track is not loaded here: its action is left off.
    expect(reply.buttons.map((button) => button.label)).toEqual(['Help', 'Refresh']);
    for (const button of reply.buttons) {
      expect(Buffer.byteLength(button.key)).toBeLessThanOrEqual(20);
      expect(button.key).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    const [help, refresh] = reply.buttons;

    const refreshed = await dispatcher.press(refresh?.key ?? '', person('bob', false));
    expect(refreshed.refresh).toBe(true);
    expect(refreshed.card.title).toBe(`Token ${ADDRESS} for bob in -1001`);

    const helped = await dispatcher.press(help?.key ?? '', alice);
    expect(helped.refresh).toBe(false);
    expect(helped.card.title).toBe('/look');
  });

  it('answers a key from another chat, an expired key and an unknown key with a clear card for the presser only', async () => {
    const { dispatcher, advance } = setup(60_000);
    const reply = await dispatcher.run('look', { kind: 'text', text: ADDRESS }, person('alice', false));
    const key = reply.buttons[0]?.key ?? '';

    const elsewhere = await dispatcher.press(key, person('alice', false, OTHER_GROUP));
    expect(elsewhere.card.title).toBe('Button from another chat');
    expect(elsewhere.ephemeral).toBe(true);
    expect(elsewhere.refresh).toBe(false);

    const unknown = await dispatcher.press('x'.repeat(64), person('alice', false));
    expect(unknown.card.title).toBe('Button no longer known');

    advance(60_000);
    const expired = await dispatcher.press(key, person('alice', false));
    expect(expired.card.title).toBe('Button expired');
    expect(expired.ephemeral).toBe(true);
  });

  it('checks the policy of a pressed button against the presser', async () => {
    const { dispatcher } = setup();
    const card: Card = { title: 'Alert', color: 'info', fields: [], actions: [{ label: 'Set up', command: 'setup', args: [] }] };
    const [button] = await dispatcher.buttonsFor(card, GROUP);
    expect((await dispatcher.press(button?.key ?? '', person('alice', false))).card.title).toBe('Managers only');
    expect((await dispatcher.press(button?.key ?? '', person('bob', true))).card.title).toBe('Set up');
  });
});
