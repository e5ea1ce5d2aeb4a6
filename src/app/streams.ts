/** The live streams part: the market's WebSocket subscriptions, as many sockets as the open-files limit allows. */
import type { Config } from '../config';
import type { Logger } from '../log';
import { ProtocolChoice, StreamClient } from '../market/stream';
import { raiseOpenFilesLimit, streamSocketsAllowed, type OpenFilesLimit } from '../openFiles';
import type { Lifecycle } from './lifecycle';
import type { MarketPart } from './market';

export interface StreamsPart {
  streams: StreamClient;
  /** The protocol the streams are read in: decided before the watcher subscribes (startWatching). */
  protocol: ProtocolChoice;
  openFiles: OpenFilesLimit | null;
  /** The sockets the streams may open; null when the limit could not be read. */
  maxSockets: number | null;
}

/**
 * Raises the soft open-files limit to the hard one (src/openFiles.ts) and says in one line what
 * the stream sockets may use: the limit, and how it came to be.
 */
function openFilesAtStart(logger: Logger, filesPerSocket: 1 | 2): { limit: OpenFilesLimit | null; maxSockets: number | null } {
  const limit = raiseOpenFilesLimit();
  if (limit === null) {
    logger.warn('could not read the open-files limit; the live streams open as many sockets as the system lets them');
    return { limit, maxSockets: null };
  }
  const maxSockets = streamSocketsAllowed(limit, filesPerSocket);
  if (limit.notRaised !== null) {
    logger.warn(
      { soft: limit.soft, hard: limit.hard, streamSockets: maxSockets, reason: limit.notRaised },
      'open-files limit not raised to its hard limit; raise it before start (ulimit -n, systemd LimitNOFILE=) for more live streams',
    );
  } else logger.info({ soft: limit.soft, hard: limit.hard, raisedFrom: limit.raisedFrom, streamSockets: maxSockets }, 'open-files limit');
  return { limit, maxSockets };
}

export function startStreams(config: Config, logger: Logger, market: MarketPart, lifecycle: Lifecycle): StreamsPart {
  // Every stream socket is an open file; the built-in simulator's end of it is one more.
  const { limit: openFiles, maxSockets } = openFilesAtStart(logger, market.simulator === null ? 1 : 2);
  // The built-in simulator speaks what it was started with; a service is asked (TMDS_PROTOCOL=auto) or pinned.
  const protocol = new ProtocolChoice({
    setting: market.simulator === null ? config.streamProtocol : config.simulatorProtocol,
    ...(market.simulator === null ? {} : { pinnedBy: 'SIMULATOR_PROTOCOL' }),
    wsUrl: market.endpoints.wsUrl,
    apiKey: market.endpoints.apiKey,
    logger,
  });
  const streams = new StreamClient({
    wsUrl: market.endpoints.wsUrl,
    apiKey: market.endpoints.apiKey,
    protocol: protocol.current,
    logger,
    maxFrameBytes: config.wsMaxFrameBytes,
    queueMaxBytes: config.wsQueueMaxBytes,
    subscriptionsPerSocket: config.wsSubscriptionsPerSocket,
    ...(maxSockets === null ? {} : { maxSockets }),
  });
  streams.onProtocolSeen((seen) => protocol.seen(seen));
  protocol.onChange((now) => streams.setProtocol(now));
  lifecycle.onStop('streams', () => streams.close());
  return { streams, openFiles, maxSockets, protocol };
}
