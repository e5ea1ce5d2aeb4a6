/**
 * What each lease change and each note from another process means in this one (member.ts hears
 * them; app.ts hands over the parts it made):
 *
 * - partitions lost: their subscriptions close at once, with nothing read (the store may be out of
 *   reach: that may be why they were lost);
 * - partitions gained or lost: the watcher forgets what it held of them (another process may have
 *   written them since), re-reads its targets (subscribing and unsubscribing), and a
 *   reconciliation reads the gained ones at once;
 * - follows changed elsewhere: the store's cached followers of that address are dropped and the
 *   watcher re-reads them;
 * - alerts written elsewhere: delivery drains; a watchlist set elsewhere: the senders schedule again;
 * - `sender:<platform>` taken: the claims a dead or stalled sender left on the platform's rows are
 *   taken over between two of delivery's rounds, and delivery drains, sending those rows as that
 *   sender made its messages of them; `telegram:poller` taken or lost: long polling starts or stops.
 */
import type { Delivery } from '../delivery/delivery';
import type { DailyDigests } from '../jobs/dailyDigest';
import type { ReconcileJob } from '../jobs/reconcile';
import type { Logger } from '../log';
import { isPlatform } from '../model/chat';
import type { Role } from '../model/roles';
import type { PostgresStore } from '../store/postgres/postgresStore';
import type { Watcher } from '../watch/watcher';
import type { MemberParts } from './member';

/** Work that runs in one process of several at a time: while this process holds `lease`. */
export interface LeasedWork {
  lease: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalParts {
  roles: ReadonlySet<Role>;
  store: PostgresStore;
  watcher: Pick<Watcher, 'forgetWhere' | 'letGoOutOfScope' | 'resync' | 'sync'>;
  reconcile: Pick<ReconcileJob, 'runNow'>;
  delivery: Pick<Delivery, 'notify' | 'takeOver'>;
  digests: Pick<DailyDigests, 'changed'>;
  /** Telegram's long polling, started and stopped under the poller lease. */
  /** The chats' work run under a named lease (Telegram's polling): started while it is held. */
  leased: readonly LeasedWork[];
  logger: Logger;
}

export function memberParts(local: LocalParts): MemberParts {
  const { watcher, store, delivery } = local;
  return {
    letGo: () => watcher.letGoOutOfScope(),
    async partitionsChanged(change, inPartitions) {
      // Only the touched partitions' targets are forgotten; the others' follows stay in memory
      // (a full resync would read every target's followers again at each rebalance).
      watcher.forgetWhere(inPartitions);
      await watcher.sync(await store.follows.targets());
      if (change.gained.length > 0) await local.reconcile.runNow();
    },
    async followsChanged(address) {
      if (address === null) store.follows.forgetAll();
      else store.follows.forget(address);
      await watcher.resync(address ?? undefined);
    },
    outboxReady: () => delivery.notify(),
    digestsChanged: () => (local.roles.has('sender') ? local.digests.changed() : Promise.resolve()),
    async leaseChanged(name, held) {
      const work = local.leased.filter((each) => each.lease === name);
      if (work.length > 0) {
        await Promise.all(work.map((each) => (held ? each.start() : each.stop())));
        return;
      }
      const platform = name.slice('sender:'.length);
      if (!held || !name.startsWith('sender:') || !isPlatform(platform)) return;
      // Between two of delivery's rounds, so that it knows these rows before it reads them: the
      // previous sender may have sent some without marking them, and they go out again as it sent them.
      const taken = await delivery.takeOver(platform, () => store.outbox.takeOverClaims(platform));
      if (taken > 0)
        local.logger.info({ platform, rows: taken }, 'sender lease taken: alerts the previous sender had claimed are sent from here');
    },
  };
}
