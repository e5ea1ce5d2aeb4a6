/**
 * Counts of the requests that reached an /api/ endpoint (failures, 401 and 429 included), so
 * tests can prove how many calls a client made. Counts are exact; the request log keeps the
 * most recent MAX_LOGGED entries so a long-running simulator does not grow without bound.
 */
import type { RestEndpoint } from './endpoints';

export const MAX_LOGGED = 10_000;

export interface LoggedRequest {
  endpoint: RestEndpoint;
  query: Record<string, string>;
  /** HTTP status sent; 0 when the connection was reset without an answer. */
  status: number;
}

export class RequestStats {
  private log: LoggedRequest[] = [];
  private readonly counts = new Map<RestEndpoint, number>();
  private total = 0;

  /**
   * Counts a request as it arrives (a client that gives up during injected latency is still
   * counted) and returns its log entry, whose status the server fills in when it answers.
   */
  begin(endpoint: RestEndpoint, query: Record<string, string>): LoggedRequest {
    const entry: LoggedRequest = { endpoint, query, status: 0 };
    this.record(entry);
    return entry;
  }

  record(entry: LoggedRequest): void {
    this.total++;
    this.counts.set(entry.endpoint, (this.counts.get(entry.endpoint) ?? 0) + 1);
    this.log.push(entry);
    if (this.log.length > MAX_LOGGED * 1.5) this.log = this.log.slice(-MAX_LOGGED);
  }

  count(endpoint?: RestEndpoint): number {
    return endpoint === undefined ? this.total : (this.counts.get(endpoint) ?? 0);
  }

  requests(endpoint?: RestEndpoint): LoggedRequest[] {
    const recent = this.log.slice(-MAX_LOGGED);
    return (endpoint === undefined ? recent : recent.filter((entry) => entry.endpoint === endpoint)).map((entry) => ({
      endpoint: entry.endpoint,
      query: { ...entry.query },
      status: entry.status,
    }));
  }

  reset(): void {
    this.log = [];
    this.counts.clear();
    this.total = 0;
  }
}
