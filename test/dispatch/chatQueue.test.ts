/**
 * The per-chat queue both chat platforms hand their input to: one job at a time per chat in the
 * order offered, a cap on what waits, one notice per chat per minute on a clock the test moves,
 * and chats that never wait for each other.
 */
import { describe, expect, it } from 'vitest';
import { ChatQueue, ChatQueueStoppedError, type Offer } from '../../src/dispatch/chatQueue';

/** A job the test finishes by hand, and the order jobs started in. */
interface Held {
  job: () => Promise<string>;
  /** Resolves once the queue has started the job. */
  started: Promise<void>;
  finish(): void;
  fail(error: Error): void;
}

function holder(log: string[]) {
  return (name: string): Held => {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    let release!: { finish: () => void; fail: (error: Error) => void };
    const released = new Promise<void>((resolve, reject) => (release = { finish: resolve, fail: reject }));
    return {
      job: async () => {
        log.push(name);
        markStarted();
        await released;
        return name;
      },
      started,
      finish: () => release.finish(),
      fail: (error) => release.fail(error),
    };
  };
}

function accepted<T>(offer: Offer<T>): Promise<T> {
  if (!offer.accepted) throw new Error('the offer was dropped');
  return offer.done;
}

describe('ChatQueue', () => {
  it('runs one chat’s jobs one at a time, in the order offered', async () => {
    const started: string[] = [];
    const held = holder(started);
    const queue = new ChatQueue({ maxWaiting: 20, noticeEveryMs: 60_000 });
    const [a, b, c] = [held('a'), held('b'), held('c')];
    const done = [a, b, c].map((h) => accepted(queue.offer('chat', h.job)));
    await a.started;
    expect(started).toEqual(['a']);
    expect(queue.pending('chat')).toBe(3);
    a.finish();
    expect(await done[0]).toBe('a');
    await b.started;
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await c.started;
    c.finish();
    expect(await Promise.all(done)).toEqual(['a', 'b', 'c']);
  });

  it('drops what a chat sends past 20 waiting, and takes it again once the lane has room', async () => {
    const held = holder([]);
    const queue = new ChatQueue({ maxWaiting: 20, noticeEveryMs: 60_000 });
    const first = held('first');
    const done = [accepted(queue.offer('flood', first.job))];
    const waiting = Array.from({ length: 20 }, (_, i) => held(`w${i}`));
    for (const h of waiting) done.push(accepted(queue.offer('flood', h.job)));
    const dropped = Array.from({ length: 50 }, () => queue.offer('flood', held('late').job));
    expect(dropped.every((offer) => !offer.accepted)).toBe(true);
    expect(queue.pending('flood')).toBe(21);
    expect(queue.counts()).toMatchObject({ accepted: 21, dropped: 50 });

    first.finish();
    await waiting[0]?.started;
    // One left the lane: one more fits, the next does not.
    const again = held('again');
    done.push(accepted(queue.offer('flood', again.job)));
    expect(queue.offer('flood', held('over').job).accepted).toBe(false);
    for (const h of waiting) h.finish();
    again.finish();
    expect((await Promise.all(done)).at(-1)).toBe('again');
    expect(queue.pending('flood')).toBe(0);
  });

  it('asks for a notice on a chat’s first drop, then at most once a minute', () => {
    let now = 1_000_000;
    const queue = new ChatQueue({ maxWaiting: 1, noticeEveryMs: 60_000, now: () => now });
    const held = holder([]);
    const notices = (chat: string) => {
      const offer = queue.offer(chat, held('x').job);
      return offer.accepted ? 'taken' : offer.notice;
    };
    expect([notices('a'), notices('a')]).toEqual(['taken', 'taken']);
    expect([notices('a'), notices('a'), notices('a')]).toEqual([true, false, false]);
    now += 59_999;
    expect(notices('a')).toBe(false);
    now += 1;
    expect([notices('a'), notices('a')]).toEqual([true, false]);
    // Another chat's notices are its own.
    expect([notices('b'), notices('b'), notices('b')]).toEqual(['taken', 'taken', true]);
    expect(queue.counts()).toMatchObject({ dropped: 7, notices: 3 });
  });

  it('a chat with a full lane never delays another chat', async () => {
    const started: string[] = [];
    const held = holder(started);
    const queue = new ChatQueue({ maxWaiting: 20, noticeEveryMs: 60_000 });
    const flood = Array.from({ length: 100 }, (_, i) => held(`a${i}`));
    const offers = flood.map((h) => queue.offer('a', h.job));
    // Chats that come later each start at once, while the flooding chat's first job still runs.
    const others = ['b', 'c', 'd'].map((chat) => ({ chat, held: held(chat) }));
    const otherDone = others.map(({ chat, held: h }) => accepted(queue.offer(chat, h.job)));
    await Promise.all(others.map(({ held: h }) => h.started));
    expect(started).toEqual(['a0', 'b', 'c', 'd']);
    for (const { held: h } of others) h.finish();
    expect(await Promise.all(otherDone)).toEqual(['b', 'c', 'd']);
    expect(queue.pending('a')).toBe(21);
    expect(offers.filter((offer) => offer.accepted)).toHaveLength(21);
    for (const h of flood) h.finish();
    await Promise.all(offers.flatMap((offer) => (offer.accepted ? [offer.done] : [])));
    expect(started.filter((name) => name.startsWith('a'))).toEqual(Array.from({ length: 21 }, (_, i) => `a${i}`));
  });

  it('a failed job rejects its own result and the chat’s next job still runs', async () => {
    const held = holder([]);
    const queue = new ChatQueue();
    const [bad, good] = [held('bad'), held('good')];
    const badDone = accepted(queue.offer('chat', bad.job));
    const goodDone = accepted(queue.offer('chat', good.job));
    bad.fail(new Error('no luck'));
    await expect(badDone).rejects.toThrow('no luck');
    good.finish();
    expect(await goodDone).toBe('good');
  });

  it('stop drops the waiting jobs, lets the running ones finish and takes nothing more', async () => {
    const started: string[] = [];
    const held = holder(started);
    const queue = new ChatQueue();
    const [running, waiting] = [held('running'), held('waiting')];
    const runningDone = accepted(queue.offer('chat', running.job));
    const waitingDone = accepted(queue.offer('chat', waiting.job));
    const stopping = queue.stop();
    await expect(waitingDone).rejects.toBeInstanceOf(ChatQueueStoppedError);
    running.finish();
    expect(await stopping).toBe(1);
    expect(await runningDone).toBe('running');
    expect(started).toEqual(['running']);
    expect(queue.offer('chat', held('late').job)).toEqual({ accepted: false, notice: false });
    expect(queue.counts()).toMatchObject({ accepted: 2, droppedAtStop: 1 });
  });
});
