/**
 * The names of the service's surface, as the spec gives them: the six REST endpoints (§4.1–4.6),
 * served under /api/NAME, and the four WebSocket streams (§4.7), under /ws/NAME. Paths, rate
 * limits, faults and statistics are keyed by these names.
 */
export const REST_ENDPOINTS = [
  'token-data',
  'token-technicals',
  'holders-history',
  'trades-history',
  'chart-history',
  'wallet-tracker',
] as const;

export type RestEndpoint = (typeof REST_ENDPOINTS)[number];

export const WS_STREAMS = ['token-feed', 'chart-live', 'holders-live', 'trades-live'] as const;

export type WsStream = (typeof WS_STREAMS)[number];

export function isRestEndpoint(value: string): value is RestEndpoint {
  return (REST_ENDPOINTS as readonly string[]).includes(value);
}
