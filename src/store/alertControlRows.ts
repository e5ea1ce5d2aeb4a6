/**
 * A chat's quiet hours and hourly budget as both stores keep them in the chats table, and read
 * back. The quiet hours are one JSON column: read through zod, since a row edited by hand or by an
 * older build must come back as a setting or as none, never as something half-formed.
 */
import { z } from 'zod';
import type { ClusterSetting, QuietSetting } from './store';

export interface AlertControlColumns {
  quiet: string | null;
  hourly_budget: number | null;
  cluster: string | null;
}

export const ALERT_CONTROL_COLUMNS = 'quiet, hourly_budget, cluster';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const quietSchema = z.object({
  from: z.string().regex(HHMM),
  to: z.string().regex(HHMM),
  zone: z.string().min(1).max(64),
  strict: z.boolean(),
});

export function quietOf(row: AlertControlColumns): QuietSetting | null {
  if (row.quiet === null) return null;
  try {
    const parsed = quietSchema.safeParse(JSON.parse(row.quiet));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function quietColumn(quiet: QuietSetting | null): string | null {
  return quiet === null ? null : JSON.stringify({ from: quiet.from, to: quiet.to, zone: quiet.zone, strict: quiet.strict });
}

/** A budget of 0 or less is none: the column holds null. */
export function budgetOf(row: AlertControlColumns): number | null {
  return row.hourly_budget === null || row.hourly_budget <= 0 ? null : Number(row.hourly_budget);
}

/** The bounds `/track cluster` accepts: 2 to 20 wallets, a minute to a day. */
export const CLUSTER_WALLETS = { min: 2, max: 20 } as const;
export const CLUSTER_WINDOW_SECS = { min: 60, max: 86_400 } as const;
const clusterSchema = z.object({
  wallets: z.number().int().min(CLUSTER_WALLETS.min).max(CLUSTER_WALLETS.max),
  windowSecs: z.number().int().min(CLUSTER_WINDOW_SECS.min).max(CLUSTER_WINDOW_SECS.max),
});

/** The chat's wallet cluster setting (JSON, read through zod as the quiet hours are), or none. */
export function clusterOf(row: AlertControlColumns): ClusterSetting | null {
  if (row.cluster === null || row.cluster === undefined) return null;
  try {
    const parsed = clusterSchema.safeParse(JSON.parse(row.cluster));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function clusterColumn(cluster: ClusterSetting | null): string | null {
  return cluster === null ? null : JSON.stringify({ wallets: cluster.wallets, windowSecs: cluster.windowSecs });
}
