/**
 * Reads a /metrics page as Prometheus would: fetched over HTTP and parsed by a Prometheus text
 * parser of its own (parse-prometheus-text-format), not by the library that wrote it.
 */
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';

export type Families = Map<string, MetricFamily>;

export function parseMetrics(text: string): Families {
  return new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
}

/** The page and its parse; the parser throws on a line that is no Prometheus text. */
export async function scrape(address: string): Promise<{ text: string; families: Families }> {
  const response = await fetch(`${address}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  return { text, families: parseMetrics(text) };
}

function matches(labels: Record<string, string> | undefined, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([name, value]) => labels?.[name] === value);
}

/** The value of a counter's or gauge's sample with these labels (others ignored), summed over every match; 0 when none. */
export function sampleValue(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (family === undefined) return 0;
  return family.metrics
    .filter((sample) => 'value' in sample && matches(sample.labels, labels))
    .reduce((sum, sample) => sum + Number((sample as { value: string }).value), 0);
}

/**
 * A histogram's count of observations with these labels (others ignored), summed; 0 when none.
 * Read from the `_count` lines of the text: the parser keeps the buckets of a labelled histogram
 * but drops its count and sum.
 */
export function histogramCount(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (match === null) continue;
    const found = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) total += Number(match[2]);
  }
  return total;
}

/** Every label set of a family's samples. */
export function labelSets(families: Families, name: string): Array<Record<string, string>> {
  return (families.get(name)?.metrics ?? []).map((sample) => sample.labels ?? {});
}
