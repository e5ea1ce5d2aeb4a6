/**
 * The chats this process runs, for the parts made before them: the other processes and /status read
 * their shards, /testalert sends through their senders. Empty until the chats start, as the chats
 * need the commands, and the commands need these.
 */
import type { RunningChat } from '../chats/startChats';
import type { ShardState } from '../follows/status';
import type { AlertSender } from '../delivery/sender';
import type { Platform } from '../model/chat';

export class RunningChats {
  private chats: readonly RunningChat[] = [];

  started(chats: readonly RunningChat[]): void {
    this.chats = chats;
  }

  /** The gateway shards of every chat that has them; null when none has (no Discord here). */
  shards(): ShardState[] | null {
    return this.chats.some((chat) => chat.shards !== undefined) ? this.chats.flatMap((chat) => chat.shards?.() ?? []) : null;
  }

  senderFor(platform: Platform): AlertSender | null {
    return this.chats.find((each) => each.sender?.platform === platform)?.sender ?? null;
  }
}
