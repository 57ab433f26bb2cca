/**
 * Reads a Prometheus text exposition with a real parser (parse-prometheus-text-format, a port of the
 * Prometheus client_python parser), for tests of GET /admin/metrics. The parser's prom2json-style output
 * folds a labelled histogram's series into one bucket map per family, so samples are read from a second
 * parse with the histogram TYPE lines made untyped: each `_bucket`, `_sum` and `_count` line then parses
 * as a sample of its own, with every label it carries. A series written twice would be merged by the
 * parser, so the sample count is checked against the text's sample lines.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface PromScrape {
  /** Each family's TYPE and HELP, by name. */
  readonly families: ReadonlyMap<string, { readonly type: string; readonly help: string }>;
  readonly samples: readonly PromSample[];
}

export function readExposition(text: string): PromScrape {
  const families = new Map(
    parsePrometheusTextFormat(text).map((f) => [f.name, { type: f.type, help: f.help }]),
  );
  const untyped = text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
  const samples = parsePrometheusTextFormat(untyped).flatMap((f) =>
    f.metrics.map((m) => ({ name: f.name, labels: m.labels ?? {}, value: Number(m.value) })),
  );
  const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
  if (samples.length !== lines) throw new Error(`${lines} sample lines parsed as ${samples.length} samples`);
  return { families, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function series(scrape: PromScrape, name: string, labels: Record<string, string> = {}): PromSample[] {
  return scrape.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The one sample named `name` with `labels`; fails when there is none or more than one. */
export function value(scrape: PromScrape, name: string, labels: Record<string, string>): number {
  const found = series(scrape, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}
