/** Slash command definitions generated from `commands/`, and the Discord settings. */
import { describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType } from 'discord.js';
import { isManagerPermissions } from '../../../src/chats/discord/permissions';
import { readDiscordSettings } from '../../../src/chats/discord/settings';
import { slashCommandsJson } from '../../../src/chats/discord/slashCommands';
import { loadCommands } from '../../../src/dispatch/registry';

describe('slashCommandsJson', () => {
  it('gives every command its options with types, descriptions, required flags, choices and limits', async () => {
    const commands = await loadCommands();
    const json = slashCommandsJson(commands);
    expect(json.map((c) => c.name)).toEqual(commands.map((c) => c.name));
    for (const command of json) {
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.description.length).toBeLessThanOrEqual(100);
      // In servers and in a direct message with the bot.
      expect(command.contexts).toEqual([0, 1]);
      const options = command.options ?? [];
      // Discord refuses a required option after an optional one.
      const flat = options.flatMap((o) =>
        'options' in o && o.type === ApplicationCommandOptionType.Subcommand ? [o.options ?? []] : [options],
      );
      for (const list of flat) {
        const required = list.map((o) => ('required' in o ? o.required === true : false));
        expect(required.indexOf(false) === -1 || required.lastIndexOf(true) < required.indexOf(false), command.name).toBe(true);
      }
    }
    const holders = json.find((c) => c.name === 'holders');
    expect(holders?.options?.[0]).toMatchObject({
      name: 'address',
      type: ApplicationCommandOptionType.String,
      required: true,
      autocomplete: true,
    });
    expect(holders?.options?.[1]).toMatchObject({ name: 'sort', required: false });
    expect((holders?.options?.[1] as { choices: Array<{ value: string }> }).choices.map((c) => c.value)).toEqual([
      'balance',
      'holderSince',
      'totalBoughtUSD',
      'totalSoldUSD',
    ]);
    const track = json.find((c) => c.name === 'track');
    expect(track?.default_member_permissions).toBe('16');
    expect(track?.options?.map((o) => o.type)).toEqual([
      ApplicationCommandOptionType.Subcommand,
      ApplicationCommandOptionType.Subcommand,
      ApplicationCommandOptionType.Subcommand,
    ]);
    // /track cluster: no address, the number of wallets and the window.
    expect((track?.options?.[2] as { name: string; options: Array<{ name: string }> }).options.map((o) => o.name)).toEqual([
      'wallets',
      'window',
    ]);
    const threshold = (track?.options?.[0] as { options: Array<{ name: string; type: number; min_value?: number }> }).options.find(
      (o) => o.name === 'threshold',
    );
    expect(threshold).toMatchObject({ type: ApplicationCommandOptionType.Number, min_value: 1, max_value: 1000 });
    expect(json.find((c) => c.name === 'token')?.default_member_permissions).toBeUndefined();
  });
});

describe('isManagerPermissions', () => {
  it('is Manage Server, Manage Channels or Administrator', () => {
    expect(isManagerPermissions(1n << 5n)).toBe(true);
    expect(isManagerPermissions(1n << 4n)).toBe(true);
    expect(isManagerPermissions(1n << 3n)).toBe(true);
    expect(isManagerPermissions((1n << 10n) | (1n << 11n) | (1n << 13n))).toBe(false);
    expect(isManagerPermissions(null)).toBe(false);
  });
});

describe('Discord settings', () => {
  const token = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfakeX.abcdefghijklmnopqrstuvwxyz0123456789';
  it('are off without DISCORD_TOKEN, and read whole with it', () => {
    expect(readDiscordSettings({})).toBeNull();
    expect(
      readDiscordSettings({
        TMDS_BASE_URL: 'simulator',
        DISCORD_TOKEN: token,
        DISCORD_APP_ID: '1100000000000000001',
        DISCORD_GUILD_ID: '1100000000000000002',
        DISCORD_REST_API: 'http://127.0.0.1:9/api/',
        DISCORD_DETECT_ADDRESSES: '1',
      }),
    ).toEqual({
      token,
      appId: '1100000000000000001',
      guildId: '1100000000000000002',
      restApi: 'http://127.0.0.1:9/api',
      detectAddresses: true,
      shards: 'auto',
    });
  });

  it('refuse a missing application id, a malformed token or server id, naming the variable and never the token', () => {
    const fail = (env: Record<string, string>) => {
      try {
        readDiscordSettings(env);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'no error';
    };
    expect(fail({ DISCORD_TOKEN: token })).toContain('DISCORD_APP_ID');
    expect(fail({ DISCORD_TOKEN: 'not a token', DISCORD_APP_ID: '1100000000000000001' })).toContain('DISCORD_TOKEN');
    expect(fail({ DISCORD_TOKEN: 'not a token', DISCORD_APP_ID: '1100000000000000001' })).not.toContain('not a token');
    expect(fail({ DISCORD_TOKEN: token, DISCORD_APP_ID: '1100000000000000001', DISCORD_GUILD_ID: 'general' })).toContain(
      'DISCORD_GUILD_ID',
    );
    expect(fail({ DISCORD_TOKEN: token, DISCORD_APP_ID: '1100000000000000001', DISCORD_REST_API: 'ftp://x' })).toContain(
      'DISCORD_REST_API',
    );
    expect(fail({ DISCORD_TOKEN: token, DISCORD_APP_ID: '1100000000000000001', DISCORD_DETECT_ADDRESSES: 'yes please' })).toContain(
      'DISCORD_DETECT_ADDRESSES',
    );
  });
});
