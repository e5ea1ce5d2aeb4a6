/**
 * Discord's gateway shards in this process: what discord.js is told to run (DISCORD_SHARDS and
 * DISCORD_SHARD_COUNT, or every shard Discord recommends), their state for /status, and the
 * closes Discord never takes back, each told in one line that says what to do.
 *
 * Discord routes a server's events to shard `(guild_id >> 22) % shard_count`; discord.js runs the
 * shards in one process and hands every shard's interactions to the same handlers, so nothing
 * else in the chat knows there are several.
 */
import { Status, type Client, type ClientOptions } from 'discord.js';
import type { DiscordSettings } from './settings';
import type { ShardState } from '../../follows/status';

export type ShardSetting = DiscordSettings['shards'];

/** Discord ends a shard that would carry more than this many servers with 4011. */
export const MAX_GUILDS_PER_SHARD = 2_500;

/** Close codes after which discord.js never reconnects the shard, with what the operator must do. */
const FATAL_CLOSES: Record<number, { name: string; advice: string }> = {
  4004: {
    name: 'authentication failed',
    advice: 'DISCORD_TOKEN was refused: reset the token in the Developer Portal (Bot → Reset Token) and set it again',
  },
  4010: { name: 'invalid shard', advice: 'DISCORD_SHARDS names a shard at or past DISCORD_SHARD_COUNT' },
  4011: {
    name: 'sharding required',
    advice:
      `the shard would carry more than ${MAX_GUILDS_PER_SHARD.toLocaleString('en-US')} servers: run more shards, ` +
      "with DISCORD_SHARDS=auto (Discord's recommended count) or a larger DISCORD_SHARD_COUNT",
  },
  4012: { name: 'invalid API version', advice: 'this discord.js speaks a gateway version Discord no longer serves: update the bot' },
  4013: { name: 'invalid intents', advice: 'the bot asked for intents Discord does not know: update the bot' },
  4014: {
    name: 'disallowed intents',
    advice:
      'the bot asks for the Message Content intent (DISCORD_DETECT_ADDRESSES=1), which is not switched on: enable it in the ' +
      'Developer Portal (Bot → Privileged Gateway Intents), or set DISCORD_DETECT_ADDRESSES=0',
  },
};

/** discord.js's options for the shards to run. */
export function shardOptions(setting: ShardSetting): Pick<ClientOptions, 'shards' | 'shardCount'> {
  return setting === 'auto' ? { shards: 'auto' } : { shards: setting.ids, shardCount: setting.count };
}

/** The one line a fatal close is logged with (and start-up stops with, when it comes before ready). */
export function fatalCloseLine(shard: number, code: number): string | null {
  const known = FATAL_CLOSES[code];
  if (known === undefined) return null;
  return `Discord closed shard ${shard} with ${code} (${known.name}) and will not take it back: ${known.advice}`;
}

/** The short reason /status shows beside a shard closed for good. */
export function fatalCloseReason(code: number): string {
  const known = FATAL_CLOSES[code];
  return known === undefined ? `closed ${code}` : `closed ${code}: ${known.name}`;
}

const STATUS_WORDS: Record<number, string> = {
  [Status.Ready]: 'ready',
  [Status.Connecting]: 'connecting',
  [Status.Reconnecting]: 'reconnecting',
  [Status.Idle]: 'idle',
  [Status.Nearly]: 'nearly ready',
  [Status.Disconnected]: 'closed',
  [Status.WaitingForGuilds]: 'waiting for servers',
  [Status.Identifying]: 'identifying',
  [Status.Resuming]: 'resuming',
};

/** Every shard this client runs, in id order, with its servers and why it closed for good, if it did. */
export function shardStates(client: Client, closedFor: ReadonlyMap<number, number>): ShardState[] {
  const guilds = new Map<number, number>();
  for (const guild of client.guilds.cache.values()) guilds.set(guild.shardId, (guilds.get(guild.shardId) ?? 0) + 1);
  return [...client.ws.shards.values()]
    .map((shard) => {
      const code = closedFor.get(shard.id);
      return {
        id: shard.id,
        state: STATUS_WORDS[shard.status] ?? 'unknown',
        guilds: guilds.get(shard.id) ?? 0,
        closedFor: code === undefined ? null : fatalCloseReason(code),
      };
    })
    .sort((a, b) => a.id - b.id);
}
