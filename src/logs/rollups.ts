/**
 * The usage rollups' statements (pure SQL text), each an upsert of one write's rows grouped by its keys:
 * - per tenant, key and model (usage_daily), per end user (usage_end_users_daily) and per tag value
 *   (usage_tags_daily), by day;
 * - the analytics buckets (usage_hourly, usage_minutely, usage_totals, with latency and TTFT histograms)
 *   and failed model lookups (lookup_failures_daily), migration 0023;
 * - MCP calls per server and tool (usage_mcp_daily, migration 0022), which are not model requests and so
 *   count only there.
 * `rows` is the FROM … WHERE clause that selects the rows the write inserted (src/logs/store.ts), so each
 * rollup adds a row's figures exactly once. The counters and their arithmetic are written once here and
 * shared, so the tables always agree: tokens and cost count provider calls only, a gateway cache hit
 * counts in requests and cache_hits, and what it avoided in saved_tokens / saved_usd.
 */
import { bucketColumns, LATENCY_BOUNDS_MS } from '../core/latency-buckets';
import { MCP_ENDPOINT } from '../core/log-event';

const COUNTERS = [
  'requests',
  'input_tokens',
  'output_tokens',
  'cached_tokens',
  'cost_usd',
  'cache_hits',
  'saved_tokens',
  'saved_usd',
  'errors',
] as const;

/** The counters of a group of rows, in COUNTERS' order; `hit` is set by ROWS_WITH_HIT. */
const SUMS = `count(*),
    sum(CASE WHEN hit THEN 0 ELSE input_tokens END), sum(CASE WHEN hit THEN 0 ELSE output_tokens END),
    sum(CASE WHEN hit THEN 0 ELSE cached_tokens END), sum(cost_usd), sum(hit),
    sum(CASE WHEN hit THEN input_tokens + output_tokens ELSE 0 END), sum(saved_usd),
    sum(status >= 400 OR error_code IS NOT NULL)`;

/**
 * The error codes that mean the model the client named could not be found or used as named (an unknown
 * provider/model or route, a provider this gateway has no key for, one that does not serve the endpoint,
 * a model outside the key's allow-list, or the provider's own model_not_found). Such a name is the
 * client's, unbounded and often a typo: it goes to lookup_failures_daily, never into usage per model.
 */
export const LOOKUP_FAILURE_CODES = [
  'model_not_found',
  'provider_not_configured',
  'unsupported_endpoint',
  'model_not_allowed',
] as const;

const LOOKUP_CODES = LOOKUP_FAILURE_CODES.map((c) => `'${c}'`).join(', ');

/** An authenticated model request that failed because its model was unknown, unusable or not named at all. */
const LOOKUP_FAILED = `(tenant_id IS NOT NULL AND (status >= 400 OR error_code IS NOT NULL)
    AND (model IS NULL OR error_code IN (${LOOKUP_CODES})))`;

/** The model a usage row counts under: '' for none named and for a failed lookup (per-model views skip ''). */
const SEEN_MODEL = `CASE WHEN model IS NULL OR error_code IN (${LOOKUP_CODES}) THEN '' ELSE model END`;

/** The analytics tables' counters beyond COUNTERS (migration 0023), each with its sum over a group of rows. */
const ANALYTICS_SUM_OF = {
  status_4xx: 'sum(status >= 400 AND status < 500)',
  status_5xx: 'sum(status >= 500)',
  stream_errors: 'sum(status < 400 AND error_code IS NOT NULL)',
  err_gateway: "sum(error_source IS 'gateway')",
  err_provider: "sum(error_source IS 'provider')",
  err_client: "sum(error_source IS 'client')",
  denials: "sum(status = 429 AND error_source IS 'gateway')",
  fallbacks: 'sum(attempts > 1)',
  attempts: 'sum(attempts)',
  latency_sum_ms: 'total(latency_ms)',
  ttft_count: 'sum(ttft_ms IS NOT NULL)',
  ttft_sum_ms: 'total(ttft_ms)',
} as const;

