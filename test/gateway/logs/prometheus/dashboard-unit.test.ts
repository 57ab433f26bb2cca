/**
 * docs/grafana/edgeway.json and the PromQL in docs/metrics.md against what GET /admin/metrics emits: each
 * query is parsed with Prometheus' own PromQL grammar (@prometheus-io/lezer-promql, Grafana's variables
 * replaced by values first), must parse without error, and may name only metrics and labels the endpoint
 * emits. A renamed metric or label fails here before a dashboard goes blank.
 */
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import dashboard from '../../../../docs/grafana/edgeway.json';
import doc from '../../../../docs/metrics.md?raw';
import { METRIC_LABELS, METRIC_SAMPLE_NAMES } from '../../../../src/logs/prometheus/usage-metrics';

/** Grafana's variables, as values PromQL accepts. */
const VARIABLES: Record<string, string> = {
  $__rate_interval: '5m',
  $__interval: '1m',
  $__range: '1h',
  $tenant: '.*',
  $model: '.*',
};

interface Refs {
  metrics: string[];
  labels: string[];
  errors: number;
}

function refs(query: string): Refs {
  let text = query;
  for (const [name, value] of Object.entries(VARIABLES)) text = text.replaceAll(name, value);
  const out: Refs = { metrics: [], labels: [], errors: 0 };
  parser.parse(text).iterate({
    enter: (node) => {
      if (node.type.isError) out.errors += 1;
      const value = text.slice(node.from, node.to);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') out.metrics.push(value);
      if (node.name === 'LabelName') out.labels.push(value);
    },
  });
  return out;
}

type Panel = { title: string; targets?: { expr: string }[] };
type Variable = { name: string; query: { query: string } };
const panels = (dashboard as unknown as { panels: Panel[] }).panels;
const variables = (dashboard as unknown as { templating: { list: Variable[] } }).templating.list;

/** `label_values(<selector>, <label>)`: Grafana's variable query, a selector and a label name. */
function labelValues(query: string): { selector: string; label: string } {
  const m = /^label_values\((.*),\s*(\w+)\)$/.exec(query);
  if (!m) throw new Error(`not a label_values query: ${query}`);
  return { selector: m[1]!, label: m[2]! };
}

const promqlBlocks = [...doc.matchAll(/```promql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());

function expectEmitted(where: string, r: Refs) {
  expect(r.errors, `${where}: PromQL syntax`).toBe(0);
  expect(r.metrics.length, `${where}: names a metric`).toBeGreaterThan(0);
  for (const m of r.metrics) expect(METRIC_SAMPLE_NAMES, `${where}: metric ${m}`).toContain(m);
  for (const l of r.labels) expect(METRIC_LABELS, `${where}: label ${l}`).toContain(l);
}

describe('the Grafana dashboard', () => {
  it('has the panels docs/metrics.md promises, each with a query', () => {
    expect(panels.map((p) => p.title)).toEqual([
      'Request rate',
      'Error rate',
      'p95 latency per model',
      'TTFT p95 per model',
      'Cost per tenant',
      'Cache hit rate',
      'Limit denials',
    ]);
    for (const p of panels) expect(p.targets?.length, p.title).toBeGreaterThan(0);
  });

  it.each(panels.flatMap((p) => (p.targets ?? []).map((t) => [p.title, t.expr] as const)))(
    '%s queries only what /admin/metrics emits',
    (title, expr) => expectEmitted(title, refs(expr)),
  );

  it.each(variables.map((v) => [v.name, v.query.query] as const))(
    'variable %s reads a label the endpoint emits',
    (name, query) => {
      const { selector, label } = labelValues(query);
      expect(METRIC_LABELS).toContain(label);
      expectEmitted(`$${name}`, refs(selector));
    },
  );

  it('catches a metric the endpoint does not emit, and a query that does not parse', () => {
    expect(refs('sum(rate(edgeway_request_total[5m]))').metrics).toEqual(['edgeway_request_total']);
    expect(METRIC_SAMPLE_NAMES).not.toContain('edgeway_request_total');
    expect(refs('sum(rate(edgeway_requests_total[$__rate_interval])').errors).toBeGreaterThan(0);
  });
});

describe('the PromQL examples in docs/metrics.md', () => {
  it('are there', () => {
    expect(promqlBlocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(promqlBlocks.map((q) => [q] as const))('%s queries only what /admin/metrics emits', (q) =>
    expectEmitted(q, refs(q)),
  );
});
