/** The shapes parse-prometheus-text-format returns (it ships no types of its own). */
declare module 'parse-prometheus-text-format' {
  export interface PlainSample {
    value: string;
    labels?: Record<string, string>;
  }
  export interface HistogramSample {
    buckets: Record<string, string>;
    count: string;
    sum: string;
    labels?: Record<string, string>;
  }
  export interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Array<PlainSample | HistogramSample>;
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