/** A counter column of usage_hourly, usage_minutely and usage_totals (histogram columns aside). */
export type AnalyticsCounter = (typeof COUNTERS)[number] | keyof typeof ANALYTICS_SUM_OF;

/** Those counter columns, in the tables' order. */
export const ANALYTICS_COUNTER_COLUMNS: readonly AnalyticsCounter[] = [
  ...COUNTERS,
  ...(Object.keys(ANALYTICS_SUM_OF) as (keyof typeof ANALYTICS_SUM_OF)[]),
];

const ANALYTICS_SUMS: readonly (readonly [string, string])[] = [
  ...Object.entries(ANALYTICS_SUM_OF),
  ...bucketColumns('lat').map((c, i) => [c, `sum(lb = ${i})`] as const),
  ...bucketColumns('ttft').map((c, i) => [c, `sum(tb IS ${i})`] as const),
];

const ANALYTICS_COUNTERS = [...COUNTERS, ...ANALYTICS_SUMS.map(([c]) => c)];

const ANALYTICS_SUMS_SQL = `${SUMS},
    ${ANALYTICS_SUMS.map(([, sum]) => sum).join(', ')}`;

const addExcluded = (counters: readonly string[]) =>
  counters.map((c) => `${c} = ${c} + excluded.${c}`).join(', ');

/** The write's model requests (not MCP calls), each with `hit` (answered from the gateway's cache). */
const withHit = (rows: string, where = '') =>
  `(SELECT *, coalesce(cache, '') IN ('HIT', 'SEMANTIC') AS hit ${rows} AND endpoint <> '${MCP_ENDPOINT}'${where})`;

/** The latency bucket of `column` (LATENCY_BOUNDS_MS: the first bound it does not exceed). */
const bucketCase = (column: string) =>
  `CASE ${LATENCY_BOUNDS_MS.map((b, i) => `WHEN ${column} <= ${b} THEN ${i}`).join(' ')} ELSE ${LATENCY_BOUNDS_MS.length} END`;

/** withHit's rows with their model as counted (`seen`) and their latency and TTFT buckets (`lb`, `tb`). */
const withBuckets = (rows: string) => `(SELECT *, ${SEEN_MODEL} AS seen, ${bucketCase('latency_ms')} AS lb,
    CASE WHEN ttft_ms IS NULL THEN NULL ELSE ${bucketCase('ttft_ms')} END AS tb
  FROM ${withHit(rows)})`;

/** One upsert: `keys` are the table's primary key (and the first columns grouped by). */
function upsert(
  table: string,
  keys: readonly string[],
  select: string,
  from: string,
  counters: readonly string[] = COUNTERS,
  sums = SUMS,
): string {
  const groups = keys.map((_, i) => i + 1).join(', ');
  return `INSERT INTO ${table} (${keys.join(', ')}, ${counters.join(', ')})
  SELECT ${select}, ${sums}
  FROM ${from}
  WHERE true
  GROUP BY ${groups}
  ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${addExcluded(counters)}`;
}

/**
 * Per tenant, day, key and model; '' stands for none (unauthenticated requests, no model named) and for
 * a failed lookup, which lookupFailureRollup keeps by name instead.
 */
export const usageRollup = (rows: string) =>
  upsert(
    'usage_daily',
    ['tenant_id', 'day', 'key_id', 'model'],
    `coalesce(tenant_id, ''), day, coalesce(key_id, ''), ${SEEN_MODEL}`,
    withHit(rows),
  );

const BUCKET_KEYS = ['start', 'tenant_id', 'key_id', 'model', 'provider', 'route'];

/** A request that never reached a model counts under provider '' too. */
const bucketSelect = (
  width: number,
) => `time - time % ${width}, coalesce(tenant_id, ''), coalesce(key_id, ''),
    seen, CASE WHEN seen = '' THEN '' ELSE coalesce(provider, '') END, coalesce(route, '')`;

