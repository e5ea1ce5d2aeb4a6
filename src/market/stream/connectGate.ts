/**
 * How many sockets of one client may be connecting at once. Ten thousand subscriptions at one a
 * socket open ten thousand sockets together at start, or when the service shows it takes one a
 * socket (packing.ts): all at once, their handshakes overflow the server's accept queue (the
 * dropped ones wait for TCP's retries, and some for their handshake timeout and a backoff) and their
 * buffers, held at the same moment, grow the process by tens of megabytes it keeps. Through the
 * gate they open a few at a time, in the order they asked, each as soon as another has opened or
 * failed.
 */

/** What the gate admits: something that starts connecting when told. */
export interface GatedConnection {
  admitted(): void;
}

export class ConnectGate<C extends GatedConnection> {
  /** Connections between the start of their attempt and its end (opened, or failed before). */
  private readonly connecting = new Set<C>();
  /** Connections waiting for a place, oldest first. */
  private readonly waiting = new Set<C>();

  constructor(private readonly limit: number) {}

  /** True when the connection may connect now (it holds a place until released); else it waits and is admitted later. */
  enter(connection: C): boolean {
    if (this.connecting.has(connection)) return true;
    if (this.connecting.size < this.limit && this.waiting.size === 0) {
      this.connecting.add(connection);
      return true;
    }
    this.waiting.add(connection);
    return false;
  }

  /** The connection's attempt ended, or the connection did: its place goes to the oldest waiting. Idempotent. */
  release(connection: C): void {
    this.waiting.delete(connection);
    if (!this.connecting.delete(connection)) return;
    for (const next of this.waiting) {
      if (this.connecting.size >= this.limit) break;
      this.waiting.delete(next);
      this.connecting.add(next);
      next.admitted();
    }
  }

  /** Sockets connecting, and waiting to. */
  get size(): { connecting: number; waiting: number } {
    return { connecting: this.connecting.size, waiting: this.waiting.size };
  }

  clear(): void {
    this.connecting.clear();
    this.waiting.clear();
  }
}
