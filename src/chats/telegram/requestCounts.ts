/**
 * What the Bot API answered, counted for the operators' metrics (`platform_requests_total`) and
 * readiness: every HTTP call by status, and whether polling for updates last succeeded. Installed
 * as the innermost transformer (api.ts), under the throttle and the automatic retries, so a 429
 * that auto-retry waited out is still counted once per answer.
 */
import type { Transformer } from 'grammy';
import { statusLabel } from '../../model/statusLabel';

/** The statuses Telegram answers with a meaning of their own: bad request, blocked or kicked, not found, conflict, flood. */
const NAMED = new Set([200, 400, 401, 403, 404, 409, 429, 500, 502]);

export class TelegramRequestCounts {
  private readonly counts: Record<string, number> = {};
  /** False from a failed getUpdates until one succeeds: polling has lost the Bot API. */
  private polling = true;

  /** Requests by status label (`error`: no answer came). */
  statuses(): Record<string, number> {
    return { ...this.counts };
  }

  /** Whether the last poll for updates got an answer (always true in webhook mode, which never polls). */
  pollingAnswered(): boolean {
    return this.polling;
  }

  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    let label = 'error';
    try {
      const answer = await prev(method, payload, signal);
      // Telegram's error_code is the HTTP status it answered with.
      label = statusLabel(answer.ok ? 200 : answer.error_code, NAMED);
      return answer;
    } finally {
      // A poll ended by the bot stopping is no answer of Telegram's.
      if (signal?.aborted !== true) {
        this.counts[label] = (this.counts[label] ?? 0) + 1;
        if (method === 'getUpdates') this.polling = label === '200';
      }
    }
  };
}
