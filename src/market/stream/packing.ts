/**
 * How many subscriptions share one socket, and, in `auto`, finding out whether the service takes
 * more than one. The spec shows one subscription message per connection (§4.7) and says nothing of
 * a second, so a number above 1 is the operator's word that their service accepts it; `auto`
 * packs AUTO_SUBSCRIPTIONS_PER_SOCKET a socket and lets the service show what it accepts, on the
 * first sockets that carry two subscriptions or more:
 *
 * - accepted: a second subscription of one opening of a socket is served (acknowledged, or an
 *   event of it arrives). Packing stays, for good.
 * - refused, once and for good, when the first subscription of an opening is served but the
 *   second is not and the service closes the socket (any close a server decides: not a lost link,
 *   a restart, a refused key or an unknown token), sends an error that is neither about the key
 *   nor about an unknown token, or sends nothing for the others within `probeMs` while the first
 *   one's data arrives. The client then moves every subscription to a socket of its own.
 *
 * The decision is logged once. Until it is made, nothing else changes: a shared socket the service
 * closes reconnects like any other.
 */
import type { Logger } from '../../log';
import type { Clock, Timer } from '../clock';
import { CLOSE_TOO_BIG, CLOSE_UNAUTHORIZED, CLOSE_UNKNOWN_TOKEN, looksLikeAuth } from './closeReason';

/** What `auto` packs on a socket until the service shows it does not take a second subscription. */
export const AUTO_SUBSCRIPTIONS_PER_SOCKET = 500;
/** How long a second subscription may go unserved while the first one's data arrives. */
export const DEFAULT_PACK_PROBE_MS = 10_000;

export type PackingSetting = number | 'auto';

/**
 * 'fixed': a number was set, nothing is checked. 'checking': `auto`, no socket has shown yet
 * whether the service takes a second subscription. 'accepted' and 'refused': what it showed.
 */
export type PackingState = 'fixed' | 'checking' | 'accepted' | 'refused';

export interface PackingStatus {
  setting: PackingSetting;
  /** Subscriptions a new one may join on a socket, itself included. */
  perSocket: number;
  state: PackingState;
  /** What the service did that decided it (refused only), cleaned of the key and control characters. */
  evidence: string | null;
}

/** What the probe reads of a socket. */
export interface ProbedSocket {
  readonly shownUrl: string;
  /** Subscription messages sent since the socket last opened. */
  readonly sentThisOpening: number;
  /** Distinct subscriptions the service served (acknowledged or sent an event of) since then. */
  readonly servedThisOpening: number;
  readonly isOpen: boolean;
}

/**
 * Closes that say nothing of the subscriptions sent: a lost link (1006, or no status), a server
 * going away or restarting, a frame too big, a refused key, an unknown token.
 */
const NOT_A_REFUSAL = new Set([1001, 1005, 1006, CLOSE_TOO_BIG, 1012, 1013, 1014, CLOSE_UNAUTHORIZED, CLOSE_UNKNOWN_TOKEN]);
const UNKNOWN_TARGET_TEXT = /not found|unknown (token|wallet|address)/i;

export class PackingProbe {
  private state: PackingState;
  private perSocket: number;
  private evidence: string | null = null;
  private readonly timers = new Map<ProbedSocket, Timer>();

  constructor(
    private readonly setting: PackingSetting,
    private readonly options: { probeMs: number; clock: Clock; logger: Logger; redact: (text: string) => string; onRefused: () => void },
  ) {
    this.state = setting === 'auto' ? 'checking' : 'fixed';
    this.perSocket = setting === 'auto' ? AUTO_SUBSCRIPTIONS_PER_SOCKET : setting;
  }

  /** Subscriptions a socket may carry now. */
  get limit(): number {
    return this.perSocket;
  }

  /** Whether sockets are still watched for the service's answer (events then mark what they serve). */
  get checking(): boolean {
    return this.state === 'checking';
  }

  status(): PackingStatus {
    return { setting: this.setting, perSocket: this.perSocket, state: this.state, evidence: this.evidence };
  }

  /** A subscription message went out on the socket: from the second one of an opening, the service's answer is awaited. */
  sent(socket: ProbedSocket): void {
    if (!this.checking || socket.sentThisOpening < 2 || this.timers.has(socket)) return;
    this.arm(socket);
  }

  /** The service served a subscription on the socket. */
  served(socket: ProbedSocket): void {
    if (this.checking && socket.servedThisOpening >= 2) this.accept(socket);
  }

  /** An `{"type":"error"}` message arrived on the socket. */
  errorFrame(socket: ProbedSocket, message: string): void {
    if (!this.pendingSecond(socket) || looksLikeAuth(message) || UNKNOWN_TARGET_TEXT.test(message)) return;
    this.refuse(`it answered a second subscription on a socket with the error "${message}"`);
  }

  /** The service closed the socket (the client did not). */
  closed(socket: ProbedSocket, code: number, reason: string): void {
    this.forget(socket);
    if (!this.pendingSecond(socket) || NOT_A_REFUSAL.has(code) || looksLikeAuth(reason)) return;
    this.refuse(`it closed the socket after a second subscription (${reason === '' ? `code ${code}` : `${code}: ${reason}`})`);
  }

  /** The socket is gone or reconnecting: its timer goes with it. */
  forget(socket: ProbedSocket): void {
    const timer = this.timers.get(socket);
    if (timer === undefined) return;
    this.options.clock.clearTimeout(timer);
    this.timers.delete(socket);
  }

  close(): void {
    for (const timer of this.timers.values()) this.options.clock.clearTimeout(timer);
    this.timers.clear();
  }

  /** The first subscription of this opening was served, and a second one was sent and not. */
  private pendingSecond(socket: ProbedSocket): boolean {
    return this.checking && socket.sentThisOpening >= 2 && socket.servedThisOpening === 1;
  }

  private arm(socket: ProbedSocket): void {
    this.timers.set(
      socket,
      this.options.clock.setTimeout(() => {
        this.timers.delete(socket);
        if (!this.checking || !socket.isOpen) return;
        if (socket.servedThisOpening >= 2) this.accept(socket);
        else if (socket.servedThisOpening === 1)
          this.refuse(
            `it sent nothing for a second subscription on a socket within ${this.options.probeMs} ms, while the first one's data arrived`,
          );
        // Nothing served at all says nothing about packing: the service is slow; look again later.
        else this.arm(socket);
      }, this.options.probeMs),
    );
  }

  private accept(socket: ProbedSocket): void {
    this.state = 'accepted';
    this.close();
    this.options.logger.info(
      { url: socket.shownUrl, perSocket: this.perSocket },
      'the market data service takes several subscriptions on one socket: packing them, up to this many a socket',
    );
  }

  private refuse(evidence: string): void {
    this.state = 'refused';
    this.perSocket = 1;
    this.evidence = this.options.redact(evidence);
    this.close();
    this.options.logger.warn(
      { evidence: this.evidence },
      'the market data service does not take a second subscription on one socket: one subscription a socket from now on',
    );
    this.options.onRefused();
  }
}
