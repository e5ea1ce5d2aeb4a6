/**
 * "Alerts were written to the outbox": the jobs and the watcher say it, delivery (made after them,
 * as it sends through the chats) listens, and with several processes the senders elsewhere hear of it.
 */
import type { ClusterMember } from '../cluster/member';

export class OutboxSignal {
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly cluster: ClusterMember | null) {}

  readonly written = (): void => {
    for (const listener of this.listeners) listener();
    this.cluster?.outboxWritten();
  };

  onWritten(listener: () => void): void {
    this.listeners.push(listener);
  }
}
