/**
 * One sample of the bot's process and its database: memory (after a full collection, so the heap
 * is what is live), open files, timers and sockets, the event loop's delay since the last sample,
 * the database's size on disk (file and WAL), each table's rows, the outbox's backlog, the log's
 * size and the alerts the chats were handed.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';

export const TABLES = [
  'follows',
  'chats',
  'token_state',
  'wallet_state',
  'events',
  'outbox',
  'action_keys',
  'calls',
  'call_chats',
] as const;

const BASE_COLUMNS = [
  'sim_day',
  'real_s',
  'rss_mb',
  'heap_mb',
  'external_mb',
  'open_files',
  'timers',
  'sockets',
  'loop_p99_ms',
  'loop_max_ms',
  'db_mb',
  'wal_mb',
  'log_mb',
  'outbox_backlog',
  'alerts_delivered',
  'restarts',
] as const;

type RowColumn = `rows_${(typeof TABLES)[number]}`;
export type Sample = Record<(typeof BASE_COLUMNS)[number] | RowColumn, number>;
export const COLUMNS: ReadonlyArray<keyof Sample> = [...BASE_COLUMNS, ...TABLES.map((table): RowColumn => `rows_${table}`)];

const loop = monitorEventLoopDelay({ resolution: 20 });
loop.enable();

function fileMb(path: string): number {
  return existsSync(path) ? statSync(path).size / 1024 / 1024 : 0;
}

function tableRows(dbPath: string): { rows: Record<string, number>; backlog: number } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const present = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((row) => row.name),
    );
    const rows: Record<string, number> = {};
    for (const table of TABLES) {
      rows[table] = present.has(table) ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
    }
    const backlog = (db.prepare('SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL').get() as { n: number }).n;
    return { rows, backlog };
  } finally {
    db.close();
  }
}

export function takeSample(input: {
  simDay: number;
  realS: number;
  dbPath: string;
  logPath: string;
  alertsDelivered: number;
  restarts: number;
}): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const resources = process.getActiveResourcesInfo();
  const { rows, backlog } = tableRows(input.dbPath);
  const sample = {
    sim_day: Number(input.simDay.toFixed(4)),
    real_s: Math.round(input.realS),
    rss_mb: memory.rss / 1024 / 1024,
    heap_mb: memory.heapUsed / 1024 / 1024,
    external_mb: memory.external / 1024 / 1024,
    open_files: readdirSync('/proc/self/fd').length,
    timers: resources.filter((name) => name === 'Timeout' || name === 'Immediate').length,
    sockets: resources.filter((name) => name === 'TCPSocketWrap' || name === 'TCPServerWrap').length,
    loop_p99_ms: loop.percentile(99) / 1e6,
    loop_max_ms: loop.max / 1e6,
    db_mb: fileMb(input.dbPath),
    wal_mb: fileMb(`${input.dbPath}-wal`),
    log_mb: fileMb(input.logPath),
    outbox_backlog: backlog,
    alerts_delivered: input.alertsDelivered,
    restarts: input.restarts,
    ...Object.fromEntries(TABLES.map((table) => [`rows_${table}`, rows[table] ?? 0])),
  } as Sample;
  loop.reset();
  return sample;
}

/** Least-squares slope of `column` per simulated day over the samples from `fromDay` on. */
export function slopePerDay(samples: readonly Sample[], column: keyof Sample, fromDay = 1): number {
  const points = samples.filter((sample) => sample.sim_day >= fromDay);
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, p) => sum + p.sim_day, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p[column], 0) / points.length;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.sim_day - meanX) * (p[column] - meanY);
    den += (p.sim_day - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function toCsv(samples: readonly Sample[]): string {
  const round = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));
  return [COLUMNS.join(','), ...samples.map((sample) => COLUMNS.map((column) => round(sample[column])).join(','))].join('\n') + '\n';
}
