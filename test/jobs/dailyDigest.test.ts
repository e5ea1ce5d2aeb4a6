/**
 * Which day's watchlist is due, pure: the latest time at or before now in the chat's zone (today's
 * once it has come, yesterday's before), unless it came before the setting was made; and the wall
 * clock and instants of named zones the schedule and the due day are read in.
 */
import { describe, expect, it } from 'vitest';
import { digestKey, dueDay } from '../../src/jobs/dailyDigest';
import { dayBefore, timeOfDay, wallClock, zoneNamed, zonedInstant } from '../../src/text/zonedTime';

describe('the day whose watchlist is due', () => {
  const setting = { time: '09:00', zone: 'Europe/Paris', since: Date.parse('2025-01-01T00:00:00Z') };

  it('is today once its time has come in its zone, yesterday before', () => {
    // 09:00 in Paris in January is 08:00 UTC.
    expect(dueDay(setting, Date.parse('2025-01-15T07:59:59Z'))).toBe('2025-01-14');
    expect(dueDay(setting, Date.parse('2025-01-15T08:00:00Z'))).toBe('2025-01-15');
    // 23:30 UTC is already the next day in Paris, before its 09:00: the day before it is due.
    expect(dueDay(setting, Date.parse('2025-01-15T23:30:00Z'))).toBe('2025-01-15');
    // In New York the same instant is still the day before.
    expect(dueDay({ ...setting, zone: 'America/New_York' }, Date.parse('2025-01-15T08:00:00Z'))).toBe('2025-01-14');
  });

  it('is none when that time came before the setting was made', () => {
    const madeAt10 = { ...setting, since: Date.parse('2025-01-15T09:00:00Z') };
    expect(dueDay(madeAt10, Date.parse('2025-01-15T12:00:00Z'))).toBeNull();
    expect(dueDay(madeAt10, Date.parse('2025-01-16T08:00:00Z'))).toBe('2025-01-16');
  });

  it('keys a chat’s watchlist by the chat, its thread and the day', () => {
    expect(digestKey({ platform: 'telegram', chatId: '-100', threadId: '7', scopeId: null }, '2025-01-15')).toBe(
      'daily-digest:telegram:-100:7:2025-01-15',
    );
  });
});

describe('time in a named zone', () => {
  it('reads times of day and zone names as typed, refusing what is neither', () => {
    expect([timeOfDay('9:05'), timeOfDay('21:30'), timeOfDay('24:00'), timeOfDay('9h')]).toEqual(['09:05', '21:30', null, null]);
    expect([zoneNamed('utc'), zoneNamed('europe/paris'), zoneNamed('Asia/Kolkata'), zoneNamed('Mars/Olympus'), zoneNamed('')]).toEqual([
      'UTC',
      'Europe/Paris',
      'Asia/Kolkata',
      null,
      null,
    ]);
  });

  it('turns a day and a time in a zone into the instant, across a change of clocks', () => {
    expect(new Date(zonedInstant('2025-01-15', '09:00', 'Europe/Paris')).toISOString()).toBe('2025-01-15T08:00:00.000Z');
    expect(new Date(zonedInstant('2025-07-15', '09:00', 'Europe/Paris')).toISOString()).toBe('2025-07-15T07:00:00.000Z');
    expect(new Date(zonedInstant('2025-01-15', '09:30', 'Asia/Kolkata')).toISOString()).toBe('2025-01-15T04:00:00.000Z');
    expect(wallClock(Date.parse('2025-01-15T23:30:00Z'), 'Asia/Tokyo')).toMatchObject({ day: '2025-01-16', minutes: 8 * 60 + 30 });
    expect(dayBefore('2024-03-01')).toBe('2024-02-29');
  });
});