/** Per hour (or minute), tenant, key, model, provider and route, with the latency and TTFT histograms. */
export const bucketRollup = (table: 'usage_hourly' | 'usage_minutely') => (rows: string) =>
  upsert(
    table,
    BUCKET_KEYS,
    bucketSelect(table === 'usage_hourly' ? 3_600_000 : 60_000),
    withBuckets(rows),
    ANALYTICS_COUNTERS,
    ANALYTICS_SUMS_SQL,
  );

export const hourlyRollup = bucketRollup('usage_hourly');
export const minutelyRollup = bucketRollup('usage_minutely');

/** Per tenant, model and provider since the start: cumulative, for the Prometheus counters. */
export const totalsRollup = (rows: string) =>
  upsert(
    'usage_totals',
    ['tenant_id', 'model', 'provider'],
    `coalesce(tenant_id, ''), seen, CASE WHEN seen = '' THEN '' ELSE coalesce(provider, '') END`,
    withBuckets(rows),
    ANALYTICS_COUNTERS,
    ANALYTICS_SUMS_SQL,
  );

/** Per tenant, day, key, the model as the client named it ('' for none) and error code: the failed lookups. */
export const lookupFailureRollup = (
  rows: string,
) => `INSERT INTO lookup_failures_daily (tenant_id, day, key_id, model, error_code, requests, last_seen)
  SELECT tenant_id, day, coalesce(key_id, ''), coalesce(model, ''), coalesce(error_code, ''), count(*), max(time)
  FROM ${withHit(rows, ` AND ${LOOKUP_FAILED}`)}
  WHERE true
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, day, key_id, model, error_code) DO UPDATE SET
    requests = requests + excluded.requests, last_seen = max(last_seen, excluded.last_seen)`;

/** Per tenant, day and end user: only requests that named an end user (one row each, at most). */
export const endUserRollup = (rows: string) =>
  upsert(
    'usage_end_users_daily',
    ['tenant_id', 'day', 'end_user'],
    'tenant_id, day, end_user',
    withHit(rows, ' AND tenant_id IS NOT NULL AND end_user IS NOT NULL'),
  );

/** Per tenant, day, tag key and value: a request counts once under each tag it carried. */
export const tagRollup = (rows: string) =>
  upsert(
    'usage_tags_daily',
    ['tenant_id', 'day', 'tag', 'value'],
    'r.tenant_id, r.day, t.key, t.value',
    `${withHit(rows, ' AND tenant_id IS NOT NULL AND tags IS NOT NULL')} AS r, json_each(r.tags) AS t`,
  );

/**
 * Per tenant, day, key, server namespace, method and tool: the write's MCP calls. The namespace is the
 * mcp column's, else the provider's (`mcp:<namespace>`) for a call refused before its server was known;
 * resources/read counts per server under tool '' (URIs are unbounded, the table is kept forever).
 */
export const mcpRollup = (
  rows: string,
) => `INSERT INTO usage_mcp_daily (tenant_id, day, key_id, server, method, tool,
    calls, errors, tool_errors, args_bytes, result_bytes, latency_ms)
  SELECT coalesce(tenant_id, ''), day, coalesce(key_id, ''),
    coalesce(mcp ->> '$.namespace', CASE WHEN provider LIKE 'mcp:%' THEN substr(provider, 5) END, ''),
    coalesce(mcp ->> '$.method', ''),
    CASE WHEN mcp ->> '$.method' = 'resources/read' THEN '' ELSE coalesce(model, '') END,
    count(*), sum(status >= 400 OR error_code IS NOT NULL), sum(coalesce(mcp ->> '$.is_error', 0) = 1),
    sum(coalesce(mcp ->> '$.args_bytes', 0)), sum(coalesce(mcp ->> '$.result_bytes', 0)), sum(latency_ms)
  FROM (SELECT * ${rows} AND endpoint = '${MCP_ENDPOINT}')
  WHERE true
  GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (tenant_id, day, key_id, server, method, tool) DO UPDATE SET
    calls = calls + excluded.calls, errors = errors + excluded.errors,
    tool_errors = tool_errors + excluded.tool_errors, args_bytes = args_bytes + excluded.args_bytes,
    result_bytes = result_bytes + excluded.result_bytes, latency_ms = latency_ms + excluded.latency_ms`;
