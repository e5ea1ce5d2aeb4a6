/**
 * A TCP gate between the stream client and the simulator, on 127.0.0.1: it passes bytes both
 * ways, and while held it cuts every connection and refuses new ones. A test holds it to keep the
 * streams down for exactly as long as it needs (the simulator's `drop` cuts sockets, but the client
 * comes back within a random backoff).
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface Gate {
  /** ws://127.0.0.1:PORT */
  wsUrl: string;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startGate(targetPort: number): Promise<Gate> {
  let held = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (held) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    hold() {
      held = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    release() {
      held = false;
    },
    async close() {
      held = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
