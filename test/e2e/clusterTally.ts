/**
 * What the tests of several processes share: waiting on a condition, the live partitions by owner,
 * and the tally of the alerts each (chat, token) got against the rounds of changes made: alerts, not
 * messages, so that an alert told again inside a digest counts as told twice.
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
  /**
   * The change this one alert tells ("WARNING → DANGER"): a message carries one such alert alone, a
   * digest one per entry. Absent, the message as a whole is the alert (a repeat is an equal text).
   */
  change?: string;
}

/** What a process of a bot of several logs when it joined: its line names it (`owner`). */
const JOINED = 'joined the bot as one of its processes';

/** Waits for the process whose log `stderr` reads to join, and gives its owner name. */
export async function joinedOwner(bot: { name: string; stderr: () => string }, timeoutMs: number): Promise<string> {
  await until(() => bot.stderr().includes(JOINED), `${bot.name} to join`, timeoutMs);
  const line = bot
    .stderr()
    .split('\n')
    .find((text) => text.includes(JOINED)) as string;
  return (JSON.parse(line) as { owner: string }).owner;
}

/** Any risk-status change in a message's text: what makes a Telegram message a risk alert. */
export const STATUS_CHANGE = /(SAFE|WARNING|DANGER)\W*→\W*(SAFE|WARNING|DANGER)/;

/**
 * The Telegram messages from `from` on that tell a risk change, by `chat:token`: one copy per
 * message naming the token's symbol (a repeat is an equal text, see repeatsOf).
 */
export function messageCopies(
  sent: ReadonlyArray<{ chatId: number | string; at: number; text: string; edited?: boolean }>,
  from: number,
  tokens: readonly string[],
  symbolOf: (token: string) => string,
): Map<string, Copy[]> {
  const copies = new Map<string, Copy[]>();
  for (const message of sent.slice(from)) {
    if (message.edited === true || !STATUS_CHANGE.test(message.text)) continue;
    for (const token of tokens) {
      if (!message.text.includes(symbolOf(token))) continue;
      const key = `${message.chatId}:${token}`;
      copies.set(key, [...(copies.get(key) ?? []), { at: message.at, text: message.text }]);
    }
  }
  return copies;
}

/** A risk-status alert's title, alone or as a digest's entry: "Risk WARNING → DANGER: Neon Mochi (MOCHI)". */
const STATUS_TITLE = /Risk (SAFE|WARNING|DANGER) → (SAFE|WARNING|DANGER): [^<>\n"]*? \(([^()<>\n"]+)\)/g;

/**
 * The risk-status alerts of the token `symbol` in one message, in the order it lists them: one for
 * an alert sent alone, one per entry of a digest. Each is the change it tells.
 */
export function statusAlertsIn(text: string, symbol: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(STATUS_TITLE)) if (match[3] === symbol) found.push(`${match[1]} → ${match[2]}`);
  return found;
}

/**
 * The alerts of one message, each a Copy of its own: a digest of six alerts is six copies, so that
 * an alert told again inside a later digest is counted as a repeat.
 */
export function copiesIn(message: { at: number; text: string }, symbol: string): Copy[] {
  return statusAlertsIn(message.text, symbol).map((change) => ({ at: message.at, text: message.text, change }));
}

/**
 * The repeats among one (chat, token)'s copies, each with the copy it repeats. With `change`, the
 * rounds flip a token's status back and forth, so each alert tells the opposite change of the one
 * before it: an alert telling the same change as the one before it in that chat is that change told
 * again. Without, a repeat is a message whose text came before.
 */
function repeatsOf(copies: readonly Copy[]): Array<{ original: Copy; repeat: Copy }> {
  const found: Array<{ original: Copy; repeat: Copy }> = [];
  copies.forEach((copy, index) => {
    if (copy.change !== undefined) {
      const before = copies[index - 1];
      if (before?.change === copy.change) found.push({ original: before, repeat: copy });
      return;
    }
    const first = copies.findIndex((other) => other.text === copy.text);
    if (first !== index) found.push({ original: copies[first] as Copy, repeat: copy });
  });
  return found;
}

/** The changes told to one (chat, token), each once: its copies less the repeats among them. */
export function toldOnce(copies: readonly Copy[]): number {
  return copies.length - repeatsOf(copies).length;
}

const shown = (copy: Copy): string =>
  `  ${copy.at}${copy.change === undefined ? '' : ` ${copy.change} in`} ${copy.text.slice(0, 120).replace(/\n/g, ' | ')}`;

/**
 * Each (chat, token) got one alert a round, whether alone or inside a digest; an alert beyond that
 * must be a repeat of one told before, which `explains` (a kill, a stall or a cut between the two)
 * accounts for. Returns the totals for the test's printed line.
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
    const repeats = repeatsOf(copies);
    // Whole messages: one of the same text may be another round's (a digest of the same changes in
    // the same minute), so they are looked at only when there are too many.
    const byMessage = copies.some((copy) => copy.change === undefined);
    if (byMessage ? copies.length <= rounds : copies.length === rounds && repeats.length === 0) continue;
    process.stdout.write(`${what}: ${copies.length} alerts for ${rounds} rounds:\n${copies.map(shown).join('\n')}\n`);
    for (const { original, repeat } of repeats)
      expect(explains(original, repeat, what), `${what}: a repeat nothing explains (${repeat.change ?? 'the same message'})`).toBe(true);
    expect(copies.length - repeats.length, `${what}: ${copies.length} alerts (${repeats.length} told again) for ${rounds} changes`).toBe(
      rounds,
    );
    explained += repeats.length;
  }
  return { expected, delivered, explained };
}
