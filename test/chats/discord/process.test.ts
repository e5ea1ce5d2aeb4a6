/**
 * Discord as an operator runs it: `npm start` with DISCORD_TOKEN set runs the Discord chat (and no
 * console chat) until SIGTERM, and `npm run register` registers the commands; both as separate
 * processes against the local fake Discord, configured only through environment variables.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Market } from 'tmds-simulator';
import { FakeDiscord, nextSnowflake } from '../../support/discord/fakeDiscord';
import { tsNode } from '../../support/processes';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789';
const APP_ID = nextSnowflake();
const GUILD = nextSnowflake();
const CHANNEL = nextSnowflake();

let fake: FakeDiscord;
let cwd: string;

beforeEach(async () => {
  fake = await FakeDiscord.start({
    appId: APP_ID,
    token: TOKEN,
    guilds: [{ id: GUILD, name: 'Server', channels: [{ id: CHANNEL, name: 'general' }] }],
  });
  cwd = mkdtempSync(join(tmpdir(), 'tokenwatch-discord-proc-'));
});
afterEach(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(script: string, env: Record<string, string>): Running {
  const [command, args] = tsNode(script);
  const child = spawn(command, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      DISCORD_TOKEN: TOKEN,
      DISCORD_APP_ID: APP_ID,
      DISCORD_REST_API: fake.restApi,
      DATABASE_PATH: join(cwd, 'bot.db'),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

// Each test starts the bot, or the register command, as a process of its own (node with tsx's
// loader): seconds on idle cores, far longer with none free.
describe('npm start with DISCORD_TOKEN', () => {
  it('runs the Discord chat, no console chat, answers a command, and stops on SIGTERM', async () => {
    const bot = run('src/main.ts', { DISCORD_GUILD_ID: GUILD, TMDS_BASE_URL: 'simulator' });
    // Standard input closes at once: a console chat would end the process; Discord keeps running.
    bot.child.stdin?.end();
    await fake.connected(60_000);
    await fake.until(() => fake.commands.has(GUILD), 30_000, 'the commands in the development server');
    const token = new Market({ seed: 42 }).listing().tokens[0]!.address;
    const answer = await fake.answerTo(fake.slashCommand('token', { address: token }, { guildId: GUILD, channelId: CHANNEL }), 20_000);
    expect((answer.body.embeds as Array<{ title: string }>)[0]?.title).toBeTruthy();
    expect(bot.stdout()).not.toContain('console chat');
    bot.child.kill('SIGTERM');
    expect(await bot.exit).toBe(0);
    expect(bot.stderr()).not.toContain(TOKEN);
    expect(bot.stdout()).not.toContain(TOKEN);
  }, 120_000);

  it('npm run register registers every command globally, or in DISCORD_GUILD_ID', async () => {
    const global = run('src/cli/register.ts', {});
    expect(await global.exit, global.stderr()).toBe(0);
    const registered = (fake.commands.get('global') ?? []) as Array<{ name: string }>;
    expect(registered.map((c) => c.name)).toContain('token');
    expect(registered.map((c) => c.name)).toContain('track');
    expect(global.stdout()).toMatch(/^Registered \d+ commands globally/);

    const guild = run('src/cli/register.ts', { DISCORD_GUILD_ID: GUILD });
    expect(await guild.exit, guild.stderr()).toBe(0);
    expect(((fake.commands.get(GUILD) ?? []) as unknown[]).length).toBe(registered.length);
    expect(guild.stdout()).toContain(`in server ${GUILD}`);
  }, 120_000);
});
