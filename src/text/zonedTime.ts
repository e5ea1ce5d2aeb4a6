/**
 * Wall-clock time in a named time zone (IANA, "Europe/Paris"), read with the runtime's own
 * time-zone data (Intl): what a chat's daily watchlist is set in. No library: Node carries the
 * zone database, and node-cron reads zones the same way.
 */

/** A time of day as chats type it, 24-hour: "9:30", "09:30", "21:05". */
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** "09:30" from what was typed; null when it is no time of day. */
export function timeOfDay(text: string): string | null {
  const match = TIME.exec(text.trim());
  if (match === null) return null;
  return `${(match[1] ?? '').padStart(2, '0')}:${match[2] ?? '00'}`;
}

/**
 * The zone as it will be shown, when the runtime knows it: written as typed ("Asia/Kolkata"), or
 * in the database's own case when only the case differs ("utc" is "UTC"); null when unknown. A
 * known alias stays as typed: the runtime may call Asia/Kolkata by an older name.
 */
export function zoneNamed(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 64) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === trimmed.toLowerCase() ? resolved : trimmed;
  } catch {
    return null;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall clock of `instant` (epoch ms) in `zone`: its day (YYYY-MM-DD) and its minutes since midnight. */
export function wallClock(instant: number, zone: string): { day: string; minutes: number; ms: number } {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const [year, month, day, hour, minute, second] = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map(
    Number,
  ) as [number, number, number, number, number, number];
  return {
    day: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    minutes: hour * 60 + minute,
    // The wall clock read as if it were UTC: its difference from the instant is the zone's offset.
    ms: Date.UTC(year, month - 1, day, hour, minute, second),
  };
}

/** The day before a YYYY-MM-DD day. */
export function dayBefore(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}

/**
 * The instant (epoch ms) at which the wall clock in `zone` reads `day` at `time` ("HH:MM"). A time
 * that a change of clocks skips is read at the offset before the change (the instant it would have been).
 */
export function zonedInstant(day: string, time: string, zone: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  // Two passes: the offset at a first guess, then at the instant that guess gives.
  const first = wall - (wallClock(wall, zone).ms - Math.floor(wall / 1000) * 1000);
  return wall - (wallClock(first, zone).ms - Math.floor(first / 1000) * 1000);
}
