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
