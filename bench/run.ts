/**
 * `npm run bench`: speed and memory of the market data layer, the look-ups, the streams, the alert
 * path, charts and Telegram delivery, measured over real sockets on 127.0.0.1 against the built-in
 * simulator. Figures go in the README and bench/results.json; no test asserts them.
 *
 * Each section runs in a process of its own (this file again, naming it), so that one section's
 * figures, memory above all, do not carry what another loaded or left behind: the chart renderer's
 * native library alone is tens of megabytes. `npm run bench -- NAME` runs one section in this process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { recordResult, writeResults } from './results';
import type { Row, Section } from './section';

/** Each section's code is loaded only when it runs. */
const SECTIONS: Record<string, () => Promise<Section>> = {
  lookups: async () => (await import('./lookups')).benchLookups,
  streams: async () => (await import('./streams')).benchStreams,
  alerts: async () => (await import('./alerts')).benchAlerts,
  'alerts-pg': async () => (await import('./alertsPostgres')).benchAlertsPostgres,
  'alerts-metrics': async () => (await import('./alertsMetrics')).benchAlertsMetrics,
  charts: async () => (await import('./charts')).benchCharts,
  telegram: async () => (await import('./telegram')).benchTelegram,
  lookup: async () => (await import('./lookup')).benchLookup,
  hostile: async () => (await import('./hostile')).benchHostile,
  cluster: async () => (await import('./cluster')).benchCluster,
  calls: async () => (await import('./calls')).benchCalls,
  console: async () => (await import('./consoleRender')).benchConsoleRender,
  polls: async () => (await import('./polls')).benchPolls,
};

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Runs one section in a child process with this process's Node flags; resolves with its exit code. */
function runInChild(name: string): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function main(): Promise<void> {
  const names = Object.keys(SECTIONS);
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`no bench section ${unknown.join(', ')}; sections: ${names.join(', ')}`);
  if (wanted.length !== 1) {
    for (const name of wanted.length === 0 ? names : wanted) {
      const code = await runInChild(name);
      if (code !== 0) throw new Error(`bench section ${name} failed (exit code ${code})`);
    }
    return;
  }
  const [name = ''] = wanted;
  const load = SECTIONS[name];
  if (load === undefined) throw new Error(`no bench section ${name}`);
  const rssBefore = process.memoryUsage().rss;
  const rows: Row[] = await (await load())();
  recordResult('bench_end_rss_mb', process.memoryUsage().rss / 1024 / 1024, 'MB');
  // A partial or profiled run's figures are not the section's: bench/results.json keeps the last whole run's.
  const partial = ['BENCH_ALERTS_ONLY', 'BENCH_CPU_PROFILE', 'BENCH_ALLOCATION_PROFILE'].filter((name) => (process.env[name] ?? '') !== '');
  if (partial.length === 0) writeResults();
  else process.stderr.write(`bench/results.json left as it was: ${partial.join(', ')} set\n`);
  rows.push({ what: 'process RSS at the end (from start)', figure: `${mb(process.memoryUsage().rss)} (${mb(rssBefore)})` });

  const width = Math.max(...rows.map((row) => row.what.length));
  process.stdout.write(`TokenWatch bench · Node ${process.version} · ${new Date().toISOString()}\n`);
  for (const row of rows) process.stdout.write(`${row.what.padEnd(width)}  ${row.figure}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
