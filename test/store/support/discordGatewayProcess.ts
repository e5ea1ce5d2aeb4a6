/**
 * One Discord gateway process of a bot that runs several, for tests that kill it: the real
 * discord.js client with the PostgreSQL gateway coordination, on the shards it is given. It prints
 * "ready" once the client is ready, and runs until it is killed.
 *
 * Environment: DATABASE_URL, DISCORD_TOKEN, DISCORD_REST_API, SHARD_IDS (comma-separated),
 * SHARD_COUNT.
 */
import { Events } from 'discord.js';
import { createDiscordClient } from '../../../src/chats/discord/start';
import { silentLogger } from '../../../src/log';
import { PgDatabase } from '../../../src/store/postgres/pgDatabase';
import { PgDiscordGateway } from '../../../src/store/postgres/pgDiscordGateway';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
};

const db = new PgDatabase({ url: env('DATABASE_URL'), logger: silentLogger });
const client = createDiscordClient({
  restApi: env('DISCORD_REST_API'),
  shards: { ids: env('SHARD_IDS').split(',').map(Number), count: Number(env('SHARD_COUNT')) },
  gateway: new PgDiscordGateway(db),
  logger: silentLogger,
});
client.once(Events.ClientReady, () => process.stdout.write('ready\n'));
await client.login(env('DISCORD_TOKEN'));
