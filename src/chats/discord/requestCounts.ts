/**
 * What Discord's REST API answered, counted for the operators' metrics (`platform_requests_total`):
 * every response of the REST clients watched (the chat's, and the one alerts go out on), retries of
 * a 429 or a 5xx included, so rate limits and refused permissions show as they happen.
 */
import type { REST } from 'discord.js';
import { statusLabel } from '../../model/statusLabel';

/** The statuses Discord answers with a meaning of their own: bad request, token refused, missing access, unknown, rate limited. */
const NAMED = new Set([200, 201, 204, 400, 401, 403, 404, 429, 500, 502]);

export class DiscordRequestCounts {
  private readonly counts: Record<string, number> = {};

  /** Counts every response `rest` receives from now on. */
  watch(rest: REST): void {
    rest.on('response', (_request, response) => {
      const label = statusLabel(response.status, NAMED);
      this.counts[label] = (this.counts[label] ?? 0) + 1;
      // discord.js hands listeners a copy of a fetch Response; its body is not read here, so it is let go.
      if (response instanceof Response) response.body?.cancel().catch(() => undefined);
    });
  }

  /** Responses by status label. */
  statuses(): Record<string, number> {
    return { ...this.counts };
  }
}
