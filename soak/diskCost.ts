/**
 * What an alert costs on disk: the pages each table and index of the database takes (SQLite's
 * dbstat), shared out over the outbox's rows (one row per alert per chat) and the events (one
 * per change, shared by the chats told of it), and each column's average size in those two tables.
 */
import Database from 'better-sqlite3';

export function diskCost(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const outboxRows = count('outbox');
    const eventRows = count('events');
    const lines: string[] = [
      `database ${(Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }))) / 1024 / 1024} MB; outbox ${outboxRows} rows, events ${eventRows} rows`,
    ];
    let perAlert = 0;
    try {
      const objects = db
        .prepare(
          'SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload, sum(unused) AS unused FROM dbstat GROUP BY name ORDER BY bytes DESC',
        )
        .all() as Array<{
        name: string;
        bytes: number;
        payload: number;
        unused: number;
      }>;
      lines.push('', '| table or index | MB | payload MB | unused MB | bytes an outbox row |', '|---|---|---|---|---|');
      for (const object of objects.slice(0, 16)) {
        const share = /outbox|events|sqlite_autoindex_outbox|sqlite_autoindex_events/.test(object.name)
          ? object.bytes / Math.max(1, outboxRows)
          : 0;
        if (share > 0) perAlert += share;
        lines.push(
          `| ${object.name} | ${(object.bytes / 1048576).toFixed(2)} | ${(object.payload / 1048576).toFixed(2)} | ${(object.unused / 1048576).toFixed(2)} | ${share === 0 ? '' : share.toFixed(0)} |`,
        );
      }
      lines.push('', `an alert (an outbox row, its share of its event, their indexes): ${perAlert.toFixed(0)} bytes`);
    } catch (error) {
      lines.push(`(dbstat unavailable: ${error instanceof Error ? error.message : String(error)})`);
    }
    for (const table of ['outbox', 'events', 'action_keys', 'calls']) {
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((column) => column.name);
      const sums = db
        .prepare(
          `SELECT ${columns.map((column) => `avg(coalesce(length(CAST(${column} AS BLOB)), 0)) AS "${column}"`).join(', ')} FROM ${table}`,
        )
        .get() as Record<string, number | null>;
      lines.push(`${table} columns, average bytes: ${columns.map((column) => `${column} ${(sums[column] ?? 0).toFixed(0)}`).join(', ')}`);
    }
    try {
      const perRow = (names: readonly string[], table: string) => {
        const marks = names.map(() => '?').join(', ');
        const bytes = (
          db.prepare(`SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name IN (${marks})`).get(...names) as { b: number }
        ).b;
        return bytes / Math.max(1, count(table));
      };
      const indexesOf = (table: string) =>
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").all(table) as Array<{ name: string }>).map(
          (row) => row.name,
        );
      for (const table of ['action_keys', 'calls', 'events', 'outbox']) {
        const indexes = indexesOf(table);
        lines.push(`${table}: ${perRow([table, ...indexes], table).toFixed(0)} bytes a row with its indexes (${indexes.join(', ')})`);
      }
    } catch (error) {
      lines.push(`(rows' sizes not read: ${error instanceof Error ? error.message : String(error)})`);
    }
    const kinds = db
      .prepare('SELECT kind, count(*) AS n, avg(length(event)) AS bytes FROM events GROUP BY kind ORDER BY n DESC')
      .all() as Array<{ kind: string; n: number; bytes: number }>;
    lines.push(`events by kind: ${kinds.map((kind) => `${kind.kind} ${kind.n} (${kind.bytes.toFixed(0)} B of JSON)`).join(', ')}`);
    const sample = db.prepare('SELECT key, event FROM events ORDER BY id DESC LIMIT 1').get() as { key: string; event: string } | undefined;
    if (sample !== undefined) lines.push(`a recent event: key ${sample.key}\n${sample.event}`);
    return lines.join('\n');
  } finally {
    db.close();
  }
}
