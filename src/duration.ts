/**
 * The one duration grammar: settings (`TMDS_CACHE_TTL=token-data=10s`), command options
 * (`/chart ADDR 15m 7d`) and command cooldowns (`cooldown: '10s'`) all read lengths of time here.
 *
 * A duration is one or more parts, each a number and a unit, with optional spaces between them:
 * "10s", "500ms", "1h30m", "1h 30m", "1.5h", "15 min". Units (any case): ms; s, sec, secs,
 * second(s); m, min, mins, minute(s); h, hr, hrs, hour(s); d, day(s); w, wk, week(s).
 * What differs between the readers is only what a bare number means:
 * - settings refuse it (whether `500` meant milliseconds or seconds is a guess the bot should not
 *   make silently), except `0`, which disables;
 * - a person in a chat may type plain seconds ("90").
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: WEEK,
  wk: WEEK,
  week: WEEK,
  weeks: WEEK,
};

/** Longer input is not a duration anyone types; refusing it early bounds the work. */
const MAX_TEXT = 32;
const BARE = /^\d+$/;

/** The sum of the "number unit" parts in whole milliseconds; null when the text is anything else. */
function readParts(text: string): number | null {
  const part = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gy;
  let total = 0;
  let consumed = 0;
  for (let match = part.exec(text); match !== null; match = part.exec(text)) {
    const size = UNIT_MS[match[2] ?? ''];
    if (size === undefined) return null;
    total += Number(match[1]) * size;
    consumed = part.lastIndex;
  }
  if (consumed === 0 || consumed !== text.length) return null;
  // Fractions of a unit are fine ("1.5h"); fractions of a millisecond are not a length anyone means.
  const ms = Math.round(total);
  return Number.isSafeInteger(ms) && Math.abs(total - ms) < 1e-6 ? ms : null;
}

/**
 * A duration from a setting or a definition, in milliseconds: units required ("500ms", "10s",
 * "5m", "1h30m"); "0" alone means zero. Null for anything else, a bare number included.
 */
export function parseDurationMs(input: string): number | null {
  const text = input.trim().toLowerCase();
  if (text === '0') return 0;
  if (text === '' || text.length > MAX_TEXT || BARE.test(text)) return null;
  return readParts(text);
}

/**
 * A duration typed by a person, in whole seconds: "15m", "4h", "1d", "2w", "90" (plain seconds),
 * "1h30m", "1.5h", "15 min". Null for anything else, and for zero, negative, fractional-second or
 * unsafely large results.
 */
export function parseDuration(input: string): number | null {
  const text = input.trim().toLowerCase();
  if (text === '' || text.length > MAX_TEXT) return null;
  const ms = BARE.test(text) ? Number(text) * SECOND : readParts(text);
  if (ms === null || ms % SECOND !== 0) return null;
  const secs = ms / SECOND;
  return Number.isSafeInteger(secs) && secs > 0 ? secs : null;
}
