/**
 * How much of what it had the token's deployer has sold, read from its holder record on
 * holders-live: sold / (sold + still held), both in the token's smallest units. The lines a
 * developer-sold alert is told at are 25, 50 and 100 percent: a quarter is when traders start to
 * worry, half is the developer cashing out, all of it is the developer gone.
 *
 * `devSoldSupplyPerc` (token-technicals) says the same, but that answer is rate-limited to 100
 * requests a minute per key and pushed by no stream; the holder record comes with every sale.
 */
import type { TokenSnapshot } from '../model/snapshot';
import type { HolderRecord } from './holderRecord';

export const DEVELOPER_SOLD_LINES = [25, 50, 100] as const;

/** The deployer's share sold in percent (0–100), or null when the record is not the deployer's or does not show what it sold. */
export function developerSoldPct(last: Pick<TokenSnapshot, 'deployer'>, holder: HolderRecord): number | null {
  const deployer = last.deployer;
  if (deployer === null || deployer === undefined || holder.address !== deployer) return null;
  const sold = holder.totalSoldAmount;
  if (sold === null || sold === undefined || sold < 0n) return null;
  const held = holder.currentlyHoldingAmount < 0n ? 0n : holder.currentlyHoldingAmount;
  const had = sold + held;
  if (had === 0n) return null;
  // Exact to four decimals: amounts are far beyond a double's integers.
  return Number((sold * 1_000_000n) / had) / 10_000;
}

/** The highest line the deployer's sales have reached with this record; null when the record tells nothing of it. */
export function developerSoldLine(last: Pick<TokenSnapshot, 'deployer'>, holder: HolderRecord): number | null {
  const pct = developerSoldPct(last, holder);
  if (pct === null) return null;
  let reached = 0;
  for (const line of DEVELOPER_SOLD_LINES) if (pct >= line) reached = line;
  return reached;
}
