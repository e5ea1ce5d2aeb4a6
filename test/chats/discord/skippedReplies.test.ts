/**
 * The answers to skipped interactions: a few under way at once, in the order they came, and none
 * whose turn comes after Discord would take it (on a clock the test moves).
 */
import { describe, expect, it } from 'vitest';
import { SkippedReplies } from '../../../src/chats/discord/skippedReplies';

/** A send the test finishes by hand. */
function heldSend(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const finished = new Promise<void>((resolve, reject) => ((finish = resolve), (fail = reject)));
  return {
    send: async () => {
      log.push(name);
      await finished;
    },
    finish: () => finish(),
    fail: (error: Error) => fail(error),
  };
}

describe('SkippedReplies', () => {
  it('keeps at most `atOnce` answers under way, and starts the next in order as one ends', async () => {
    const started: string[] = [];
    const replies = new SkippedReplies({ atOnce: 2, giveUpAfterMs: 60_000 });
    const sends = ['a', 'b', 'c', 'd'].map((name) => heldSend(started, name));
    const done = sends.map((s) => replies.add(s.send, Date.now()));
    expect(started).toEqual(['a', 'b']);
    sends[1]?.finish();
    await done[1];
    await expect.poll(() => started).toEqual(['a', 'b', 'c']);
    for (const s of sends) s.finish();
    await Promise.all(done);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('an answer whose turn comes too late is not sent, and says so', async () => {
    let now = 0;
    const started: string[] = [];
    const replies = new SkippedReplies({ atOnce: 1, giveUpAfterMs: 2_500, now: () => now });
    const first = heldSend(started, 'first');
    const late = heldSend(started, 'late');
    const firstDone = replies.add(first.send, 0);
    const lateDone = replies.add(late.send, 0);
    now = 2_501;
    first.finish();
    await Promise.all([firstDone, lateDone]);
    expect(started).toEqual(['first']);
    expect(replies.givenUp).toBe(1);
  });

  it('a failed send rejects its own answer only', async () => {
    const started: string[] = [];
    const replies = new SkippedReplies({ atOnce: 1, giveUpAfterMs: 60_000 });
    const bad = heldSend(started, 'bad');
    const good = heldSend(started, 'good');
    const badDone = replies.add(bad.send, Date.now());
    const goodDone = replies.add(good.send, Date.now());
    bad.fail(new Error('Unknown interaction'));
    await expect(badDone).rejects.toThrow('Unknown interaction');
    good.finish();
    await goodDone;
    expect(started).toEqual(['bad', 'good']);
  });
});
