/**
 * An HTTP status as a counter's label: the statuses a caller names, each on its own, and any other
 * by its class. A label set stays a few dozen long whatever a server sends, so a hostile or broken
 * one cannot make a counter grow without bound.
 */
export function statusLabel(status: number, named: ReadonlySet<number>): string {
  if (named.has(status)) return String(status);
  return Number.isInteger(status) && status >= 100 && status <= 599 ? `${Math.floor(status / 100)}xx` : 'other';
}
