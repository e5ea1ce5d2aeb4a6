/** The six REST endpoints of the Token Market Data Service (spec §4.1–4.6), by the name used in paths, limits, caches and metrics. */
export const ENDPOINTS = [
  'token-data',
  'token-technicals',
  'holders-history',
  'trades-history',
  'chart-history',
  'wallet-tracker',
] as const;

export type EndpointName = (typeof ENDPOINTS)[number];

/** The four WebSocket streams of spec §4.7. */
export const STREAMS = ['token-feed', 'chart-live', 'holders-live', 'trades-live'] as const;

export type StreamName = (typeof STREAMS)[number];

export function isEndpointName(value: string): value is EndpointName {
  return (ENDPOINTS as readonly string[]).includes(value);
}
