/**
 * Discord's settings section: DISCORD_TOKEN switches the platform on, with DISCORD_APP_ID;
 * DISCORD_GUILD_ID, DISCORD_REST_API, DISCORD_DETECT_ADDRESSES, DISCORD_SHARDS and
 * DISCORD_SHARD_COUNT say where commands are registered, how Discord is reached and which shards
 * this process runs. Read from the environment the other settings were read from (`Config.env`,
 * src/config.ts), or alone by `npm run register`, which never talks to the market data service. A
 * wrong value stops start-up with one line naming the variable, as every setting does (ConfigError).
 */
import { z } from 'zod';
import { ConfigError, httpUrl, parsePlainInteger, wholeNumber, type SettingsEnv } from '../../config';

export interface DiscordSettings {
  token: string;
  /** The application's id (a snowflake), for registering commands and answering interactions. */
  appId: string;
  /** Null: commands are registered globally by `npm run register`; set: in this server, and at start. */
  guildId: string | null;
  /** REST base without the version (default https://discord.com/api); the gateway address comes from its /gateway/bot. */
  restApi: string | null;
  /** Answer a message that is only an address with its token card (needs the Message Content intent). */
  detectAddresses: boolean;
  /**
   * 'auto': every shard, as many as Discord recommends, in this process. Otherwise the shards this
   * process runs out of `count` in all (the other processes run the rest).
   */
  shards: 'auto' | { ids: number[]; count: number };
}

/** The variable that switches Discord on. */
export const DISCORD_TOKEN_VARIABLE = 'DISCORD_TOKEN';

/** Discord's largest bots run tens of thousands of shards; a bigger count is a typo. */
const MAX_SHARD_COUNT = 100_000;

const DiscordSchema = z.object({
  DISCORD_TOKEN: z.string().optional(),
  DISCORD_APP_ID: z.string().optional(),
  DISCORD_GUILD_ID: z.string().optional(),
  DISCORD_REST_API: httpUrl('DISCORD_REST_API', ['https:', 'http:']),
  DISCORD_DETECT_ADDRESSES: z.string().optional(),
  DISCORD_SHARDS: z.string().optional(),
  DISCORD_SHARD_COUNT: wholeNumber('DISCORD_SHARD_COUNT', 1, MAX_SHARD_COUNT, 0),
});

/** Discord ids are snowflakes: decimal digits, 17 to 20 of them today. */
const SNOWFLAKE = /^\d{15,21}$/;
/** A bot token's form: three base64url parts joined by dots. Checked so a pasted typo fails at start. */
const DISCORD_TOKEN = /^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{3,}\.[A-Za-z0-9_-]{10,}$/;

/** Discord's settings, or null without DISCORD_TOKEN. Nothing of the other settings is needed to read them. */
export function readDiscordSettings(env: SettingsEnv): DiscordSettings | null {
  const parsed = DiscordSchema.parse(env);
  const token = parsed.DISCORD_TOKEN?.trim() ?? '';
  const appId = parsed.DISCORD_APP_ID?.trim() ?? '';
  const guildId = parsed.DISCORD_GUILD_ID?.trim() ?? '';
  const detect = parsed.DISCORD_DETECT_ADDRESSES?.trim().toLowerCase() ?? '';
  if (token === '') return null;
  // The value is never echoed: it is a secret.
  if (!DISCORD_TOKEN.test(token))
    throw new ConfigError('DISCORD_TOKEN', 'must be the bot token from the Developer Portal (three parts joined by dots)');
  if (!SNOWFLAKE.test(appId))
    throw new ConfigError(
      'DISCORD_APP_ID',
      'must be the application id from the Developer Portal (digits), and is required with DISCORD_TOKEN',
    );
  if (guildId !== '' && !SNOWFLAKE.test(guildId)) throw new ConfigError('DISCORD_GUILD_ID', 'must be a server id (digits)');
  if (!['', '0', '1', 'true', 'false'].includes(detect)) throw new ConfigError('DISCORD_DETECT_ADDRESSES', 'must be 1 or 0');
  return {
    token,
    appId,
    guildId: guildId === '' ? null : guildId,
    restApi: parsed.DISCORD_REST_API ?? null,
    detectAddresses: detect === '1' || detect === 'true',
    shards: readShards(parsed.DISCORD_SHARDS ?? '', parsed.DISCORD_SHARD_COUNT),
  };
}

const SHARDS_FORM = 'auto, or shard ids and ranges, comma-separated (e.g. 0-3 or 0,2,4-7)';

/**
 * DISCORD_SHARDS and DISCORD_SHARD_COUNT. `auto` (or unset) runs every shard Discord recommends;
 * a count alone runs all of that many here; ids or ranges run those of the count (the processes of
 * a bot split across machines each name theirs, with the same count).
 */
function readShards(text: string, count: number): DiscordSettings['shards'] {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed === 'auto') {
    return count === 0 ? 'auto' : { ids: Array.from({ length: count }, (_, id) => id), count };
  }
  const ids = new Set<number>();
  for (const part of trimmed.split(',').map((item) => item.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    const first = range === null ? null : parsePlainInteger(range[1] ?? '');
    const last = range === null ? null : range[2] === undefined ? first : parsePlainInteger(range[2]);
    if (first === null || last === null || last < first || last >= MAX_SHARD_COUNT)
      throw new ConfigError('DISCORD_SHARDS', `must be ${SHARDS_FORM}`);
    for (let id = first; id <= last; id++) ids.add(id);
  }
  if (count === 0)
    throw new ConfigError(
      'DISCORD_SHARD_COUNT',
      'is required with DISCORD_SHARDS: the number of shards of the whole bot, over every process',
    );
  const sorted = [...ids].sort((a, b) => a - b);
  if ((sorted.at(-1) ?? 0) >= count)
    throw new ConfigError('DISCORD_SHARDS', `must name shards below DISCORD_SHARD_COUNT (${count}): ids run from 0 to ${count - 1}`);
  return { ids: sorted, count };
}
