/**
 * Which protocol a service's streams speak, asked of the service itself: one socket to
 * trades-live, with the key in the `x-api-key` header, and its first words. The vendor's service
 * greets every socket with `{"type":"connected"}` before anything is sent; a service that follows
 * the spec's reading says nothing until it is sent a subscription. So a welcome is the vendor's
 * protocol, silence for `waitMs` (or any other first message) the spec's, and a socket that cannot
 * open tells nothing (null): the caller then starts on the spec's reading and listens for a
 * welcome on its own sockets (StreamClient.onProtocolSeen).
 */
import WebSocket from 'ws';
import type { StreamProtocol } from './types';
import { parseFrame } from './vendorFrames';

export interface ProbeOptions {
  wsUrl: string;
  apiKey: string;
  /** How long to wait for the socket to open and then for a welcome. */
  waitMs: number;
}

export function probeProtocol({ wsUrl, apiKey, waitMs }: ProbeOptions): Promise<StreamProtocol | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${wsUrl.replace(/\/+$/, '')}/ws/trades-live`, {
      headers: { 'x-api-key': apiKey },
      handshakeTimeout: waitMs,
      perMessageDeflate: false,
      maxPayload: 64 * 1024,
    });
    let timer: NodeJS.Timeout | null = null;
    const finish = (protocol: StreamProtocol | null): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      ws.removeAllListeners();
      // Errors of a socket being torn down are of no interest now.
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(protocol);
    };
    ws.on('open', () => {
      timer = setTimeout(() => finish('spec'), waitMs);
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return finish('spec');
      let message: unknown;
      try {
        message = parseFrame(data.toString());
      } catch {
        return finish('spec');
      }
      const welcome = message !== null && typeof message === 'object' && (message as { type?: unknown }).type === 'connected';
      finish(welcome ? 'vendor' : 'spec');
    });
    ws.on('error', () => finish(null));
    ws.on('close', () => finish(null));
  });
}
