/**
 * What a card says about the part of an answer it could not read. The market client leaves out
 * a holder, trade or candle that fails its schema and counts it; a card that shows the rest says
 * so, rather than presenting the absence (or "none recorded") as fact.
 */
import { grouped } from '../text/format';

/** "12 holders could not be read", "1 trade could not be read"; null when nothing was left out. */
export function unreadNote(count: number, singular: string, plural = `${singular}s`): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  const n = Math.floor(count);
  return `${grouped(n)} ${n === 1 ? singular : plural} could not be read`;
}
