/**
 * The Prometheus text exposition format, version 0.0.4 (pure): metric families written as `# HELP`,
 * `# TYPE` and one line per sample, every sample of a family together, no timestamps (the scraper
 * stamps them). Label values are escaped as the format requires (backslash, double quote, line feed),
 * HELP text likewise (backslash, line feed), so any model id a client sent, however long or odd, reads
 * back as it was. Histograms are written from per-bucket counts as cumulative `_bucket{le=…}` samples
 * ending in `le="+Inf"`, then `_sum` and `_count`.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';
export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  /** `_bucket`, `_sum`, `_count` for a histogram's samples; empty for the family's own. */
  readonly suffix: string;
  readonly labels: Labels;
  readonly value: number;
}

export interface Family {
  /** `[a-zA-Z_:][a-zA-Z0-9_:]*`; a counter's ends in `_total`. */
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly samples: readonly Sample[];
}

export function escapeLabelValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

export function escapeHelp(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

/** A sample value as Go's ParseFloat reads it: `+Inf`, `-Inf`, `NaN`, or a decimal. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

/**
 * A histogram's samples from per-bucket counts: `counts[i]` observations in bucket i (bounds[i-1], bounds[i]],
 * `counts[bounds.length]` above the last bound. `le` is the bound in the metric's unit.
 */
export function histogramSamples(
  labels: Labels,
  bounds: readonly number[],
  counts: readonly number[],
  sum: number,
): Sample[] {
  const samples: Sample[] = [];
  let cumulative = 0;
  for (let i = 0; i <= bounds.length; i++) {
    cumulative += counts[i] ?? 0;
    const le = i < bounds.length ? formatValue(bounds[i]!) : '+Inf';
    samples.push({ suffix: '_bucket', labels: { ...labels, le }, value: cumulative });
  }
  samples.push({ suffix: '_sum', labels, value: sum });
  samples.push({ suffix: '_count', labels, value: cumulative });
  return samples;
}

/** The exposition of `families`, in their order; one without samples still says what it would hold. */
export function exposition(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples)
      lines.push(`${f.name}${s.suffix}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
  // The format ends every line, the last one included, with a line feed.
  return `${lines.join('\n')}\n`;
}
