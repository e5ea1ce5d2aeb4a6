/**
 * A bare `ws` client for the simulator's stream tests: records every message and the close, and
 * waits for a message matching a condition. Deliberately not the project's stream client, so the
 * server is judged on the wire protocol alone.
 */
import WebSocket, { type ClientOptions } from 'ws';

export type Frame = Record<string, unknown>;

export interface Closed {
  code: number;
  reason: string;
}

export class Probe {
  readonly messages: Frame[] = [];
  /** The raw text of each message, by the same index (numbers past 2^53 are read from here exactly). */
  readonly texts: string[] = [];
  /** Frames that were not JSON objects (should stay empty). */
  readonly garbage: string[] = [];
  readonly closed: Promise<Closed>;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '<binary>' : data.toString();
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          this.messages.push(value as Frame);
          this.texts.push(text);
        } else this.garbage.push(text);
      } catch {
        this.garbage.push(text);
      }
      this.wake();
    });
    ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      });
    });
  }

  static async open(wsUrl: string, path: string, options: ClientOptions = {}): Promise<Probe> {
    const ws = new WebSocket(`${wsUrl}${path}`, options);
    const probe = new Probe(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    });
    return probe;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Messages after the first `from`, matching `test`. */
  find(test: (frame: Frame) => boolean, from = 0): Frame[] {
    return this.messages.slice(from).filter(test);
  }

  /** Resolves with the first message (from index `from`) that matches; fails after `timeoutMs`. */
  async next(test: (frame: Frame) => boolean, what: string, from = 0, timeoutMs = 5_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.find(test, from)[0];
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(from)).slice(0, 600)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `count` messages matching `test` have arrived. */
  async count(test: (frame: Frame) => boolean, count: number, what: string, timeoutMs = 5_000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.find(test);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} × ${what}; got ${found.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export const isType =
  (type: string, extra: (frame: Frame) => boolean = () => true) =>
  (frame: Frame): boolean =>
    frame.type === type && extra(frame);

/** Polls a condition (for server-side state seen through the in-process API). */
export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
