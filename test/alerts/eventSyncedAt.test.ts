/**
 * Token events carry the service's `syncedAt` of the data that showed the change, so their footer
 * says how quick the bot was; data without one (kept from the last state) gives none.
 */
import { describe, expect, it } from 'vitest';
import { detectTokenChanges } from '../../src/alerts/detect';
import { snapshotOfToken } from '../../src/alerts/snapshot';
import { timingLine } from '../../src/delivery/timingFooter';
import { POOL_A, POOL_B, makeToken, type TokenShape } from '../watch/support/fixtures';

const SYNCED_1 = '2027-01-15T12:00:00.000Z';
const SYNCED_2 = '2027-01-15T12:00:10.000Z';
const T0 = Date.parse(SYNCED_1) + 1_000;

function frame(shape: TokenShape, synced: string | null) {
  return { ...makeToken(shape), syncedAt: synced };
}

describe("a token event's syncedAt", () => {
  it('is the time of the frame that showed the change, and the footer reads it', () => {
    const last = snapshotOfToken(frame({ riskStatus: 'SAFE' }, SYNCED_1), null, T0, null, 'stream');
    const seenAt = Date.parse(SYNCED_2) + 3_000;
    const next = snapshotOfToken(
      frame({ riskStatus: 'DANGER', pools: { [POOL_A]: '100000000000', [POOL_B]: '100000000000' } }, SYNCED_2),
      last,
      seenAt,
      null,
      'stream',
    );
    const events = detectTokenChanges(last, next);
    expect(events.map((event) => event.kind)).toContain('risk-status');
    for (const event of events) expect(event.syncedAt).toBe(Date.parse(SYNCED_2));
    const status = events.find((event) => event.kind === 'risk-status');
    expect(status === undefined ? null : timingLine(status, new Date(seenAt + 1_000))).toBe('seen 3s after the update · sent 1s later');
  });

  it('is null when the frame gave none, not the last state’s, and the footer says nothing', () => {
    const last = snapshotOfToken(frame({ riskStatus: 'SAFE' }, SYNCED_1), null, T0, null, 'stream');
    const next = snapshotOfToken(frame({ riskStatus: 'DANGER' }, null), last, T0 + 60_000, null, 'stream');
    // The snapshot keeps the last syncedAt to order later data by; the event does not claim it.
    expect(next.syncedAt).toBe(Date.parse(SYNCED_1));
    const [status] = detectTokenChanges(last, next).filter((event) => event.kind === 'risk-status');
    expect(status?.syncedAt).toBeNull();
    expect(status === undefined ? 'missing' : timingLine(status, new Date(T0 + 61_000))).toBeNull();
  });
});
