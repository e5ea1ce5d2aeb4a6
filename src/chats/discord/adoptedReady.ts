/**
 * A discord.js client made ready by a RESUME of a session another process opened.
 *
 * discord.js sets itself up (its user, its application, its ready event) from the READY event of
 * an IDENTIFY, which a RESUME does not send: a new process that resumed a dead one's session would
 * wait for ready forever, and hold every event it receives until then. So once such a RESUME is
 * done, the READY discord.js missed is handed to it as the gateway would have sent it, with the
 * bot's user and application read over REST and no servers: the resumed shard's servers stay out
 * of discord.js's cache until the shard next identifies (a RESUME replays events, not servers).
 * Commands and buttons carry what they need; /status counts those servers as none meanwhile.
 */
import {
  GatewayDispatchEvents,
  GatewayOpcodes,
  Routes,
  type GatewayReadyDispatchData,
  type ManagerShardEventsMap,
  type WebSocketOptions,
} from 'discord.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Logger } from '../../log';

export type GatewayManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0];

type ManagerEvent = keyof ManagerShardEventsMap;
// @discordjs/ws's event names, typed as its own enum (which discord.js shadows with another of the same name).
export const SHARD_READY = 'ready' as Extract<ManagerEvent, 'ready'>;
export const SHARD_RESUMED = 'resumed' as Extract<ManagerEvent, 'resumed'>;
const SHARD_DISPATCH = 'dispatch' as Extract<ManagerEvent, 'dispatch'>;

const BotUser = z.object({
  id: z.string(),
  username: z.string(),
  discriminator: z.string(),
  global_name: z.string().nullable(),
  avatar: z.string().nullable(),
  bot: z.boolean().optional(),
  flags: z.number().int().optional(),
});

const BotApplication = z.object({ id: z.string(), flags: z.number().int().default(0) }).transform((application) => ({
  ...application,
  // The flags again as a string of a bigint, as Discord's READY carries them.
  flags_new: String(application.flags),
}));

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/**
 * Hands discord.js the READY of `shardId`'s resumed session, once the bot's user and application
 * are read (tried again until they are, or `signal` aborts: the client is being destroyed).
 */
export async function announceResumedReady(manager: GatewayManager, shardId: number, signal: AbortSignal, logger: Logger): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  for (;;) {
    try {
      const [user, application] = await Promise.all([
        manager.options.rest.get(Routes.user()),
        manager.options.rest.get(Routes.currentApplication()),
      ]);
      const session = await manager.options.retrieveSessionInfo(shardId);
      if (signal.aborted || session === null) return;
      const data: GatewayReadyDispatchData = {
        v: Number(manager.options.version),
        user: BotUser.parse(user),
        guilds: [],
        session_id: session.sessionId,
        resume_gateway_url: session.resumeURL,
        shard: [shardId, session.shardCount],
        application: BotApplication.parse(application),
      };
      // In the gateway's order: the shard's ready, then the READY event itself.
      manager.emit(SHARD_READY, { shardId, data });
      manager.emit(SHARD_DISPATCH, {
        shardId,
        data: { op: GatewayOpcodes.Dispatch, t: GatewayDispatchEvents.Ready, s: session.sequence, d: data },
      });
      return;
    } catch (error) {
      if (signal.aborted) return;
      logger.warn({ err: error, shard: shardId, retryMs }, 'discord shard resumed but the bot user could not be read; trying again');
      try {
        await sleep(retryMs, undefined, { signal });
      } catch {
        return;
      }
      retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
    }
  }
}
