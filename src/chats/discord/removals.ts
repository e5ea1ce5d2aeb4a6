/**
 * Leaving a server and losing a channel, read from the gateway's own events: GUILD_DELETE (the bot
 * removed, or the server deleted) pauses every channel of the server, CHANNEL_DELETE and
 * THREAD_DELETE the channel (Discord also sends CHANNEL_DELETE when the bot can no longer see a
 * channel). A paused chat's follows stop alerting and the watcher lets their streams go, as with
 * Telegram's my_chat_member. Coming back resumes: GUILD_CREATE of a server (joined again) the
 * channels it lists, CHANNEL_CREATE (the channel visible again) that one; only chats paused for
 * these reasons are resumed, never one paused because a send failed.
 *
 * A GUILD_DELETE with `unavailable` is an outage, not a removal, and changes nothing. Read raw,
 * as pasted messages are (serverMessages.ts): discord.js emits its own events only for servers and
 * channels in its cache, which a shard resumed from another process's session lacks.
 */
import type { Client } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';

/** Why a chat was paused by this module: only these are resumed here. */
export const LEFT_SERVER = 'bot removed from the server';
export const CHANNEL_GONE = 'channel deleted or no longer visible to the bot';

const Removal = z.discriminatedUnion('t', [
  z.object({ t: z.literal('GUILD_DELETE'), d: z.object({ id: z.string(), unavailable: z.boolean().optional() }) }),
  z.object({ t: z.literal('CHANNEL_DELETE'), d: z.object({ id: z.string(), guild_id: z.string() }) }),
  z.object({ t: z.literal('THREAD_DELETE'), d: z.object({ id: z.string(), guild_id: z.string() }) }),
  z.object({ t: z.literal('CHANNEL_CREATE'), d: z.object({ id: z.string(), guild_id: z.string() }) }),
  z.object({
    t: z.literal('GUILD_CREATE'),
    d: z.object({
      id: z.string(),
      unavailable: z.boolean().optional(),
      channels: z.array(z.object({ id: z.string() })).default([]),
      threads: z.array(z.object({ id: z.string() })).default([]),
    }),
  }),
]);
type RemovalEvent = z.infer<typeof Removal>;
const NAMES = new Set(['GUILD_DELETE', 'CHANNEL_DELETE', 'THREAD_DELETE', 'CHANNEL_CREATE', 'GUILD_CREATE']);

export interface RemovalOptions {
  client: Pick<Client, 'on' | 'guilds'>;
  store: Pick<Store, 'chats'>;
  logger: Logger;
  /** Told after chats were paused or resumed here, so that the watcher re-reads its targets. */
  onPausesChanged?: () => void;
  now?: () => Date;
}

/** Watches `client`'s raw events; returns what resolves once the events seen so far are handled (for stop and tests). */
export function watchRemovals(options: RemovalOptions): { settled: () => Promise<void> } {
  const { client, store, logger } = options;
  const now = options.now ?? (() => new Date());
  const chat = (chatId: string) => ({ platform: 'discord' as const, chatId });
  // One at a time, in the gateway's order: a removal and a return of the same server must not cross.
  let queue: Promise<void> = Promise.resolve();

  const pause = async (channelIds: readonly string[], reason: string): Promise<number> => {
    for (const id of channelIds) await store.chats.pause(chat(id), reason, now());
    return channelIds.length;
  };
  const resume = async (channelIds: readonly string[]): Promise<number> => {
    let resumed = 0;
    for (const id of channelIds) {
      const reason = await store.chats.pausedReason(chat(id));
      if (reason !== LEFT_SERVER && reason !== CHANNEL_GONE) continue;
      await store.chats.resume(chat(id));
      resumed += 1;
    }
    return resumed;
  };

  /** `serverChannels`: for a GUILD_DELETE, the server's channels and threads, read when the event came. */
  const handle = async (event: RemovalEvent, serverChannels: readonly string[]): Promise<number> => {
    switch (event.t) {
      case 'GUILD_DELETE': {
        if (event.d.unavailable === true) return 0;
        const count = await pause(serverChannels, LEFT_SERVER);
        logger.info({ guild: event.d.id, channels: count }, 'discord server left: its channels are paused');
        return count;
      }
      case 'CHANNEL_DELETE':
      case 'THREAD_DELETE':
        return pause([event.d.id], CHANNEL_GONE);
      case 'CHANNEL_CREATE':
        return resume([event.d.id]);
      case 'GUILD_CREATE': {
        if (event.d.unavailable === true) return 0;
        // Every start brings a GUILD_CREATE per server: nothing to look up while no Discord chat is paused.
        if ((await store.chats.pausedCount('discord')) === 0) return 0;
        const count = await resume([...event.d.channels, ...event.d.threads].map((channel) => channel.id));
        if (count > 0) logger.info({ guild: event.d.id, channels: count }, 'discord server joined again: its channels are resumed');
        return count;
      }
    }
  };

  client.on('raw', (packet: unknown) => {
    // Most events are none of these: the name is looked at before anything is parsed.
    if (typeof packet !== 'object' || packet === null || !('t' in packet) || typeof packet.t !== 'string' || !NAMES.has(packet.t)) return;
    const parsed = Removal.safeParse(packet);
    if (!parsed.success) return;
    // Read now: the raw event comes before discord.js drops the server from its cache, and the
    // handling below waits its turn, by when the server's channels and threads are gone from it.
    const serverChannels =
      parsed.data.t === 'GUILD_DELETE' ? [...(client.guilds.cache.get(parsed.data.d.id)?.channels.cache.keys() ?? [])] : [];
    queue = queue
      .then(async () => {
        if ((await handle(parsed.data, serverChannels)) > 0) options.onPausesChanged?.();
      })
      .catch((error: unknown) => logger.warn({ err: error, event: parsed.data.t }, 'discord removal not recorded'));
  });
  return { settled: () => queue };
}
