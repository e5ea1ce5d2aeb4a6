/**
 * How calls are written on every card: a caller's name (hostile text, never a mention), a multiple
 * ("×2.4"), the market cap a call was made at and reached, and the line a token's card carries
 * ("called by Alice 3h ago at $41.2K mcap · ×2.4"). docs/calls.md defines the figures.
 */
import { relativeTime, usd } from '../text/format';
import { untrusted } from '../text/sanitize';
import type { Call } from '../store/calls';

/** Long enough for a display name, short enough for a leaderboard line. */
const NAME_MAX = 32;

/**
 * A display name as text: cleaned, cut, with @everyone and <@id> made inert, and a leading @ left
 * off so that no renderer or reader takes it for a handle to ping.
 */
export function callerName(userName: string): string {
  return untrusted(userName.replace(/^[@＠]+/u, ''), NAME_MAX, 'someone');
}

/**
 * A short tag that tells apart two callers who go by the same name: the end of their platform id
 * (`#4821`), which the person cannot choose as they choose their name.
 */
export function callerTag(userId: string): string {
  return `#${userId.replace(/[^0-9A-Za-z]/g, '').slice(-4)}`;
}

/** The names shown for `callers`, each with its tag where another caller among them shows the same name. */
export function distinctCallerNames(callers: ReadonlyArray<{ userId: string; userName: string }>): Map<string, string> {
  const byName = new Map<string, Set<string>>();
  for (const { userId, userName } of callers) {
    const key = callerName(userName).toLowerCase();
    byName.set(key, (byName.get(key) ?? new Set()).add(userId));
  }
  const shown = new Map<string, string>();
  for (const { userId, userName } of callers) {
    const name = callerName(userName);
    const shared = (byName.get(name.toLowerCase())?.size ?? 0) > 1;
    shown.set(userId, shared ? `${name} (${callerTag(userId)})` : name);
  }
  return shown;
}

/** "×2.4" under 10, "×12" from 10, "×1,250" from 1,000; "×0.31" for a call below its entry. */
export function multipleText(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return '×—';
  if (value >= 1_000) return `×${Math.round(value).toLocaleString('en-US')}`;
  if (value >= 10) return `×${Math.round(value)}`;
  if (value >= 1) return `×${(Math.floor(value * 10) / 10).toFixed(1)}`;
  return `×${value.toFixed(2)}`;
}

/** The peak multiple of a call: its highest traded close since, over its entry price. */
export function peakMultiple(call: Pick<Call, 'peakSol' | 'priceSol'>): number {
  return call.peakSol / call.priceSol;
}

/** The multiple now, at the price given (the card's), else at the last close the peak job read. */
export function nowMultiple(call: Pick<Call, 'lastSol' | 'priceSol'>, priceSolNow: number | null = null): number {
  return (priceSolNow ?? call.lastSol) / call.priceSol;
}

/** A market cap at the call, or scaled by a multiple; in SOL when the USD rate was not known then. */
export function callMcap(call: Pick<Call, 'mcapUsd' | 'mcapSol'>, multiple = 1): string | null {
  if (call.mcapUsd !== null) return usd(call.mcapUsd * multiple);
  if (call.mcapSol !== null) return `${usd(call.mcapSol * multiple).replace('$', '')} SOL`;
  return null;
}

/** "called by Alice 3h ago at $41.2K mcap · ×2.4": the line a later post's card carries. */
export function callLine(call: Call, now: Date, priceSolNow: number | null): string {
  const at = callMcap(call);
  const mcap = at === null ? '' : ` at ${at} mcap`;
  return (
    `called by ${callerName(call.userName)} ${relativeTime(call.calledAt.getTime() / 1000, now.getTime() / 1000)}${mcap} ` +
    `· ${multipleText(nowMultiple(call, priceSolNow))}`
  );
}
