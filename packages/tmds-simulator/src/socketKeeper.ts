/**
 * The WebSocket bookkeeping both stream protocols share (streams.ts for the spec's, vendorStreams.ts
 * for the vendor's), kept in one place so that the two servers cannot drift apart where they are
 * meant to behave alike: the upgrade on the four stream paths, heartbeats that cut a socket which
 * missed a ping, a slow reader cut past its unsent-bytes limit, oversized frames refused by `ws`,
 * error-then-close refusals, the tally of sockets and subscriptions, and cutting every socket at
 * once for the drop control. What a client may say and what it is sent stay with each protocol.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { WS_STREAMS, type WsStream } from './endpoints';

/** What tests, benchmarks and controls see of the streams. */
export interface StreamsView {
  /** Live subscriptions, over every socket, of one stream or of all. */
  subscriptionCount(stream?: WsStream): number;
  /** WebSockets accepted and not yet closed. */
  socketCount(): number;
  /** Cuts every WebSocket at once without a close frame, as a lost network would. */
  drop(): void;
}

/** The view, and the drop control's count of what it cut. */
export interface SocketsView extends StreamsView {
  /** Cuts every socket without a close frame; returns how many there were. */
  dropAll(): number;
}

/** What the keeper knows of a socket; each protocol's peer adds its subscriptions. */
export interface KeptSocket {
  readonly ws: WebSocket;
  /** It has answered the latest ping (or none was sent yet). */
  alive: boolean;
  /** The server has decided to close it: nothing more is read or pushed. */
  done: boolean;
}

/** The limits the keeper applies, as StreamOptions names them. */
export interface SocketLimits {
  heartbeatMs: number;
  maxBufferedBytes: number;
  maxPayloadBytes: number;
}

/** What each protocol does with a kept socket. */
export interface SocketHandlers<P extends KeptSocket> {
  /** Reads one client message; a throw becomes close 1011. */
  receive(peer: P, data: RawData, isBinary: boolean): void;
  /** Ends the socket's subscriptions. Called whenever the socket is done or gone, so possibly more than once. */
  release(peer: P): void;
}

/** An upgrade refused with an HTTP status (e.g. '401 Unauthorized') and a JSON body as REST's errors have. */
export interface UpgradeRefusal {
  status: string;
  error: string;
  message: string;
}

function streamOfPath(rawUrl: string | undefined): WsStream | null {
  const path = (rawUrl ?? '').split('?')[0] ?? '';
  if (!path.startsWith('/ws/')) return null;
  const name = path.slice(4);
  return (WS_STREAMS as readonly string[]).includes(name) ? (name as WsStream) : null;
}

/** Close reasons are limited to 123 bytes by the protocol. */
function clipReason(text: string): string {
  let clipped = text;
  while (Buffer.byteLength(clipped) > 123) clipped = clipped.slice(0, -1);
  return clipped;
}

function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  const body = JSON.stringify({ error: refusal.error, message: refusal.message });
  socket.end(
    `HTTP/1.1 ${refusal.status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export class SocketKeeper<P extends KeptSocket> implements SocketsView {
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<P>();
  /** Live subscriptions per stream, as each protocol reports them with tally(). */
  private readonly counts: Record<WsStream, number> = { 'token-feed': 0, 'chart-live': 0, 'holders-live': 0, 'trades-live': 0 };
  private readonly heartbeat: NodeJS.Timeout;
  /** After close(), an upgrade is refused and a socket that finishes its handshake is cut. */
  private closed = false;

  constructor(
    private readonly limits: SocketLimits,
    private readonly handlers: SocketHandlers<P>,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: limits.maxPayloadBytes,
      perMessageDeflate: false,
    });
    this.heartbeat = setInterval(() => this.beat(), limits.heartbeatMs);
    // Heartbeats alone must not keep a process alive.
    this.heartbeat.unref();
  }

  subscriptionCount(stream?: WsStream): number {
    if (stream) return this.counts[stream];
    return WS_STREAMS.reduce((total, name) => total + this.counts[name], 0);
  }

  /** A protocol's subscriptions on `stream` grew or shrank by `delta`. */
  tally(stream: WsStream, delta: number): void {
    this.counts[stream] += delta;
  }

  socketCount(): number {
    return this.peers.size;
  }

  drop(): void {
    this.dropAll();
  }

  dropAll(): number {
    const count = this.peers.size;
    for (const peer of [...this.peers]) this.cut(peer);
    return count;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.dropAll();
    this.wss.close();
  }

  /**
   * The http server's 'upgrade' handler: 404 off the four stream paths, then `admit`'s refusal
   * when it has one, else a WebSocket handed to `open` (which makes its peer and calls keep()).
   */
  upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    open: (ws: WebSocket, stream: WsStream) => void,
    admit: (req: IncomingMessage) => UpgradeRefusal | null = () => null,
  ): void {
    // A client that vanishes mid-handshake must not surface as an unhandled error.
    socket.on('error', () => socket.destroy());
    if (this.closed) {
      socket.destroy();
      return;
    }
    const stream = streamOfPath(req.url);
    if (!stream) {
      const path = (req.url ?? '').split('?')[0]?.slice(0, 100) ?? '';
      refuseUpgrade(socket, { status: '404 Not Found', error: 'Not Found', message: `No stream at ${path}` });
      return;
    }
    const refusal = admit(req);
    if (refusal) {
      refuseUpgrade(socket, refusal);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (this.closed) {
        ws.terminate();
        return;
      }
      open(ws, stream);
    });
  }

  /** Follows an accepted socket: its pongs, its messages and its end. */
  keep(peer: P): void {
    this.peers.add(peer);
    const ws = peer.ws;
    // ws reports protocol errors (oversize or invalid frames) here and closes the socket itself.
    ws.on('error', () => undefined);
    ws.on('pong', () => {
      peer.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      try {
        this.handlers.receive(peer, data, isBinary);
      } catch (error) {
        process.emitWarning(`stream message handling failed: ${error instanceof Error ? error.message : String(error)}`);
        this.refuse(peer, 1011, 'Internal Server Error', 'Internal server error');
      }
    });
    ws.on('close', () => {
      this.forget(peer);
      this.peers.delete(peer);
    });
  }

  /** Sends an error message and closes with `code`; the socket's subscriptions end at once. */
  refuse(peer: P, code: number, error: string, message: string, reason = `${error}: ${message}`): void {
    this.forget(peer);
    const ws = peer.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: 'error', error, message }));
    ws.close(code, clipReason(reason));
  }

  sendAll(peers: Iterable<P>, frame: Buffer): void {
    for (const peer of peers) this.send(peer, frame);
  }

  send(peer: P, frame: Buffer): void {
    if (peer.done || peer.ws.readyState !== WebSocket.OPEN) return;
    peer.ws.send(frame, { binary: false });
    // A reader that cannot keep up is cut rather than buffered for without limit.
    if (peer.ws.bufferedAmount > this.limits.maxBufferedBytes) this.cut(peer);
  }

  private beat(): void {
    for (const peer of [...this.peers]) {
      // A socket that missed a ping, or was refused and still has not finished closing, is reclaimed.
      if (!peer.alive || peer.done) {
        this.cut(peer);
        continue;
      }
      peer.alive = false;
      try {
        peer.ws.ping();
      } catch {
        this.cut(peer);
      }
    }
  }

  /** Terminates a socket at once (no close frame) and forgets it. */
  private cut(peer: P): void {
    this.forget(peer);
    this.peers.delete(peer);
    peer.ws.terminate();
  }

  private forget(peer: P): void {
    peer.done = true;
    this.handlers.release(peer);
  }
}
