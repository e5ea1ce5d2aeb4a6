/** The stream client's status with nothing received yet, as /status and readiness read it: `sockets` as given, every counter 0. */
import type { SocketStatus, StreamStatus } from '../../src/market/stream';

export function quietStreams(sockets: SocketStatus[] = []): () => StreamStatus {
  return () => ({
    sockets,
    counters: { received: 0, delivered: 0, unreadable: 0, unknown: 0, dropped: 0, reconnects: 0, authFailures: 0, oversized: 0 },
    queuedEvents: 0,
    queuedBytes: 0,
    packing: { setting: 1, perSocket: 1, state: 'fixed', evidence: null },
    maxSockets: null,
    waitingForRoom: 0,
    protocol: 'spec',
    unconfirmed: 0,
  });
}
