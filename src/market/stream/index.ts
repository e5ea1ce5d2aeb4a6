/** The stream client of spec §4.7 and §6; see docs/streams.md. */
export { StreamClient, STREAM_DEFAULTS } from './client';
export { probeProtocol } from './protocolProbe';
export { ProtocolChoice, PROBE_WAIT_MS } from './protocolChoice';
export { AUTO_SUBSCRIPTIONS_PER_SOCKET, type PackingSetting, type PackingState, type PackingStatus } from './packing';
export type {
  AuthFailureInfo,
  CandlePriceUnit,
  ConnectionState,
  EventHandler,
  SocketStatus,
  StreamClientOptions,
  StreamCounters,
  StreamEvent,
  StreamProtocol,
  StreamStatus,
  StreamTarget,
  SubscribeOptions,
  SubscriptionRejection,
} from './types';
