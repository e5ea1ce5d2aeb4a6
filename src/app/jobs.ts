/** The jobs that write to the outbox on their own: the daily watchlists, wallets moving together, the calls' peaks. */
import { CALL_PEAKS_LEASE, type ClusterMember } from '../cluster/member';
import type { Config } from '../config';
import { CallPeaks } from '../jobs/callPeaks';
import { createDailyDigests, type DailyDigests } from '../jobs/dailyDigest';
import { createWalletClusters, type WalletClusters } from '../jobs/walletClusters';
import type { Logger } from '../log';
import type { MarketClient } from '../market/client';
import type { Store } from '../store/store';
import type { Lifecycle } from './lifecycle';
import type { OutboxSignal } from './outboxSignal';

export interface JobsDeps {
  config: Config;
  logger: Logger;
  now: () => Date;
  store: Store;
  client: MarketClient;
  cluster: ClusterMember | null;
  outbox: OutboxSignal;
  lifecycle: Lifecycle;
}

export interface JobsPart {
  /** The daily watchlists' schedules; started once delivery runs, by a process with the sender role. */
  digests: DailyDigests;
  walletClusters: WalletClusters;
  callPeaks: CallPeaks;
}

export function startJobs({ config, logger, now, store, client, cluster, outbox, lifecycle }: JobsDeps): JobsPart {
  const digests = createDailyDigests({ store, market: client, logger, now, onWritten: outbox.written });
  lifecycle.onStop('digests', () => digests.stop());
  // Wallets moving together: checked from the outbox after the watcher writes alerts.
  const walletClusters = createWalletClusters({ store, now, logger, onWritten: outbox.written });
  lifecycle.onStop('walletClusters', () => walletClusters.stop());
  // Calls' peaks: one process reads them (the one holding the lease, or this one alone), on its timer.
  const callPeaks = new CallPeaks({
    calls: store.calls,
    market: client,
    now,
    logger,
    onWritten: outbox.written,
    milestones: config.calls.milestones,
    requestsPerMinute: config.calls.peakRequestsPerMinute,
    live: store.state,
    active: () => (cluster === null ? true : cluster.holds(CALL_PEAKS_LEASE)),
    ...(cluster === null ? {} : { fence: () => cluster.fenceOf([CALL_PEAKS_LEASE]) }),
  });
  callPeaks.start();
  lifecycle.onStop('callPeaks', () => callPeaks.stop());
  return { digests, walletClusters, callPeaks };
}
