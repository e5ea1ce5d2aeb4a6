/**
 * Notes between the processes of one bot (src/cluster/member.ts over LISTEN/NOTIFY): a follow
 * changed, alerts written, a watchlist set in one process reach the parts of another, never its
 * own; and a partition change reaches the watcher's part with the partitions it touched.
 */
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createClusterMember, type ClusterMember, type MemberParts } from '../../src/cluster/member';
import { partitionOf } from '../../src/cluster/partitions';
import { silentLogger } from '../../src/log';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgresStore';
import '../support/postgres/provided';
import { freshDatabase } from '../support/postgres/databases';

const shared = inject('postgres');

interface Heard {
  follows: Array<string | null>;
  outbox: number;
  digests: number;
  partitions: Array<{ gained: number[]; lost: number[]; touches: (address: string) => boolean }>;
}

function recordingParts(): { parts: MemberParts; heard: Heard } {
  const heard: Heard = { follows: [], outbox: 0, digests: 0, partitions: [] };
  return {
    heard,
    parts: {
      letGo: () => undefined,
      partitionsChanged: async (change, touches) => void heard.partitions.push({ ...change, touches }),
      followsChanged: async (address) => void heard.follows.push(address),
      outboxReady: () => void (heard.outbox += 1),
      digestsChanged: async () => void (heard.digests += 1),
      leaseChanged: async () => undefined,
    },
  };
}

describe.runIf(shared.adminUrl !== null)('notes between processes', () => {
  let url: string;
  let drop: () => Promise<void>;
  const stores: PostgresStore[] = [];
  const members: ClusterMember[] = [];

  beforeEach(async () => {
    if (shared.adminUrl === null) return;
    const database = await freshDatabase(shared.adminUrl);
    url = database.url;
    drop = database.drop;
  });

  afterEach(async () => {
    for (const member of members.splice(0)) await member.stop();
    for (const store of stores.splice(0)) await store.close();
    await drop?.();
  });

  async function member(roles: Array<'watcher' | 'sender' | 'discord' | 'telegram'>): Promise<{ member: ClusterMember; heard: Heard }> {
    const store = await openPostgresStore(url);
    stores.push(store);
    const made = createClusterMember({
      store,
      databaseUrl: url,
      roles: new Set(roles),
      platformLeases: [],
      info: () => ({}),
      logger: silentLogger,
    });
    members.push(made);
    const { parts, heard } = recordingParts();
    await made.start(parts);
    return { member: made, heard };
  }

  it('carries follows, alerts and watchlists to the other process, not back to the sender', async () => {
    const gateway = await member(['discord', 'telegram']);
    const watcher = await member(['watcher', 'sender']);
    gateway.member.followsChanged('TokenA');
    gateway.member.followsChanged(null);
    gateway.member.outboxWritten();
    gateway.member.digestsChanged();
    // Each note is its own pg_notify on whichever pooled connection is free, so two notes sent
    // together may arrive in either order; a follow note asks for a resync, so order never matters.
    await vi.waitFor(() => expect(watcher.heard).toMatchObject({ outbox: 1, digests: 1 }), { timeout: 10_000 });
    await vi.waitFor(() => expect([...watcher.heard.follows].sort()).toEqual(['TokenA', null].sort()), { timeout: 10_000 });
    watcher.member.outboxWritten();
    await vi.waitFor(() => expect(gateway.heard.outbox).toBe(1), { timeout: 10_000 });
    expect(gateway.heard.follows).toEqual([]);
    expect(watcher.heard.outbox).toBe(1);
  });

  it('hands the watcher the partitions it gained, and which addresses they hold', async () => {
    const watcher = await member(['watcher']);
    await vi.waitFor(() => expect(watcher.heard.partitions.length).toBeGreaterThan(0), { timeout: 10_000 });
    const [first] = watcher.heard.partitions;
    expect(first?.gained).toHaveLength(256);
    expect(first?.touches('AnyAddress')).toBe(true);
    expect(watcher.member.scope.owns('AnyAddress')).toBe(true);
    expect(watcher.member.scope.fence(['AnyAddress']).leases).toEqual([{ name: `partition:${partitionOf('AnyAddress')}`, epoch: 1 }]);
    const gateway = await member(['discord']);
    expect(gateway.member.scope.owns('AnyAddress')).toBe(false);
  });
});
