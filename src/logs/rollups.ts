/**
 * The usage rollups' statements (pure SQL text): per tenant, key and model (usage_daily), per end user
 * (usage_end_users_daily) and per tag value (usage_tags_daily), each an upsert of one write's rows grouped
 * by day; and MCP calls per server and tool (usage_mcp_daily, migration 0022), which are not model
 * requests and so count only there, never in the other three. `rows` is the FROM … WHERE clause that
 * selects the rows the write inserted (src/logs/store.ts), so each rollup adds a row's figures exactly once. The counters and their arithmetic are written once
 * here and shared, so the three tables always agree: tokens and cost count provider calls only, a gateway
 * cache hit counts in requests and cache_hits, and what it avoided in saved_tokens / saved_usd.
 */
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

const ADD_EXCLUDED = COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ');

/** The write's model requests (not MCP calls), each with `hit` (answered from the gateway's cache). */
const withHit = (rows: string, where = '') =>
  `(SELECT *, coalesce(cache, '') IN ('HIT', 'SEMANTIC') AS hit ${rows} AND endpoint <> '${MCP_ENDPOINT}'${where})`;

/** One upsert: `keys` are the table's primary key (and the first columns grouped by). */
function upsert(table: string, keys: readonly string[], select: string, from: string): string {
  const groups = keys.map((_, i) => i + 1).join(', ');
  return `INSERT INTO ${table} (${keys.join(', ')}, ${COUNTERS.join(', ')})
  SELECT ${select}, ${SUMS}
  FROM ${from}
  WHERE true
  GROUP BY ${groups}
  ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${ADD_EXCLUDED}`;
}

/** Per tenant, day, key and model; '' stands for none (unauthenticated requests, no model named). */
export const usageRollup = (rows: string) =>
  upsert(
    'usage_daily',
    ['tenant_id', 'day', 'key_id', 'model'],
    `coalesce(tenant_id, ''), day, coalesce(key_id, ''), coalesce(model, '')`,
    withHit(rows),
  );

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
