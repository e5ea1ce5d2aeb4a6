/**
 * A write's fence in PostgreSQL (src/store/leaseLost.ts): the leases it names, read and locked in
 * the write's own transaction, FOR KEY SHARE. A take locks FOR UPDATE (pgLeases.ts), so a lease
 * cannot change hands between the check and the commit; KEY SHARE rather than SHARE, so that the
 * owner's own renewals (which keep the owner) never wait for its writes.
 */
import type { PoolClient } from 'pg';
import { LeaseLostError, type CommitFence } from '../leaseLost';

/** A fence's leases as this owner holds them now, locked until the transaction ends. */
export const FENCE_SQL =
  'SELECT name, epoch FROM leases WHERE name = ANY($1::text[]) AND owner = $2 AND expires_at > clock_timestamp() FOR KEY SHARE';

/** Throws LeaseLostError, in the transaction `client` has open, unless every lease of `fence` is still held at its epoch. */
export async function checkFence(client: Pick<PoolClient, 'query'>, fence: CommitFence): Promise<void> {
  if (fence.leases.length === 0) return;
  const { rows } = await client.query<{ name: string; epoch: number }>({
    name: 'tw_fence',
    text: FENCE_SQL,
    values: [fence.leases.map((lease) => lease.name), fence.owner],
  });
  const held = new Map(rows.map((row) => [row.name, row.epoch]));
  const lost = fence.leases.filter((lease) => held.get(lease.name) !== lease.epoch).map((lease) => lease.name);
  if (lost.length > 0) throw new LeaseLostError(lost);
}
