/**
 * Targets and price directions in the store, the same cases on every store (support/stores.ts): a
 * chat's targets of a token live beside its /track of it, the /track commands never touch them,
 * and a target whose crossing is in the outbox's events is removed as done.
 */
import { describe, expect, it } from 'vitest';
import type { TargetEvent } from '../../src/alerts/kinds/target';
import { targetEventKey, type FollowOptions } from '../../src/model/follow';
import { DEFAULT_OPTIONS, chat, newFollow, tokenSnapshot } from './helpers';
import { eachStore, STORE_KINDS, type ContractStore } from './support/stores';

const ABOVE: FollowOptions = { ...DEFAULT_OPTIONS, target: { metric: 'price', side: 'above', value: 0.0012 } };
const BELOW: FollowOptions = { ...DEFAULT_OPTIONS, target: { metric: 'mcap', side: 'below', value: 250_000 } };

describe.each(STORE_KINDS)('targets and directions (%s)', (_kind, makeHome) => {
  let store: ContractStore;
  eachStore(makeHome, (opened) => ({ store } = opened));

  it('keeps a price direction, and leaves it out when it is both', async () => {
    const group = chat('-100');
    const down = await store.follows.upsert(newFollow(group, 'TokenA', { options: { ...DEFAULT_OPTIONS, direction: 'down' } }));
    expect(down.follow.options).toEqual({ ...DEFAULT_OPTIONS, direction: 'down' });
    const both = await store.follows.upsert(newFollow(group, 'TokenA', { options: { ...DEFAULT_OPTIONS, direction: 'both' } }));
    expect(both.follow.id).toBe(down.follow.id);
    expect(both.follow.options).toEqual(DEFAULT_OPTIONS);
  });

  it('holds several targets of one token beside the chat’s /track of it; the /track commands touch only the /track', async () => {
    const group = chat('-100');
    const tracked = await store.follows.upsert(newFollow(group, 'TokenA'));
    const above = await store.follows.upsert(newFollow(group, 'TokenA', { options: ABOVE }));
    const below = await store.follows.upsert(newFollow(group, 'TokenA', { options: BELOW }));
    expect(new Set([tracked.follow.id, above.follow.id, below.follow.id]).size).toBe(3);
    // The same target again is the same follow.
    const again = await store.follows.upsert(newFollow(group, 'TokenA', { options: ABOVE }));
    expect([again.created, again.follow.id]).toEqual([false, above.follow.id]);

    expect((await store.follows.get(group, 'TokenA'))?.id).toBe(tracked.follow.id);
    expect((await store.follows.targetsOf(group)).map((follow) => follow.options.target)).toEqual([ABOVE.target, BELOW.target]);
    expect(await store.follows.countForChat(group)).toBe(3);
    expect((await store.follows.list(group, { offset: 0, limit: 10 })).total).toBe(3);
    expect((await store.follows.followersOf('token', 'TokenA')).map((follow) => follow.id)).toEqual([
      tracked.follow.id,
      above.follow.id,
      below.follow.id,
    ]);
    expect((await store.follows.targets()).tokens).toEqual(['TokenA']);

    expect(await store.follows.setMutedUntil(group, 'TokenA', new Date(1_900_000_000_000))).toBe(true);
    expect((await store.follows.targetsOf(group)).every((follow) => follow.mutedUntil === null)).toBe(true);
    expect(await store.follows.remove(group, 'TokenA')).toBe(true);
    expect(await store.follows.get(group, 'TokenA')).toBeNull();
    expect(await store.follows.targetsOf(group)).toHaveLength(2);

    expect(await store.follows.removeTargets(chat('-999'), 'TokenA')).toBe(0);
    expect(await store.follows.removeTargets(group, 'TokenA')).toBe(2);
    expect(await store.follows.targetsOf(group)).toEqual([]);
    expect(await store.follows.followersOf('token', 'TokenA')).toEqual([]);
  });

  it('removes a target once its crossing is in the outbox, and only that one', async () => {
    const group = chat('-100');
    const other = chat('-200');
    const reached = await store.follows.upsert(newFollow(group, 'TokenA', { options: ABOVE }));
    const waiting = await store.follows.upsert(newFollow(other, 'TokenA', { options: ABOVE }));
    const tracked = await store.follows.upsert(newFollow(group, 'TokenA'));
    expect(await store.follows.removeReachedTargets()).toEqual([]);

    const event: TargetEvent = {
      kind: 'target',
      key: targetEventKey('TokenA', reached.follow.id),
      at: 1_700_000_000_000,
      token: { address: 'TokenA', symbol: 'TOK', name: 'Token' },
      followId: reached.follow.id,
      target: { metric: 'price', side: 'above', value: 0.0012 },
      from: 0.001,
      to: 0.0013,
    };
    // The watcher's commit: the state and the outbox row of the crossing, together.
    expect(
      await store.state.commitToken(tokenSnapshot('TokenA'), [{ event, to: [{ chat: group, label: null }] }], new Date(1_700_000_000_000)),
    ).toBe(1);
    expect(await store.follows.followersOf('token', 'TokenA')).toHaveLength(3);

    expect(await store.follows.removeReachedTargets()).toEqual(['TokenA']);
    expect(await store.follows.targetsOf(group)).toEqual([]);
    expect((await store.follows.targetsOf(other)).map((follow) => follow.id)).toEqual([waiting.follow.id]);
    expect((await store.follows.followersOf('token', 'TokenA')).map((follow) => follow.id)).toEqual([waiting.follow.id, tracked.follow.id]);
    expect(await store.follows.removeReachedTargets()).toEqual([]);
  });
});
