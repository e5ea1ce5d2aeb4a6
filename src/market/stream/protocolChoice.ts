/**
 * The protocol the bot reads the service's streams in (docs/streams.md "How the protocol is
 * chosen"): pinned by TMDS_PROTOCOL, known for the built-in simulator, or with `auto` asked of the
 * service at start (protocolProbe.ts) and corrected by what its sockets say afterwards: a welcome or
 * a vendor confirmation on any socket means the vendor's protocol, a spec acknowledgement the spec's.
 * Whoever plans subscriptions reads `current` and hears of a change through `onChange`.
 */
import type { Logger } from '../../log';
import { probeProtocol } from './protocolProbe';
import type { StreamProtocol } from './types';

/** How long `auto` waits at start for the socket to open and then for a welcome. */
export const PROBE_WAIT_MS = 1_000;

export interface ProtocolChoiceOptions {
  setting: StreamProtocol | 'auto';
  /** The setting that pins it, as /status names it; default TMDS_PROTOCOL (the built-in simulator's is SIMULATOR_PROTOCOL). */
  pinnedBy?: string;
  wsUrl: string;
  apiKey: string;
  logger: Logger;
  /** The probe; the real one by default (tests pass their own). */
  probe?: typeof probeProtocol;
}

export class ProtocolChoice {
  private protocol: StreamProtocol;
  /** How the protocol in use was decided, for /status. */
  private how: 'pinned' | 'asked' | 'default' | 'seen';
  private readonly listeners = new Set<(protocol: StreamProtocol) => void>();

  constructor(private readonly options: ProtocolChoiceOptions) {
    this.protocol = options.setting === 'auto' ? 'spec' : options.setting;
    this.how = options.setting === 'auto' ? 'default' : 'pinned';
  }

  get current(): StreamProtocol {
    return this.protocol;
  }

  /** `spec (pinned)`, `vendor (asked of the service)`…: what /status shows. */
  describe(): string {
    const how = {
      pinned: 'pinned by TMDS_PROTOCOL',
      asked: 'as the service greeted',
      default: 'the default',
      seen: 'as the service spoke',
    }[this.how];
    return `${this.protocol} (${how})`;
  }

  /** With `auto`, asks the service (once, at start); a pinned protocol is kept as it is. */
  async decide(): Promise<StreamProtocol> {
    if (this.options.setting !== 'auto') return this.protocol;
    const probe = this.options.probe ?? probeProtocol;
    const found = await probe({ wsUrl: this.options.wsUrl, apiKey: this.options.apiKey, waitMs: PROBE_WAIT_MS });
    if (found === null) {
      this.options.logger.warn(
        { protocol: this.protocol },
        'could not ask the stream service which protocol it speaks; starting on the spec reading, switching if its sockets say otherwise',
      );
      return this.protocol;
    }
    this.how = 'asked';
    this.set(found);
    this.options.logger.info({ protocol: found }, 'stream protocol chosen from the service’s greeting');
    return found;
  }

  /** What a socket showed (StreamClient.onProtocolSeen): followed with `auto`, noted and ignored when pinned. */
  seen(protocol: StreamProtocol): void {
    if (protocol === this.protocol) return;
    if (this.options.setting !== 'auto') {
      this.options.logger.warn(
        { pinned: this.protocol, seen: protocol },
        'the stream service speaks another protocol than the setting pins; set TMDS_PROTOCOL=auto or the right one',
      );
      return;
    }
    this.options.logger.warn({ from: this.protocol, to: protocol }, 'the stream service speaks another protocol; switching');
    this.how = 'seen';
    this.set(protocol);
  }

  onChange(listener: (protocol: StreamProtocol) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(protocol: StreamProtocol): void {
    if (protocol === this.protocol) return;
    this.protocol = protocol;
    for (const listener of this.listeners) listener(protocol);
  }
}
