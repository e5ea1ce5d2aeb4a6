/**
 * One follow change at a time per place (a chat, or a Discord server with its channels): the
 * fair-share limits are read, then the follow written, and two changes of one place in flight
 * together (two topics of a group, two channels of a server: each its own chat queue) would both
 * read the room the other is about to take. In a bot of several processes one place's commands
 * reach one process (a Discord guild lives on one shard, a Telegram chat's updates on the process
 * that polls or takes them), so a lock in the process is the place's lock.
 */
export class PlaceLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier `work` of `key` has settled; the key is forgotten when idle. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
