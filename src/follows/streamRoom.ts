/**
 * Whether the live streams have room for what a follow adds. A follow of a token no chat follows
 * yet adds a token-feed subscription, and holders-live when it wants whale alerts and no follower
 * did; a wallet no chat follows adds a trades-live one. Each needs a place on a socket, and the
 * sockets are bounded by the open-files limit (src/openFiles.ts): a follow that would not fit is
 * refused at /track with the reason, rather than stored and left unwatched.
 *
 * Two follows checked at once may both take the last place; the stream client then holds the
 * subscription past the limit waiting for a socket, counted in /status and logged, never lost.
 */
import { needsHolders } from '../alerts/fanout';
import type { StreamName } from '../market/endpoints';
import type { StreamClient } from '../market/stream';
import type { OpenFilesLimit } from '../openFiles';
import type { Store } from '../store/store';
import type { FollowKind, FollowOptions } from '../model/follow';

/** Why a follow was refused, in words for the chat: the problem (a title) and what to do. */
export interface RoomRefusal {
  problem: string;
  advice: string;
}

export interface FollowRoom {
  /** Null when the streams can take what this follow adds. */
  refusal(kind: FollowKind, address: string, options: FollowOptions): Promise<RoomRefusal | null>;
}

export interface StreamRoomDeps {
  store: Pick<Store, 'follows'>;
  streams: Pick<StreamClient, 'room' | 'status'>;
  /** The limits in force, for the answer; null when they could not be read. */
  openFiles: OpenFilesLimit | null;
}

export function streamRoom(deps: StreamRoomDeps): FollowRoom {
  return {
    async refusal(kind, address, options) {
      const followers = await deps.store.follows.followersOf(kind, address);
      const needed: Array<[StreamName, 'token' | 'wallets']> = [];
      if (kind === 'wallet') {
        if (followers.length === 0) needed.push(['trades-live', 'wallets']);
      } else {
        if (followers.length === 0) needed.push(['token-feed', 'token']);
        if (needsHolders([{ kind, options }]) && !needsHolders(followers)) needed.push(['holders-live', 'token']);
      }
      if (needed.every(([stream, follows]) => deps.streams.room(stream, follows) >= 1)) return null;
      const { maxSockets } = deps.streams.status();
      const limit =
        deps.openFiles === null ? 'open-files limit' : `open-files limit (${deps.openFiles.soft.toLocaleString('en-US')} files)`;
      const sockets =
        maxSockets === null
          ? 'Every live stream socket it allows is in use'
          : `All ${maxSockets.toLocaleString('en-US')} live stream sockets it allows are in use`;
      return {
        problem: `the bot already watches as much as its ${limit} allows`,
        advice:
          `${sockets}, so this follow was not added. The bot's operator can raise the limit (ulimit -n, ` +
          `or LimitNOFILE= for systemd) and restart it; /untrack frees room.`,
      };
    },
  };
}
