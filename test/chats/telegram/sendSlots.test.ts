/**
 * Telegram's limits kept when messages leave (src/chats/telegram/sendSlots.ts): whatever the order
 * and timing of the asks, every two reserved times are the overall gap apart, a chat's are the
 * per-chat gap apart and in the order asked, a group never has more than its count in a window,
 * and a chat waiting for its own gap does not hold back another chat.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SendSlots } from '../../../src/chats/telegram/sendSlots';
import { DEFAULT_PACE } from '../../../src/chats/telegram/api';

const PACE = DEFAULT_PACE;

describe('send slots', () => {
  it('keeps every limit for any asks', () => {
    const ask = fc.record({ chat: fc.constantFrom('1', '2', '3', '-100', '-200'), after: fc.integer({ min: 0, max: 400 }) });
    fc.assert(
      fc.property(fc.array(ask, { minLength: 1, maxLength: 120 }), (asks) => {
        let now = 1_000_000;
        const slots = new SendSlots(PACE, () => now);
        const given: Array<{ chat: string; at: number; askedAt: number }> = [];
        for (const { chat, after } of asks) {
          now += after;
          given.push({ chat, at: slots.reserve(chat), askedAt: now });
        }
        const times = given.map((slot) => slot.at).sort((a, b) => a - b);
        for (let i = 1; i < times.length; i += 1) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(PACE.overallMinMs);
        for (const slot of given) expect(slot.at).toBeGreaterThanOrEqual(slot.askedAt);
        for (const chat of new Set(given.map((slot) => slot.chat))) {
          const mine = given.filter((slot) => slot.chat === chat).map((slot) => slot.at);
          for (let i = 1; i < mine.length; i += 1) expect((mine[i] ?? 0) - (mine[i - 1] ?? 0)).toBeGreaterThanOrEqual(PACE.perChatMinMs);
          if (chat.startsWith('-')) {
            for (let i = PACE.perGroup; i < mine.length; i += 1)
              expect((mine[i] ?? 0) - (mine[i - PACE.perGroup] ?? 0)).toBeGreaterThanOrEqual(PACE.groupWindowMs);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives another chat the next free slot while one chat waits for its gap', () => {
    const now = 5_000;
    const slots = new SendSlots(PACE, () => now);
    expect(slots.reserve('1')).toBe(5_000);
    expect(slots.reserve('1')).toBe(5_000 + PACE.perChatMinMs);
    expect(slots.reserve('2')).toBe(5_000 + PACE.overallMinMs);
  });

  it('holds a group past its count in the window', () => {
    let now = 0;
    const slots = new SendSlots({ ...PACE, perChatMinMs: 0 }, () => now);
    const times = Array.from({ length: PACE.perGroup + 1 }, () => slots.reserve('-5'));
    expect(times.at(-1)).toBe((times[0] ?? 0) + PACE.groupWindowMs);
    now = 1;
    expect(slots.reserve('7')).toBeLessThan(PACE.groupWindowMs);
  });
});
