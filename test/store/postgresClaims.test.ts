/**
 * The PostgreSQL outbox shared by two senders (two stores on one database, as two processes would
 * be): each claims disjoint rows with SELECT … FOR UPDATE SKIP LOCKED, only the claimer can mark a
 * row delivered, a closed store gives its claims back, and a claim whose lease ran out is taken over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS } from '../../src/store/postgres/pgOutbox';
import { chat, priceEvent, tokenSnapshot } from './helpers';
import { STORE_KINDS, postgresRunning, type ContractStore, type StoreHome } from './support/stores';

const T0 = new Date(1_700_000_000_000);
const at = (ms: number) => new Date(T0.getTime() + ms);

let home: StoreHome;
let stores: ContractStore[] = [];
afterEach(async () => {
  for (const store of stores) await store.close();
  stores = [];
  await home?.remove();
});

async function twoSenders(rows: number): Promise<[ContractStore, ContractStore]> {
  const makeHome = STORE_KINDS.find(([kind]) => kind === 'postgres')?.[1];
  if (makeHome === undefined) throw new Error('no PostgreSQL');
  home = await makeHome();
  const first = await home.open();
  const second = await home.open();
  stores.push(first, second);
  const to = Array.from({ length: rows }, (_, i) => ({ chat: chat(String(i)), label: null }));
  await first.state.commitToken(tokenSnapshot('TokenA'), [{ event: priceEvent('TokenA', 'k1'), to }], T0);
  return [first, second];
}

describe.runIf(postgresRunning())('the PostgreSQL outbox with two senders', () => {
  it('gives each sender its own rows, even when they ask at the same moment', async () => {
    const [first, second] = await twoSenders(40);
    const [a, b] = await Promise.all([first.outbox.due('telegram', T0, 25), second.outbox.due('telegram', T0, 25)]);
    const ids = [...a, ...b].map((row) => row.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    // Asked again, each gets its own claimed rows back, and nothing of the other's.
    expect((await first.outbox.due('telegram', T0, 50)).map((row) => row.id).sort()).toEqual(a.map((row) => row.id).sort());
  });

  it('marks a row delivered only for its claimer', async () => {
    const [first, second] = await twoSenders(2);
    const rows = await first.outbox.due('telegram', T0, 10);
    expect(rows).toHaveLength(2);
    await second.outbox.markDelivered(
      rows.map((row) => row.id),
      at(1),
    );
    expect((await first.outbox.pending()).count).toBe(2);
    await first.outbox.markDelivered(
      rows.map((row) => row.id),
      at(2),
    );
    expect((await first.outbox.pending()).count).toBe(0);
  });

  it('lets the other sender take the rows of a closed store at once, and of a dead one after the lease', async () => {
    const [first, second] = await twoSenders(3);
    const taken = await first.outbox.due('telegram', T0, 10);
    expect(taken).toHaveLength(3);
    expect(await second.outbox.due('telegram', T0, 10)).toEqual([]);
    // A sender that died holds its claims until the lease runs out.
    expect(await second.outbox.due('telegram', at(CLAIM_LEASE_MS - 1), 10)).toEqual([]);
    expect((await second.outbox.due('telegram', at(CLAIM_LEASE_MS), 10)).map((row) => row.id).sort()).toEqual(
      taken.map((row) => row.id).sort(),
    );
    // One that closed gives them back: the second sender's claims, released, go to a third.
    await second.close();
    stores = stores.filter((store) => store !== second);
    const third = await home.open();
    stores.push(third);
    expect(await third.outbox.due('telegram', at(CLAIM_LEASE_MS), 10)).toHaveLength(3);
  });
});
