/**
 * tmds-simulator: the Token Market Data Service on a deterministic simulated market, in-process.
 * `startSimulator` serves the REST endpoints, the WebSocket streams and (with `control`) the
 * scenario controls on a port of its own; `Market` is the same market without a server, for
 * reading what a seed holds. The command line is in `tmds-simulator/cli`.
 */
export { DEFAULT_TECHNICALS_LIMIT, startSimulator, type RunningSimulator, type SimulatorOptions } from './server';
export {
  DEFAULT_SEED,
  HOLDERS_HISTORY_SORTS,
  Market,
  MarketMutationError,
  type HoldersHistorySort,
  type ListedToken,
  type Listing,
  type MarketChange,
  type MarketListener,
  type MarketMutationErrorCode,
  type MarketOptions,
} from './market';
export {
  CONTROL_NAMES,
  ControlError,
  summarize,
  type ControlName,
  type Controls,
  type DeveloperControl,
  type GraduateControl,
  type HolderControl,
  type InsidersControl,
  type LiquidityControl,
  type PriceControl,
  type RiskControl,
  type TokenSummary,
  type TradeControl,
} from './controls';
export { MarketDriver, type DriverEvent } from './driver';
export { LIFELIKE_PACE, STILL_PACE, tradesOnly, type Pace } from './pace';
export { SIMULATED_WHALE_SHARE_PCT, whaleBuy, type SurpriseKind } from './surprises';
export { REST_ENDPOINTS, WS_STREAMS, isRestEndpoint, type RestEndpoint, type WsStream } from './endpoints';
export {
  CLOSE_BAD_REQUEST,
  DEFAULT_STREAM_OPTIONS,
  SNAPSHOT_HOLDERS,
  SNAPSHOT_TRADES,
  STREAM_CLOSE_UNAUTHORIZED,
  STREAM_CLOSE_UNKNOWN_TOKEN,
  type StreamOptions,
} from './streams';
export { FaultInjector, parseFaultConfig, type FaultConfig, type FaultOutcome } from './faults';
export { HOSTILE_METADATA, type HostileMetadata } from './hostile';
export { WIRE_STYLES, isWireStyle, type WireStyle } from './wireStyle';
export type * from './wireTypes';
