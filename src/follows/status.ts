/**
 * What `/status` reports: are the live streams up, how much is followed, and is delivery keeping
 * up (the outbox's length and the age of its oldest undelivered alert).
 */
import type { ChatRef } from '../model/chat';
import type { StreamStatus } from '../market/stream/index';
import type { Store } from '../store/store';

export interface StatusReport {
  streams: { sockets: number; open: number; subscriptions: number; reconnects: number };
  follows: { follows: number; chats: number; tokens: number; wallets: number };
  outbox: { pending: number; oldest: Date | null };
  /** Why this chat is paused, or null. */
  paused: string | null;
  /** Epoch ms the bot started. */
  startedAt: number;
}

export interface StatusSource {
  report(chat: ChatRef): Promise<StatusReport>;
}

export function createStatusSource(deps: { store: Pick<Store, 'follows' | 'outbox' | 'chats'>; streams: () => StreamStatus; startedAt: number }): StatusSource {
  return {
    async report(chat) {
      const streams = deps.streams();
      const [totals, targets, pending, paused] = await Promise.all([
        deps.store.follows.totals(),
        deps.store.follows.targets(),
        deps.store.outbox.pending(),
        deps.store.chats.pausedReason(chat),
      ]);
      return {
        streams: {
          sockets: streams.sockets.length,
          open: streams.sockets.filter((socket) => socket.state === 'open').length,
          subscriptions: streams.sockets.reduce((sum, socket) => sum + socket.subscriptions, 0),
          reconnects: streams.counters.reconnects,
        },
        follows: { ...totals, tokens: targets.tokens.length, wallets: targets.wallets.length },
        outbox: { pending: pending.count, oldest: pending.oldest },
        paused,
        startedAt: deps.startedAt,
      };
    },
  };
}
