/** parse-prometheus-text-format ships no types: its prom2json-style output, as the tests read it. */
declare module 'parse-prometheus-text-format' {
  export interface ParsedMetric {
    readonly labels?: Readonly<Record<string, string>>;
    readonly value?: string;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  export interface ParsedFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly ParsedMetric[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
