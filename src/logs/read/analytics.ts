/**
 * Reads the analytics rollups (migration 0023) for the admin API: the time series (requests, errors by
 * status class and source, cache hits, cost, tokens) with every step of the range filled in; latency and
 * TTFT percentiles per model, provider or route from summed histograms; the costliest tenants, keys,
 * models and end users with an "other" row; and the failed lookups. All of it is one D1 batch (one round
 * trip, one snapshot), then one query for the names of the tenants and keys it shows. Rows read: the scope's rollup rows in the range, once per section; never raw logs.
 */
import * as z from 'zod';
import { bucketColumns, quantile } from '../../core/latency-buckets';
import { type NameBook, namesOf } from './names';
import { type AnalyticsRange, stepStarts } from './analytics-range';
import {
  type AnalyticsScope,
  type LatencyGroup,
  latencySql,
  lookupFailuresSql,
  refusedKeysSql,
  SERIES_COUNTERS,
  type Statement,
  seriesSql,
  TOP_GROUPS,
  type TopGroup,
  topEndUsersSql,
  topSql,
} from './analytics-sql';

/** One step of the time series: its start (epoch ms) and SERIES_COUNTERS summed over it. */
export const SeriesPoint = z.object({
  start: z.number(),
  requests: z.number(),
  errors: z.number().describe('status >= 400, or a stream that failed after its 200'),
  status_4xx: z.number(),
  status_5xx: z.number(),
  stream_errors: z.number().describe('Streams that failed after their 200'),
  err_gateway: z.number(),
  err_provider: z.number(),
  err_client: z.number(),
  denials: z.number().describe('Refused by a limit or budget (429 from the gateway)'),
  fallbacks: z.number().describe('Requests that took more than one attempt'),
  cache_hits: z.number(),
  cost_usd: z.number(),
  saved_usd: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
});
export type SeriesPoint = z.output<typeof SeriesPoint>;

export const LatencyRow = z.object({
  name: z.string(),
  requests: z.number(),
  errors: z.number(),
  fallbacks: z.number(),
  latency_avg_ms: z.number().nullable(),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  latency_p99_ms: z.number().nullable(),
  ttft_count: z.number(),
  ttft_p50_ms: z.number().nullable(),
  ttft_p95_ms: z.number().nullable(),
});
export type LatencyRow = z.output<typeof LatencyRow>;

const TopRow = z.object({
  name: z.string(),
  tenant_id: z.string().optional().describe('End users only: the tenant whose end user it is.'),
  requests: z.number(),
  cost_usd: z.number(),
  tokens: z.number(),
});
export const TopTable = z.object({
  rows: z.array(TopRow),
  other: TopRow.omit({ name: true, tenant_id: true })
    .extend({ groups: z.number() })
    .nullable()
    .describe('Every group past the top rows, summed; null when there are none.'),
});
export type TopTable = z.output<typeof TopTable>;

export const LookupFailure = z.object({
  tenant_id: z.string(),
  key_id: z.string(),
  model: z.string().describe("The model as the client named it; '' when it named none."),
  error_code: z.string(),
  requests: z.number(),
  last_seen: z.number(),
});
export type LookupFailure = z.output<typeof LookupFailure>;

export const RefusedKey = z.object({
  key_id: z.string(),
  tenant_id: z.string(),
  denials: z.number().describe('Requests refused by a limit or budget (429 from the gateway)'),
  requests: z.number(),
});
export type RefusedKey = z.output<typeof RefusedKey>;

export interface AnalyticsReport {
  series: SeriesPoint[];
  totals: Omit<SeriesPoint, 'start'>;
  latency: LatencyRow[];
  top: Record<TopGroup, TopTable> & { end_user: TopTable | null };
  lookup_failures: LookupFailure[];
  /** The keys limits or budgets refused most in the range: which keys are refusing, at a glance. */
  refused_keys: RefusedKey[];
  names: NameBook;
}

export interface AnalyticsRequest {
  range: AnalyticsRange;
  scope: AnalyticsScope;
  groupBy: LatencyGroup;
  /** Rows in each top-N table (the rest is the "other" row). */
  top: number;
  /** Rows in the latency and failed-lookup tables. */
  rows: number;
}

const HistogramRow = z
  .object({
    name: z.string(),
    requests: z.number(),
    errors: z.number(),
    fallbacks: z.number(),
    latency_sum_ms: z.number(),
    ttft_count: z.number(),
  })
  .catchall(z.number());

const WholeTopRow = TopRow.extend({
  groups: z.number(),
  all_requests: z.number(),
  all_cost_usd: z.number(),
  all_tokens: z.number(),
});

