/**
 * A per-place budget over a sliding window: at most `limit` uses in any `windowMs` for one chat or
 * server, so that one place cannot spend a budget every place shares (the service's 100
 * token-technicals a minute). In memory: a window is a minute long, and a restart forgetting one
 * costs nothing. The time is given by the caller (its injected clock), never read here.
 */

/** Past this many places the ones with nothing left in their window are swept, so the map stays small. */
const SWEEP_AT = 10_000;

export class PlaceWindow {
  /** When each use of a place was taken, oldest first. */
  private readonly uses = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Takes a use for `place` at `nowMs` and returns 0; when its window is full, returns the ms until a use frees, and takes nothing. */
  take(place: string, nowMs: number): number {
    const taken = this.current(place, nowMs);
    if (taken.length >= this.limit) return (taken[0] ?? nowMs) + this.windowMs - nowMs;
    if (taken.length === 0 && this.uses.size >= SWEEP_AT) this.sweep(nowMs);
    taken.push(nowMs);
    this.uses.set(place, taken);
    return 0;
  }

  private current(place: string, nowMs: number): number[] {
    const taken = this.uses.get(place) ?? [];
    while (taken.length > 0 && (taken[0] ?? 0) + this.windowMs <= nowMs) taken.shift();
    return taken;
  }

  private sweep(nowMs: number): void {
    for (const place of [...this.uses.keys()]) if (this.current(place, nowMs).length === 0) this.uses.delete(place);
  }
}
