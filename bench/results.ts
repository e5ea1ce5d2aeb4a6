/**
 * `bench/results.json`: the figures other tools read, as `{ "name": { "value": n, "unit": "…" } }`.
 * Each section records its own under the names its issue gives; a run merges into the file, so a
 * section run alone (`npm run bench -- charts`) keeps the others' last figures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_PATH = fileURLToPath(new URL('./results.json', import.meta.url));

export interface Figure {
  value: number;
  unit: string;
}

const recorded: Record<string, Figure> = {};

/** Keeps a figure for this run; `writeResults` saves them all. */
export function recordResult(name: string, value: number, unit: string): void {
  recorded[name] = { value: Number.isFinite(value) ? Number(value.toPrecision(6)) : value, unit };
}

/** Merges this run's figures into bench/results.json, names sorted. */
export function writeResults(path: string = RESULTS_PATH): Record<string, Figure> {
  let previous: Record<string, Figure> = {};
  try {
    previous = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Figure>;
  } catch {
    // No file yet, or an unreadable one: this run's figures start it afresh.
  }
  const merged = { ...previous, ...recorded };
  const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
  return sorted;
}
