/**
 * What the tests of several processes share: waiting on a condition, the live partitions by owner,
 * and the tally of the alert messages each (chat, token) got against the rounds of changes made.
 */
import type pg from 'pg';
import { expect, vi } from 'vitest';

/** Waits until `check` holds (vitest looks again until then); the deadline only bounds the wait. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`still waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** The live partitions of each owner, from the leases table. */
export async function partitionsByOwner(db: pg.Client): Promise<Map<string, number[]>> {
  const { rows } = await db.query<{ name: string; owner: string }>(
    "SELECT name, owner FROM leases WHERE expires_at > clock_timestamp() AND name LIKE 'partition:%'",
  );
  const found = new Map<string, number[]>();
  for (const row of rows) found.set(row.owner, [...(found.get(row.owner) ?? []), Number(row.name.slice('partition:'.length))]);
  return found;
}

export interface Copy {
  at: number;
  text: string;
}

/**
 * Each (chat, token) got one message a round; a message beyond that must be a repeat of one sent
 * before, which `explains` (a kill, a stall or a cut between the two) accounts for. Returns the
 * totals for the test's printed line.
 */
export function tallyAlerts(
  lists: ReadonlyArray<{ what: string; copies: readonly Copy[] }>,
  rounds: number,
  explains: (original: Copy, repeat: Copy, what: string) => boolean,
): { expected: number; delivered: number; explained: number } {
  let expected = 0;
  let delivered = 0;
  let explained = 0;
  for (const { what, copies } of lists) {
    expected += rounds;
    delivered += copies.length;
    const extra = copies.length - rounds;
    if (extra <= 0) continue;
    process.stdout.write(
      `${what}: ${copies.length} messages for ${rounds} rounds:\n${copies.map((copy) => `  ${copy.at} ${copy.text.slice(0, 120).replace(/\n/g, ' | ')}`).join('\n')}\n`,
    );
    const repeats = copies.filter((copy, index) => copies.findIndex((other) => other.text === copy.text) !== index);
    for (const repeat of repeats) {
      const original = copies.find((other) => other.text === repeat.text) as Copy;
      expect(explains(original, repeat, what), `${what}: a repeat nothing explains`).toBe(true);
    }
    expect(repeats.length, `${what}: ${copies.length} alerts for ${rounds} changes`).toBe(extra);
    explained += extra;
  }
  return { expected, delivered, explained };
}
