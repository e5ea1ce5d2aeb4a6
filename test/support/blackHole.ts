/**
 * A TCP proxy in front of a server that can be cut off as a network partition cuts it: from the
 * cut on, every byte either way and every close is held, and nothing is refused or reset, so each
 * side sees a connection that is open and silent (a frozen VM, a hung NAT, a pulled cable). A
 * process behind it stays alive and keeps its transactions open; the server keeps its sessions
 * until its own limits end them.
 *
 * At the heal, what a live TCP connection would still deliver is delivered, in order:
 *
 * - both ends still open: the held bytes go through both ways, and the pair carries on;
 * - the server ended its side meanwhile (it closed an idle transaction, say): its last words go to
 *   the client and then the close, and what the client sent meanwhile is dropped, as the server's
 *   socket is gone;
 * - the client gave up its side meanwhile (a timeout): the server's side is ended, and nothing the
 *   client sent reaches the server (its kernel stopped sending when it closed);
 * - a connection made during the cut reaches the server only now (a SYN in a partition goes
 *   nowhere); one the client gave up before the heal never does.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Upstream {
  /** A Unix socket's path, or a TCP port on 127.0.0.1. */
  path?: string;
  port?: number;
}

interface Pair {
  client: Socket;
  server: Socket | null;
  /** Held while cut: client → server and server → client. */
  up: Buffer[];
  down: Buffer[];
  clientClosed: boolean;
  serverClosed: boolean;
}

export interface BlackHole {
  /** The port on 127.0.0.1 that leads to the server. */
  port: number;
  /** Whether the link is cut now. */
  readonly isCut: boolean;
  /** Cuts now. */
  cut(): void;
  /**
   * Cuts right after the first client → server write holding `marker` (a prepared statement's
   * name, say) went through: the server runs it, and its answer is held. Resolves at the cut.
   */
  cutAfter(marker: string): Promise<void>;
  /**
   * Cuts right after the `count`-th client → server write from now went through: a moment picked
   * by the traffic rather than by a clock, so a machine's load moves it in time but not in kind.
   */
  cutAfterWrites(count: number): Promise<void>;
  /** Delivers what a live connection would (above) and carries on uncut. */
  heal(): void;
  /** Connections open now (both ends). */
  open(): number;
  close(): Promise<void>;
}

export async function startBlackHole(upstream: Upstream): Promise<BlackHole> {
  const pairs = new Set<Pair>();
  let isCut = false;
  /** The next cut: after the write `matches` says yes to. */
  let armed: { matches: (chunk: Buffer) => boolean; fire: () => void } | null = null;

  const dial = (pair: Pair): Socket => {
    const server = upstream.path !== undefined ? connect(upstream.path) : connect(upstream.port ?? 0, '127.0.0.1');
    pair.server = server;
    server.setNoDelay(true);
    server.on('data', (chunk: Buffer) => {
      if (isCut) pair.down.push(chunk);
      else if (!pair.clientClosed) pair.client.write(chunk);
    });
    server.on('error', () => undefined);
    server.on('close', () => {
      pair.serverClosed = true;
      if (!isCut) pair.client.end();
    });
    return server;
  };

  const proxy: Server = createServer((client) => {
    client.setNoDelay(true);
    const pair: Pair = { client, server: null, up: [], down: [], clientClosed: false, serverClosed: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (isCut || pair.server === null) {
        pair.up.push(chunk);
        return;
      }
      if (!pair.serverClosed) pair.server.write(chunk);
      if (armed !== null && armed.matches(chunk)) {
        const { fire } = armed;
        armed = null;
        isCut = true;
        fire();
      }
    });
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.clientClosed = true;
      if (!isCut) {
        pair.server?.destroy();
        pairs.delete(pair);
      }
    });
    if (!isCut) dial(pair);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(0, '127.0.0.1', () => resolve());
  });

  const heal = (): void => {
    if (!isCut) return;
    isCut = false;
    for (const pair of [...pairs]) {
      const { up, down } = pair;
      pair.up = [];
      pair.down = [];
      if (pair.clientClosed) {
        pair.server?.destroy();
        pairs.delete(pair);
        continue;
      }
      if (pair.server === null) {
        const server = dial(pair);
        for (const chunk of up) server.write(chunk);
        continue;
      }
      for (const chunk of down) pair.client.write(chunk);
      if (pair.serverClosed) {
        pair.client.end();
        pairs.delete(pair);
        continue;
      }
      for (const chunk of up) pair.server.write(chunk);
    }
  };

  return {
    port: (proxy.address() as AddressInfo).port,
    get isCut() {
      return isCut;
    },
    cut: () => {
      isCut = true;
    },
    cutAfter: (marker) =>
      new Promise<void>((resolve) => {
        const wanted = Buffer.from(marker);
        armed = { matches: (chunk) => chunk.includes(wanted), fire: resolve };
      }),
    cutAfterWrites: (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        armed = { matches: () => --left <= 0, fire: resolve };
      }),
    heal,
    open: () => [...pairs].filter((pair) => !pair.clientClosed && !pair.serverClosed).length,
    close: async () => {
      armed = null;
      isCut = false;
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
