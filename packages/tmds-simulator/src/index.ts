/**
 * tmds-simulator: the Token Market Data Service on a deterministic simulated market, in-process.
 * `startSimulator` serves the REST endpoints, the WebSocket streams and (with `control`) the
 * scenario controls on a port of its own, in the spec's protocol or the real vendor's
 * (`protocol`); `Market` is the same market without a server, for reading what a seed holds. The
 * command line is in `tmds-simulator/cli`.
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
  controlNames,
  summarize,
  type ControlName,
  type Controls,
  type DeveloperControl,
  type GraduateControl,
  type HolderControl,
  type InsidersControl,
  type LaunchControl,
  type LiquidityControl,
  type PriceControl,
  type RiskControl,
  type TokenSummary,
  type TradeControl,
} from './controls';
export { LAUNCH_GAP_SECS, MarketDriver, type DriverEvent } from './driver';
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
export { SIMULATOR_PROTOCOLS, isSimulatorProtocol, type SimulatorProtocol } from './protocol';
export { VENDOR_STREAM_NAMES, VENDOR_UPGRADE_UNAUTHORIZED, vendorWelcome } from './vendorStreams';
export { LAUNCH_ORIGINS, isLaunchOrigin, type LaunchOrigin } from './launches';
export { FEED_MAX_TOKENS, FEED_WINDOW_SECS } from './feedTokens';
export { YOUNG_TOKEN_SECS } from './bondingCurve';
export { BONDING_CURVE_PROTOCOL } from './vendorToken';
export { jsonText, type JsonValue } from './jsonText';
export type * from './wireTypes';
export type * from './vendorWireTypes';
