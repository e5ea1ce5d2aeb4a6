/**
 * Quiet hours (`/quiet HH:MM-HH:MM [zone]`): whether an instant falls inside a chat's quiet hours,
 * and when those hours end. Read on the wall clock of the chat's zone, with the zone handling the
 * daily watchlists use (src/text/zonedTime.ts), so a change of clocks moves the hours with it.
 */
import type { QuietSetting } from '../store/store';
import { wallClock, zonedInstant } from '../text/zonedTime';

function minutesOf(time: string): number {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return hour * 60 + minute;
}

function dayAfter(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/**
 * The end (epoch ms) of the quiet hours `instant` falls in, or null when it falls in none. Hours
 * whose start is after their end run across midnight (23:00-07:00); equal ends are no hours at all.
 */
export function quietUntil(quiet: Pick<QuietSetting, 'from' | 'to' | 'zone'>, instant: number): number | null {
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return null;
  const clock = wallClock(instant, quiet.zone);
  if (from < to) return clock.minutes >= from && clock.minutes < to ? zonedInstant(clock.day, quiet.to, quiet.zone) : null;
  if (clock.minutes >= from) return zonedInstant(dayAfter(clock.day), quiet.to, quiet.zone);
  if (clock.minutes < to) return zonedInstant(clock.day, quiet.to, quiet.zone);
  return null;
}
