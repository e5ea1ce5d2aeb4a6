/**
 * A process of several (TOKENWATCH_ROLES) whose roles have nothing to do says so in one warning
 * line at start, naming what each lacks: a chat platform's role without its token, a sender with no
 * chat platform at all. A process whose roles all have work, and one process running every role
 * (which falls back to the console), say nothing of the kind.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { idleRoles } from '../../src/chats/idleRoles';
import { platformChats, startChats, type ChatDeps } from '../../src/chats/startChats';
import type { Dispatcher } from '../../src/dispatch/dispatcher';
import type { Store } from '../../src/store/store';

const POSTGRES = { DATABASE_URL: 'postgres://tokenwatch@127.0.0.1:5432/tokenwatch' };
const TELEGRAM = {
  TELEGRAM_BOT_TOKEN: '123456789:AAidle-roles_token',
  TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
  TMDS_BASE_URL: 'simulator',
};

/** The warnings startChats logs for these settings (no platform is reached: the roles that would reach one are given none). */
async function warningsFor(env: Record<string, string>): Promise<Array<{ msg: string; roles?: string[] }>> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig(env);
  // Neither is touched: no platform starts without its token, and the console stand-in starts nothing.
  const deps: ChatDeps = {
    config,
    logger: createLogger('warn', stream),
    dispatcher: {} as Dispatcher,
    store: {} as Store,
    roles: config.roles.set,
  };
  expect(await startChats(deps, platformChats(), async () => null)).toEqual([]);
  return lines
    .map((line) => JSON.parse(line) as { msg: string; roles?: string[] })
    .filter((line) => line.msg.startsWith('TOKENWATCH_ROLES'));
}

describe('roles with nothing to do', () => {
  it('discord,telegram with neither token: one warning naming both tokens', async () => {
    expect(await warningsFor({ ...POSTGRES, TOKENWATCH_ROLES: 'discord,telegram' })).toEqual([
      expect.objectContaining({
        roles: ['discord', 'telegram'],
        msg:
          'TOKENWATCH_ROLES names roles with nothing to do in this process: ' +
          'discord (no DISCORD_TOKEN), telegram (no TELEGRAM_BOT_TOKEN)',
      }),
    ]);
  });

  it('a sender with no chat platform configured: one warning saying it has nowhere to send', async () => {
    expect(await warningsFor({ ...POSTGRES, TOKENWATCH_ROLES: 'watcher,sender' })).toEqual([
      expect.objectContaining({
        roles: ['sender'],
        msg:
          'TOKENWATCH_ROLES names roles with nothing to do in this process: ' +
          'sender (no chat platform: neither DISCORD_TOKEN nor TELEGRAM_BOT_TOKEN)',
      }),
    ]);
  });

  it('nothing said when every role named has work, or for one process running every role', async () => {
    expect(await warningsFor({ ...POSTGRES, TOKENWATCH_ROLES: 'watcher' })).toEqual([]);
    expect(await warningsFor({})).toEqual([]);
  });

  it('names the one platform missing beside one that is configured', () => {
    // Checked on the settings alone: starting Telegram here would reach for its Bot API.
    const config = loadConfig({ ...POSTGRES, ...TELEGRAM, TOKENWATCH_ROLES: 'discord,telegram,sender' });
    expect(idleRoles(config)).toEqual({
      roles: ['discord'],
      line: 'TOKENWATCH_ROLES names roles with nothing to do in this process: discord (no DISCORD_TOKEN)',
    });
  });
});
