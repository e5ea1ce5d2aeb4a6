/**
 * A message posted in a server channel, read from the gateway's MESSAGE_CREATE event itself, for
 * pasted addresses. discord.js's own messageCreate comes only for a channel in its cache, and a
 * shard resumed from another process's session has none in it until it next identifies (a RESUME
 * replays events, not servers: adoptedReady.ts); read raw, its servers' pastes are answered too.
 */
import { z } from 'zod';

const MessageCreate = z.object({
  t: z.literal('MESSAGE_CREATE'),
  d: z.object({
    id: z.string(),
    channel_id: z.string(),
    // Absent in a direct message.
    guild_id: z.string(),
    content: z.string(),
    author: z.object({
      id: z.string(),
      bot: z.boolean().optional(),
      username: z.string().optional(),
      global_name: z.string().nullable().optional(),
    }),
    member: z.object({ nick: z.string().nullable().optional() }).optional(),
  }),
});

export interface ServerMessage {
  id: string;
  channelId: string;
  guildId: string;
  authorId: string;
  /** The author's name as the server shows it (nickname, display name, user name): untrusted text; null when none came. */
  authorName: string | null;
  /** Posted by a bot (this one included) or a webhook. */
  byBot: boolean;
  content: string;
}

/** The server message a raw gateway event carries, or null for any other event. */
export function serverMessageOf(packet: unknown): ServerMessage | null {
  // Most events are no messages: their name is looked at before anything is parsed.
  if (typeof packet !== 'object' || packet === null || !('t' in packet) || packet.t !== 'MESSAGE_CREATE') return null;
  const parsed = MessageCreate.safeParse(packet);
  if (!parsed.success) return null;
  const message = parsed.data.d;
  return {
    id: message.id,
    channelId: message.channel_id,
    guildId: message.guild_id,
    authorId: message.author.id,
    authorName: message.member?.nick ?? message.author.global_name ?? message.author.username ?? null,
    byBot: message.author.bot === true,
    content: message.content,
  };
}
