/**
 * Delivery across closes and reopens loses and repeats nothing: a contract suite, on every store
 * (support/stores.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { chat, priceEvent, tokenSnapshot } from './helpers';
import { STORE_KINDS } from './support/stores';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

const T0 = new Date(1_700_000_000_000);
const CHATS = ['1', '2', '3'];

describe.each(STORE_KINDS)('closing and reopening the %s store in the middle of delivery', (_kind, makeHome) => {
  it('loses and repeats nothing', async () => {
    const home = await makeHome();
    cleanups.push(home.remove);
    let store = await home.open();
    for (let i = 0; i < 10; i += 1) {
      await store.state.commitToken(
        tokenSnapshot('TokenA'),
        [{ event: priceEvent('TokenA', `k${i}`), to: CHATS.map((id) => ({ chat: chat(id), label: null })) }],
        T0,
      );
    }
    const sent: string[] = [];
    // Take a batch, "send" half of it, and stop before marking the rest.
    const batch = await store.outbox.due('telegram', T0, 12);
    for (const row of batch.slice(0, 6)) sent.push(`${row.chat.chatId}/${row.event.key}`);
    await store.outbox.markDelivered(
      batch.slice(0, 6).map((row) => row.id),
      T0,
    );
    await store.close();

    store = await home.open();
    for (;;) {
      const rows = await store.outbox.due('telegram', T0, 7);
      if (rows.length === 0) break;
      for (const row of rows) sent.push(`${row.chat.chatId}/${row.event.key}`);
      await store.outbox.markDelivered(
        rows.map((row) => row.id),
        T0,
      );
      await store.close();
      store = await home.open();
    }
    await store.close();
    const expected = CHATS.flatMap((id) => Array.from({ length: 10 }, (_, i) => `${id}/k${i}`));
    expect([...sent].sort()).toEqual([...expected].sort());
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('property: any interleaving of commit, due, deliver, fail, pause, defer and reopen delivers each (chat, key) once', async () => {
    type Op =
      | { op: 'commit'; key: number; chats: number[] }
      | { op: 'deliver'; take: number; send: number }
      | { op: 'fail'; take: number }
      | { op: 'reopen' }
      /** Commits fired without waiting for them: they share a transaction, or meet a close. */
      | { op: 'burst'; keys: number[]; chatId: number }
      | { op: 'pause' | 'resume'; chatId: number }
      | { op: 'defer'; chatId: number; ticks: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      {
        arbitrary: fc.record({
          op: fc.constant('commit' as const),
          key: fc.integer({ min: 0, max: 15 }),
          chats: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }),
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({
          op: fc.constant('deliver' as const),
          take: fc.integer({ min: 1, max: 6 }),
          send: fc.integer({ min: 0, max: 6 }),
        }),
        weight: 3,
      },
      { arbitrary: fc.record({ op: fc.constant('fail' as const), take: fc.integer({ min: 1, max: 3 }) }), weight: 3 },
      // A reopen costs a checkpointer thread's start and stop (tens of ms): rarer than the rest.
      { arbitrary: fc.constant({ op: 'reopen' as const }), weight: 1 },
      {
        arbitrary: fc.record({ op: fc.constantFrom('pause' as const, 'resume' as const), chatId: fc.integer({ min: 0, max: 3 }) }),
        weight: 3,
      },
      {
        arbitrary: fc.record({
          op: fc.constant('defer' as const),
          chatId: fc.integer({ min: 0, max: 3 }),
          ticks: fc.integer({ min: 1, max: 5 }),
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({
          op: fc.constant('burst' as const),
          keys: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 5 }),
          chatId: fc.integer({ min: 0, max: 3 }),
        }),
        weight: 3,
      },
    );

    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 80 }), async (ops) => {
        const home = await makeHome();
        let store = await home.open();
        // Time only moves forward; a failed row is retried one tick later.
        let clock = T0.getTime();
        const wanted = new Set<string>();
        const sent: string[] = [];
        const unawaited: Array<Promise<number>> = [];
        const paused = new Set<string>();
        const drain = async (take: number, send: number) => {
          const rows = await store.outbox.due('telegram', new Date(clock), take);
          // due() never gives a paused chat's rows.
          for (const row of rows) expect(paused.has(row.chat.chatId)).toBe(false);
          const delivered = rows.slice(0, send);
          for (const row of delivered) sent.push(`${row.chat.chatId}/${row.event.key}`);
          await store.outbox.markDelivered(
            delivered.map((row) => row.id),
            new Date(clock),
          );
        };
        try {
          for (const op of ops) {
            clock += 1;
            if (op.op === 'commit') {
              const to = op.chats.map((id) => ({ chat: chat(String(id)), label: null }));
              for (const id of op.chats) wanted.add(`${id}/k${op.key}`);
              await store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', `k${op.key}`), to }], new Date(clock));
            } else if (op.op === 'burst') {
              for (const key of op.keys) {
                wanted.add(`${op.chatId}/k${key}`);
                const to = [{ chat: chat(String(op.chatId)), label: null }];
                unawaited.push(
                  store.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', `k${key}`), to }], new Date(clock)),
                );
              }
            } else if (op.op === 'pause') {
              paused.add(String(op.chatId));
              await store.chats.pause(chat(String(op.chatId)), 'gone', new Date(clock));
            } else if (op.op === 'resume') {
              paused.delete(String(op.chatId));
              await store.chats.resume(chat(String(op.chatId)));
            } else if (op.op === 'defer') {
              await store.outbox.deferChat(chat(String(op.chatId)), new Date(clock + op.ticks));
            } else if (op.op === 'deliver') {
              await drain(op.take, op.send);
            } else if (op.op === 'fail') {
              const rows = await store.outbox.due('telegram', new Date(clock), op.take);
              await store.outbox.retryAt(
                rows.map((row) => row.id),
                new Date(clock + 1),
                'boom',
              );
            } else {
              await store.close();
              store = await home.open();
            }
          }
          await Promise.all(unawaited);
          // Finally, a restart, every chat resumed, and a full drain.
          await store.close();
          store = await home.open();
          for (const id of paused) await store.chats.resume(chat(id));
          paused.clear();
          clock += 10;
          for (let round = 0; round < 100; round += 1) {
            const before = sent.length;
            await drain(50, 50);
            if (sent.length === before) break;
          }
          expect(await store.outbox.pending()).toEqual({ count: 0, oldest: null });
          expect([...sent].sort()).toEqual([...wanted].sort());
        } finally {
          await store.close();
          await home.remove();
        }
      }),
      // Fewer, longer runs: each opens a store (a file and a thread), which costs more than its ops.
      { numRuns: 20 },
    );
    // A few seconds on an idle machine; the room is for a loaded one.
  }, 120_000);
});
