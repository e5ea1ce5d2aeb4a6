/** The windows calls are listed and ranked over: `24h`, `7d`, `30d` or `all`. */
export const CALL_WINDOWS = ['24h', '7d', '30d', 'all'] as const;
export type CallWindow = (typeof CALL_WINDOWS)[number];

const WINDOW_MS: Record<CallWindow, number | null> = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: null };

export function isCallWindow(text: string | undefined): text is CallWindow {
  return text !== undefined && (CALL_WINDOWS as readonly string[]).includes(text);
}

/** Where the window starts at `now`; null: every call. */
export function windowStart(window: CallWindow, now: Date): Date | null {
  const ms = WINDOW_MS[window];
  return ms === null ? null : new Date(now.getTime() - ms);
}

/** "last 7 days", as a card's title says it. */
export function windowText(window: CallWindow): string {
  return window === 'all' ? 'all time' : window === '24h' ? 'last 24 hours' : `last ${window.slice(0, -1)} days`;
}

/** Candle sizes asked for a call's candles: the smallest that keeps a window within MAX_CANDLES. */
const INTERVALS = [60, 300, 900, 3_600, 14_400, 86_400] as const;
const MAX_CANDLES = 1_000;

/** The candle size for a window of `secs`: one minute for young calls, larger ones for long gaps. */
export function intervalFor(secs: number): number {
  for (const interval of INTERVALS) if (secs / interval <= MAX_CANDLES) return interval;
  return INTERVALS[INTERVALS.length - 1] ?? 86_400;
}
