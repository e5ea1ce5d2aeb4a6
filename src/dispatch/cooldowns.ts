/**
 * Per person, per command cooldowns: when each may run a command again. In memory, since a
 * cooldown is seconds long and a restart forgetting one costs nothing.
 */

/** Past this many entries the expired ones are swept, so a busy bot's map stays small. */
const SWEEP_AT = 10_000;

export class Cooldowns {
  private readonly until = new Map<string, number>();

  /**
   * Takes the cooldown for `who` running `command` at `nowMs` when it is free and returns 0;
   * otherwise returns the milliseconds left, and changes nothing.
   */
  take(who: string, command: string, lengthMs: number, nowMs: number): number {
    const key = `${command}\u0000${who}`;
    const freeAt = this.until.get(key);
    if (freeAt !== undefined && freeAt > nowMs) return freeAt - nowMs;
    if (this.until.size >= SWEEP_AT) this.sweep(nowMs);
    this.until.set(key, nowMs + lengthMs);
    return 0;
  }

  private sweep(nowMs: number): void {
    for (const [key, freeAt] of this.until) if (freeAt <= nowMs) this.until.delete(key);
  }
}
