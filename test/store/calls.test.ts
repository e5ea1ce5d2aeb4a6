/**
 * Calls in the store, the same cases on every store (support/stores.ts): the first post of a token
 * in a chat wins, a peak and its milestone alerts are written together, forget-me removes only that
 * person's calls, and a manager's clear removes the chat's.
 */
import { describe, expect, it } from 'vitest';
import { CALLED_AT, chat, newCall } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore } from './support/stores';

const T0 = CALLED_AT;

describe.each(STORE_KINDS)('calls (%s)', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ store } = opened));

  it('is off until turned on, per chat, every topic together', async () => {
    const group = chat('-100', 'telegram', '7');
    expect(await store.calls.enabled(group)).toBe(false);
    await store.calls.setEnabled(group, true, T0);
    expect(await store.calls.enabled(chat('-100'))).toBe(true);
    expect(await store.calls.enabled(chat('-200'))).toBe(false);
    await store.calls.setEnabled(group, false, T0);
    expect(await store.calls.enabled(group)).toBe(false);
  });

  it('keeps the first post of a token in a chat; later posts, at once or after, are not calls', async () => {
    const group = chat('-100');
    const first = await store.calls.record(newCall(group, 'TokenA', 'alice'));
    const second = await store.calls.record(newCall(group, 'TokenA', 'bob', { calledAt: new Date(T0.getTime() + 1) }));
    expect([first.created, second.created]).toEqual([true, false]);
    expect(second.call.id).toBe(first.call.id);
    expect(second.call.userId).toBe('alice');
    // Two posts at once: exactly one is the call (which one is the database's order), and both answers name it.
    const race = await Promise.all([
      store.calls.record(newCall(group, 'TokenB', 'dave')),
      store.calls.record(newCall(group, 'TokenB', 'erin')),
    ]);
    expect(race.map((answer) => answer.created).sort()).toEqual([false, true]);
    expect(race[0]?.call.id).toBe(race[1]?.call.id);
    const later = await store.calls.record(newCall(group, 'TokenA', 'carol', { calledAt: new Date(T0.getTime() + 60_000) }));
    expect([later.created, later.call.userId]).toEqual([false, 'alice']);
    // Another chat has its own first caller.
    expect((await store.calls.record(newCall(chat('-200'), 'TokenA', 'bob'))).created).toBe(true);

    const read = await store.calls.get(group, 'TokenA');
    expect(read).toMatchObject({
      userId: 'alice',
      userName: 'name of alice',
      messageId: 'm-alice-TokenA',
      priceSol: 0.001,
      peakSol: 0.001,
      toldMultiple: 0,
    });
    expect(read?.calledAt).toEqual(T0);
    expect(read?.nextCheckAt).toEqual(T0);
  });

  it('lists a chat’s calls newest first, from a moment on', async () => {
    const group = chat('-100');
    await store.calls.record(newCall(group, 'TokenA', 'alice'));
    await store.calls.record(newCall(group, 'TokenB', 'bob', { calledAt: new Date(T0.getTime() + 3_600_000) }));
    expect((await store.calls.list(group, null)).map((call) => call.address)).toEqual(['TokenB', 'TokenA']);
    expect((await store.calls.list(group, new Date(T0.getTime() + 1))).map((call) => call.address)).toEqual(['TokenB']);
  });

  it('gives the due calls of chats with calls on, and writes a peak with its milestone alert at once', async () => {
    const group = chat('-100');
    const off = chat('-300');
    await store.calls.setEnabled(group, true, T0);
    const { call } = await store.calls.record(newCall(group, 'TokenA', 'alice'));
    await store.calls.record(newCall(off, 'TokenA', 'bob'));
    expect((await store.calls.due(T0, 10)).map((due) => due.id)).toEqual([call.id]);

    const next = new Date(T0.getTime() + 300_000);
    const event = {
      kind: 'risk-status' as const,
      key: `call:${call.id}:x2`,
      at: T0.getTime(),
      token: { address: 'TokenA', symbol: 'TOK', name: 'Token' },
      from: null,
      to: null,
      flags: [],
    };
    const added = await store.calls.recordPeaks(
      [
        {
          id: call.id,
          peakSol: 0.0025,
          peakAt: T0,
          lastSol: 0.002,
          lastAt: T0,
          checkedTo: 1_800_000_240,
          nextCheckAt: next,
          toldMultiple: 2,
        },
      ],
      [{ event, to: [{ chat: group, label: null }] }],
      T0,
    );
    expect(added).toBe(1);
    expect(await store.calls.get(group, 'TokenA')).toMatchObject({
      peakSol: 0.0025,
      lastSol: 0.002,
      checkedTo: 1_800_000_240,
      toldMultiple: 2,
      nextCheckAt: next,
    });
    expect(await store.calls.due(T0, 10)).toEqual([]);
    // The same milestone again (a restart that read the call before the write) adds no row.
    expect(await store.calls.recordPeaks([], [{ event, to: [{ chat: group, label: null }] }], T0)).toBe(0);
    expect((await store.outbox.due('telegram', T0, 10)).map((row) => row.event.key)).toEqual([`call:${call.id}:x2`]);
  });

  it('gives due calls round-robin by chat: a chat with a thousand calls keeps no other chat’s waiting', async () => {
    const busy = chat('-700');
    const small = chat('-800');
    await store.calls.setEnabled(busy, true, T0);
    await store.calls.setEnabled(small, true, T0);
    for (let index = 0; index < 1_000; index++) await store.calls.record(newCall(busy, `Busy${index}`, `u${index % 7}`));
    const { call } = await store.calls.record(newCall(small, 'SmallA', 'zoe', { calledAt: new Date(T0.getTime() + 60_000) }));
    const now = new Date(T0.getTime() + 3_600_000);
    const due = await store.calls.due(now, 200);
    expect(due).toHaveLength(200);
    // The small chat's one call comes among the first turn, before the busy chat's second.
    expect(due.slice(0, 2).map((found) => found.id)).toContain(call.id);
  });

  it('stops following a chat’s calls beyond its newest, and only that chat’s', async () => {
    const group = chat('-720');
    const other = chat('-721');
    for (const where of [group, other]) await store.calls.setEnabled(where, true, T0);
    for (let index = 0; index < 5; index++)
      await store.calls.record(newCall(group, `Keep${index}`, 'u1', { calledAt: new Date(T0.getTime() + index * 1000) }));
    await store.calls.record(newCall(other, 'Other', 'u2'));
    expect(await store.calls.retireBeyond(group, 3)).toBe(2);
    const followed = (await store.calls.list(group, null)).filter((call) => call.nextCheckAt !== null).map((call) => call.address);
    expect(followed).toEqual(['Keep4', 'Keep3', 'Keep2']);
    expect(await store.calls.retireBeyond(group, 3)).toBe(0);
    expect((await store.calls.get(other, 'Other'))?.nextCheckAt).not.toBeNull();
  });

  it('moves with a Telegram group that became a supergroup, calls and setting alike', async () => {
    await store.calls.setEnabled(chat('-100'), true, T0);
    await store.calls.record(newCall(chat('-100'), 'TokenA', 'alice'));
    await store.calls.record(newCall(chat('-100'), 'TokenB', 'alice'));
    // The supergroup already has its own first call of TokenB: it stays the call.
    await store.calls.record(newCall(chat('-1009'), 'TokenB', 'bob'));
    await store.chats.migrate('telegram', '-100', '-1009');
    expect(await store.calls.enabled(chat('-1009'))).toBe(true);
    expect(await store.calls.enabled(chat('-100'))).toBe(false);
    expect((await store.calls.list(chat('-1009'), null)).map((call) => `${call.address}:${call.userId}`).sort()).toEqual([
      'TokenA:alice',
      'TokenB:bob',
    ]);
    expect(await store.calls.list(chat('-100'), null)).toEqual([]);
  });

  it('forgets one person’s calls in one chat, and a clear removes the chat’s', async () => {
    const group = chat('-100');
    const other = chat('-200');
    await store.calls.record(newCall(group, 'TokenA', 'alice'));
    await store.calls.record(newCall(group, 'TokenB', 'bob'));
    await store.calls.record(newCall(group, 'TokenC', 'alice', { calledAt: new Date(T0.getTime() + 1_000) }));
    await store.calls.record(newCall(other, 'TokenA', 'alice'));

    expect((await store.calls.forget(group, 'alice')).map((call) => call.address)).toEqual(['TokenC', 'TokenA']);
    expect((await store.calls.list(group, null)).map((call) => call.userId)).toEqual(['bob']);
    expect((await store.calls.list(other, null)).map((call) => call.userId)).toEqual(['alice']);
    expect(await store.calls.forget(group, 'alice')).toEqual([]);

    expect(await store.calls.clear(group)).toBe(1);
    expect(await store.calls.list(group, null)).toEqual([]);
    expect(await store.calls.list(other, null)).toHaveLength(1);
  });

  it('takes a forgotten caller’s name out of the milestone alerts of the chat, queued or sent', async () => {
    const group = chat('-730');
    await store.calls.setEnabled(group, true, T0);
    const { call: alices } = await store.calls.record(newCall(group, 'TokenA', 'alice', { userName: 'Alice Real-Name' }));
    const { call: bobs } = await store.calls.record(newCall(group, 'TokenB', 'bob', { userName: 'Bob' }));
    const line = (call: typeof alices) => ({
      callId: call.id,
      address: call.address,
      symbol: call.symbol,
      name: call.name,
      userName: call.userName,
      calledAt: call.calledAt.getTime(),
      milestone: 2,
      multiple: 2.1,
      entryMcapUsd: 150_000,
      entryMcapSol: 1_000,
      messageId: null,
    });
    const event = {
      kind: 'call-milestone' as const,
      key: `call-milestone:${alices.id}:${bobs.id}:x2`,
      at: T0.getTime(),
      token: { address: 'TokenA', symbol: 'TOK', name: 'Token' },
      calls: [line(alices), line(bobs)],
    };
    const update = (call: typeof alices) => ({
      id: call.id,
      peakSol: 0.0021,
      peakAt: T0,
      lastSol: 0.002,
      lastAt: T0,
      checkedTo: 0,
      nextCheckAt: null,
      toldMultiple: 2,
    });
    expect(await store.calls.recordPeaks([update(alices), update(bobs)], [{ event, to: [{ chat: group, label: null }] }], T0)).toBe(1);
    await store.calls.forget(group, 'alice');
    const [queued] = await store.outbox.due('telegram', new Date(T0.getTime() + 60_000), 10);
    const calls = (queued?.event as typeof event | undefined)?.calls ?? [];
    expect(calls.map((milestone) => milestone.userName)).toEqual(['someone', 'Bob']);
    expect(JSON.stringify(queued?.event)).not.toContain('Alice Real-Name');
  });
});
