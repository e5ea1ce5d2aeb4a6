import { describe, expect, it } from 'vitest';
import { parseDuration, parseDurationMs } from '../src/duration';

describe('the duration grammar', () => {
  it('reads one or more number-and-unit parts, in any case, with or without spaces', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('10s')).toBe(10_000);
    expect(parseDurationMs('5M')).toBe(300_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('1h 30m')).toBe(5_400_000);
    expect(parseDurationMs('1.5h')).toBe(5_400_000);
    expect(parseDurationMs('15 min')).toBe(900_000);
    expect(parseDurationMs('2w')).toBe(1_209_600_000);
    expect(parseDurationMs('1d')).toBe(86_400_000);
  });

  it('refuses a bare number in settings, except 0, and fractions of a millisecond', () => {
    expect(parseDurationMs('0')).toBe(0);
    for (const bad of ['500', '', ' ', '10x', 's', '1.5ms', '-1s', '1e3ms', '10s,', `${'1'.repeat(40)}s`]) {
      expect(parseDurationMs(bad), bad).toBeNull();
    }
  });

  it('lets a person type plain seconds, and wants whole positive seconds', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('1.5h')).toBe(5400);
    for (const bad of ['0', '0s', '500ms', '1.5s', 'soon', '']) expect(parseDuration(bad), bad).toBeNull();
  });

  it('reads both ways the same way where they overlap', () => {
    for (const text of ['1s', '15m', '4h', '1d', '2w', '1h30m', '1.5h']) {
      expect(parseDurationMs(text), text).toBe((parseDuration(text) ?? 0) * 1000);
    }
  });
});
