/**
 * Reaching a chat platform at start, for a bounded time (CHAT_START_TIMEOUT). A platform that does
 * not answer yet (a network that is coming up, the platform's own short outage) is asked again,
 * with pauses that grow to a few seconds, until the time is spent; then start-up stops with one
 * line, as for a chat that cannot log in, instead of waiting without end (grammY retries getMe
 * forever, discord.js its gateway) or stopping at the first failed request. A failure that asking
 * again cannot mend (a token refused) is thrown at once.
 */

/** The time was spent without an answer; `lastFailure` is what the last attempt met, for the line. */
export class ChatStartTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly lastFailure: string | null,
  ) {
    super(`no answer within ${formatSeconds(timeoutMs)}${lastFailure === null ? '' : ` (last: ${lastFailure})`}`);
    this.name = 'ChatStartTimeoutError';
  }
}

export interface ReachOptions<T> {
  timeoutMs: number;
  /** One attempt; aborted through `signal` when the time is spent. */
  attempt: (signal: AbortSignal) => Promise<T>;
  /** Whether asking again may help (network failures, 5xx, 429); anything else is thrown at once. */
  retryable: (error: unknown) => boolean;
  /** Words for a failure, for the final line; never holding a secret. */
  describe: (error: unknown) => string;
  /** The first pause between attempts (default 500 ms); each next one doubles, up to 5 s. */
  firstPauseMs?: number;
}

const MAX_PAUSE_MS = 5_000;

/** CHAT_START_TIMEOUT's default, for a chat started without the settings (tests, tools). */
export const DEFAULT_CHAT_START_TIMEOUT_MS = 60_000;

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** Resolves when `signal` aborts or after `ms`, whichever comes first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The first answer of `attempt`, asked again while `retryable` failures come, until `timeoutMs`; throws ChatStartTimeoutError then. */
export async function reachAtStart<T>(options: ReachOptions<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const { signal } = controller;
  let lastFailure: string | null = null;
  let pauseMs = options.firstPauseMs ?? 500;
  try {
    while (!signal.aborted) {
      try {
        return await options.attempt(signal);
      } catch (error) {
        if (signal.aborted) break;
        if (!options.retryable(error)) throw error;
        lastFailure = options.describe(error);
      }
      await pause(pauseMs, signal);
      pauseMs = Math.min(MAX_PAUSE_MS, pauseMs * 2);
    }
    throw new ChatStartTimeoutError(options.timeoutMs, lastFailure);
  } finally {
    clearTimeout(timer);
  }
}
