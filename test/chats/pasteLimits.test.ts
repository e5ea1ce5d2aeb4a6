/**
 * The paste limits say how long until a paste may be answered: a private chat tells the person
 * that wait, a group stays silent (start.ts decides; this checks the figures).
 */
import { describe, expect, it } from 'vitest';
import { PasteLimiter } from '../../src/chats/pasteLimits';

const T0 = 1_000_000;
const LIMITS = { perUserCooldownMs: 10_000, perChatPerMinute: 6, repeatMs: 60_000 };

describe('PasteLimiter', () => {
  it('the same person waits out the cooldown', () => {
    const limiter = new PasteLimiter(LIMITS);
    expect(limiter.take('chat', 'u1', 'A1', T0)).toBe(0);
    expect(limiter.take('chat', 'u1', 'B1', T0 + 4_000)).toBe(6_000);
    expect(limiter.take('chat', 'u1', 'B1', T0 + 10_000)).toBe(0);
  });

  it('the same address waits a minute, whoever pastes it', () => {
    const limiter = new PasteLimiter(LIMITS);
    expect(limiter.take('chat', 'u1', 'A1', T0)).toBe(0);
    expect(limiter.take('chat', 'u2', 'A1', T0 + 15_000)).toBe(45_000);
    expect(limiter.take('other', 'u2', 'A1', T0 + 15_000)).toBe(0);
  });

  it('a chat past 6 cards a minute waits until its oldest is a minute old; a refused paste is not counted', () => {
    const limiter = new PasteLimiter(LIMITS);
    for (let i = 0; i < 6; i++) expect(limiter.take('chat', `u${i}`, `A${i}`, T0 + i * 1_000)).toBe(0);
    expect(limiter.take('chat', 'u9', 'A9', T0 + 20_000)).toBe(40_000);
    expect(limiter.take('chat', 'u9', 'A9', T0 + 60_000)).toBe(0);
    // Five of the first six are still within the minute, with the one just taken: full again until T0 + 61 s.
    expect(limiter.take('chat', 'u8', 'A8', T0 + 60_500)).toBe(500);
  });
});