export async function readAnalytics(db: D1Database, q: AnalyticsRequest): Promise<AnalyticsReport> {
  const { range, scope } = q;
  const statements: Statement[] = [
    seriesSql(range, scope),
    latencySql(range, scope, q.groupBy, q.rows),
    ...TOP_GROUPS.map((g) => topSql(range, scope, g, q.top)),
    lookupFailuresSql(range, scope, q.rows),
    refusedKeysSql(range, scope, q.rows),
  ];
  // End users are kept per tenant and day, not per key: a key filter has no end-user table, and neither
  // has a read of every tenant (their ids are each tenant's own, and the table is read tenant by tenant).
  const endUserTenants = scope.keyId === undefined ? scope.tenantIds : null;
  if (endUserTenants) statements.push(topEndUsersSql(range, endUserTenants, q.top));
  const results = await db.batch<Record<string, unknown>>(
    statements.map((s) => db.prepare(s.sql).bind(...s.binds)),
  );
  const rowsOf = (i: number) => results[i]?.results ?? [];
  const series = fillSeries(
    range,
    rowsOf(0).map((r) => SeriesPoint.parse({ ...r, start: r.t })),
  );
  const top = Object.fromEntries(TOP_GROUPS.map((g, i) => [g, topTable(rowsOf(2 + i))])) as Record<
    TopGroup,
    TopTable
  >;
  const failures = rowsOf(2 + TOP_GROUPS.length).map((r) => LookupFailure.parse(r));
  const refused = rowsOf(3 + TOP_GROUPS.length).map((r) => RefusedKey.parse(r));
  const names = await namesOf(
    db,
    [
      ...top.tenant.rows.map((r) => r.name),
      ...failures.map((f) => f.tenant_id),
      ...refused.map((k) => k.tenant_id),
    ],
    [...top.key.rows.map((r) => r.name), ...failures.map((f) => f.key_id), ...refused.map((k) => k.key_id)],
  );
  return {
    series,
    totals: sumSeries(series),
    latency: rowsOf(1).map(latencyRow),
    top: { ...top, end_user: endUserTenants ? topTable(rowsOf(4 + TOP_GROUPS.length)) : null },
    lookup_failures: failures,
    refused_keys: refused,
    names,
  };
}

const zeroPoint = (start: number): SeriesPoint =>
  ({ start, ...Object.fromEntries(SERIES_COUNTERS.map((c) => [c, 0])) }) as SeriesPoint;

/** Every step of the range, in order, zeros where no request was (pure). */
export function fillSeries(range: AnalyticsRange, points: readonly SeriesPoint[]): SeriesPoint[] {
  const byStart = new Map(points.map((p) => [p.start, p]));
  return stepStarts(range).map((t) => byStart.get(t) ?? zeroPoint(t));
}

function sumSeries(series: readonly SeriesPoint[]): Omit<SeriesPoint, 'start'> {
  const { start: _, ...totals } = zeroPoint(0);
  for (const p of series) for (const c of SERIES_COUNTERS) totals[c] += p[c];
  return totals;
}

/** One group's summed histograms as percentiles (pure). */
export function latencyRow(raw: Record<string, unknown>): LatencyRow {
  const r = HistogramRow.parse(raw);
  const lat = bucketColumns('lat').map((c) => r[c] ?? 0);
  const ttft = bucketColumns('ttft').map((c) => r[c] ?? 0);
  const measured = lat.reduce((s, n) => s + n, 0);
  return {
    name: r.name,
    requests: r.requests,
    errors: r.errors,
    fallbacks: r.fallbacks,
    latency_avg_ms: measured > 0 ? r.latency_sum_ms / measured : null,
    latency_p50_ms: quantile(lat, 0.5),
    latency_p95_ms: quantile(lat, 0.95),
    latency_p99_ms: quantile(lat, 0.99),
    ttft_count: r.ttft_count,
    ttft_p50_ms: quantile(ttft, 0.5),
    ttft_p95_ms: quantile(ttft, 0.95),
  };
}

/** The top rows and, from the window sums every row carries, the "other" row (pure). */
export function topTable(raw: readonly Record<string, unknown>[]): TopTable {
  const rows = raw.map((r) => WholeTopRow.parse(r));
  const first = rows[0];
  const strip = ({ name, tenant_id, requests, cost_usd, tokens }: z.output<typeof WholeTopRow>) => ({
    name,
    ...(tenant_id === undefined ? {} : { tenant_id }),
    requests,
    cost_usd,
    tokens,
  });
  if (!first || first.groups <= rows.length) return { rows: rows.map(strip), other: null };
  const shown = rows.reduce(
    (s, r) => ({
      requests: s.requests + r.requests,
      cost_usd: s.cost_usd + r.cost_usd,
      tokens: s.tokens + r.tokens,
    }),
    { requests: 0, cost_usd: 0, tokens: 0 },
  );
  return {
    rows: rows.map(strip),
    other: {
      groups: first.groups - rows.length,
      requests: first.all_requests - shown.requests,
      cost_usd: Math.max(0, first.all_cost_usd - shown.cost_usd),
      tokens: first.all_tokens - shown.tokens,
    },
  };
}
