/**
 * The metrics GET /admin/metrics exposes (pure): usage_totals rows (src/logs/read/usage-totals.ts) as
 * Prometheus families, every series labelled tenant, model and provider ('' for none: a request that
 * never authenticated or never reached a model, which Prometheus reads as the label being absent).
 * Counters are the all-time totals the log consumer rolls up, so rate() and increase() give them per
 * interval; the two histograms are cumulative over the LATENCY_BOUNDS_MS buckets, in seconds.
 *
 * Errors are one counter split by `class` (4xx, 5xx, and `stream` for a stream that failed after its
 * 200), whose classes add up to every failed request; the same failures split by who caused them
 * (gateway, provider, client) are a second counter, so summing either never counts a failure twice.
 * Limit denials (429s the gateway's limits and budgets answered) are also in class 4xx.
 * `edgeway_tenant_info` carries each tenant's name (value 1), to be joined on `tenant`.
 *
 * METRIC_SAMPLE_NAMES lists every sample name the endpoint can emit: docs/grafana/edgeway.json is tested
 * against it.
 */
import { LATENCY_BOUNDS_MS } from '../../core/latency-buckets';
import type { TenantName, TotalCounter, UsageTotalsRow } from '../read/usage-totals';
import { type Family, histogramSamples, type Labels, type Sample } from './exposition';

type CounterSpec =
  | { readonly name: string; readonly help: string; readonly column: TotalCounter }
  | {
      readonly name: string;
      readonly help: string;
      readonly label: string;
      readonly columns: Readonly<Record<string, TotalCounter>>;
    };

const COUNTERS: readonly CounterSpec[] = [
  {
    name: 'edgeway_requests_total',
    help: 'Model requests handled (served, cached, refused or failed).',
    column: 'requests',
  },
  {
    name: 'edgeway_input_tokens_total',
    help: 'Input (prompt) tokens billed by providers; gateway cache hits excluded.',
    column: 'input_tokens',
  },
  {
    name: 'edgeway_output_tokens_total',
    help: 'Output (completion) tokens billed by providers; gateway cache hits excluded.',
    column: 'output_tokens',
  },
  {
    name: 'edgeway_cached_tokens_total',
    help: 'Input tokens read from the provider prompt cache (part of edgeway_input_tokens_total).',
    column: 'cached_tokens',
  },
  { name: 'edgeway_cost_usd_total', help: 'Cost of provider calls, in USD.', column: 'cost_usd' },
  {
    name: 'edgeway_cache_hits_total',
    help: 'Requests answered from the gateway cache (exact or semantic).',
    column: 'cache_hits',
  },
  {
    name: 'edgeway_saved_tokens_total',
    help: 'Tokens gateway cache hits avoided (input and output).',
    column: 'saved_tokens',
  },
  {
    name: 'edgeway_saved_usd_total',
    help: 'What gateway cache hits would have cost, in USD.',
    column: 'saved_usd',
  },
  {
    name: 'edgeway_errors_total',
    help: 'Failed requests by class: 4xx, 5xx, or stream (failed after a 200). The classes add up to every failure.',
    label: 'class',
    columns: { '4xx': 'status_4xx', '5xx': 'status_5xx', stream: 'stream_errors' },
  },
  {
    name: 'edgeway_errors_by_source_total',
    help: 'Failed requests by what caused them: the gateway, the provider, or the client.',
    label: 'source',
    columns: { gateway: 'err_gateway', provider: 'err_provider', client: 'err_client' },
  },
  {
    name: 'edgeway_limit_denials_total',
    help: 'Requests refused by a rate limit or budget (429 from the gateway; also in edgeway_errors_total class 4xx).',
    column: 'denials',
  },
  {
    name: 'edgeway_fallbacks_total',
    help: 'Requests that needed more than one upstream call (a retry or a route fallback).',
    column: 'fallbacks',
  },
  {
    name: 'edgeway_upstream_attempts_total',
    help: 'Upstream calls made, retries and fallbacks included.',
    column: 'attempts',
  },
];

const DURATION = 'edgeway_request_duration_seconds';
const TTFT = 'edgeway_time_to_first_token_seconds';
const TENANT_INFO = 'edgeway_tenant_info';

const BOUNDS_S = LATENCY_BOUNDS_MS.map((ms) => ms / 1000);

const labelsOf = (row: UsageTotalsRow): Labels => ({
  tenant: row.tenantId,
  model: row.model,
  provider: row.provider,
});

function counterSamples(spec: CounterSpec, rows: readonly UsageTotalsRow[]): Sample[] {
  return rows.flatMap((row) => {
    const labels = labelsOf(row);
    if ('column' in spec) return [{ suffix: '', labels, value: row.counts[spec.column] }];
    return Object.entries(spec.columns).map(([value, column]) => ({
      suffix: '',
      labels: { ...labels, [spec.label]: value },
      value: row.counts[column],
    }));
  });
}

export function usageFamilies(rows: readonly UsageTotalsRow[], tenants: readonly TenantName[]): Family[] {
  return [
    ...COUNTERS.map((spec) => ({
      name: spec.name,
      help: spec.help,
      type: 'counter' as const,
      samples: counterSamples(spec, rows),
    })),
    {
      name: DURATION,
      help: 'Request duration, from arrival to the last byte of the answer, in seconds.',
      type: 'histogram',
      samples: rows.flatMap((row) =>
        histogramSamples(labelsOf(row), BOUNDS_S, row.latency, row.counts.latency_sum_ms / 1000),
      ),
    },
    {
      name: TTFT,
      help: 'Time to the first token of the answer, in seconds (requests that had one).',
      type: 'histogram',
      samples: rows.flatMap((row) =>
        histogramSamples(labelsOf(row), BOUNDS_S, row.ttft, row.counts.ttft_sum_ms / 1000),
      ),
    },
    {
      name: TENANT_INFO,
      help: "A tenant's name, to join on the tenant label (value always 1).",
      type: 'gauge',
      samples: tenants.map((t) => ({ suffix: '', labels: { tenant: t.id, name: t.name }, value: 1 })),
    },
  ];
}

/** Every label the endpoint's series carry. */
export const METRIC_LABELS: readonly string[] = [
  'tenant',
  'model',
  'provider',
  ...new Set(COUNTERS.flatMap((c) => ('label' in c ? [c.label] : []))),
  'le',
  'name',
];

/** Every sample name the endpoint can emit (a histogram's as _bucket, _sum and _count). */
export const METRIC_SAMPLE_NAMES: readonly string[] = [
  ...COUNTERS.map((c) => c.name),
  ...[DURATION, TTFT].flatMap((h) => [`${h}_bucket`, `${h}_sum`, `${h}_count`]),
  TENANT_INFO,
];
