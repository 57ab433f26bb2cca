/**
 * The analytics reads' SQL (pure): each builder returns the statement text and its bound values, over the
 * rollup tables of migration 0023, never raw logs. Every read is bounded by the range (the tables' primary
 * key starts with `start`, their second index with tenant_id, start) and, for a tenant-scoped admin or a
 * tenant filter, by the tenants (one JSON array parameter). Percentiles are computed from summed
 * histogram columns (src/core/latency-buckets.ts) by the reader, not in SQL.
 */
import { bucketColumns } from '../../core/latency-buckets';
import type { AnalyticsRange } from './analytics-range';

export interface AnalyticsScope {
  /** null: every tenant; else only these (a tenant filter, or a tenant_admin's tenants). */
  tenantIds: readonly string[] | null;
  keyId?: string | undefined;
}

export interface Statement {
  sql: string;
  binds: (string | number)[];
}

export const LATENCY_GROUPS = ['model', 'provider', 'route'] as const;
export type LatencyGroup = (typeof LATENCY_GROUPS)[number];

export const TOP_GROUPS = ['tenant', 'key', 'model'] as const;
export type TopGroup = (typeof TOP_GROUPS)[number];

/** The counters each point of the time series carries. */
export const SERIES_COUNTERS = [
  'requests',
  'errors',
  'status_4xx',
  'status_5xx',
  'stream_errors',
  'err_gateway',
  'err_provider',
  'err_client',
  'denials',
  'fallbacks',
  'cache_hits',
  'cost_usd',
  'saved_usd',
  'input_tokens',
  'output_tokens',
] as const;

const sums = (columns: readonly string[]) => columns.map((c) => `coalesce(sum(${c}), 0) AS ${c}`).join(', ');

/** The WHERE clause of a read over one bucket table: range, then scope. */
function where(range: AnalyticsRange, scope: AnalyticsScope, column = 'start'): Statement {
  const clauses = [`${column} >= ?`, `${column} <= ?`];
  const binds: (string | number)[] =
    column === 'start' ? [range.from, range.to] : [range.days.from, range.days.to];
  if (scope.tenantIds !== null) {
    clauses.push('tenant_id IN (SELECT value FROM json_each(?))');
    binds.push(JSON.stringify(scope.tenantIds));
  }
  if (scope.keyId !== undefined) {
    clauses.push('key_id = ?');
    binds.push(scope.keyId);
  }
  return { sql: clauses.join(' AND '), binds };
}

/** The time series: every counter summed per step (steps with no rows are filled in by the reader). */
export function seriesSql(range: AnalyticsRange, scope: AnalyticsScope): Statement {
  const w = where(range, scope);
  return {
    sql: `SELECT start - start % ? AS t, ${sums(SERIES_COUNTERS)}
  FROM ${range.table} WHERE ${w.sql} GROUP BY t ORDER BY t`,
    binds: [range.stepMs, ...w.binds],
  };
}

const HISTOGRAMS = [...bucketColumns('lat'), ...bucketColumns('ttft')];

/**
 * Requests, errors, latency and TTFT histograms per model, provider or route (the busiest `limit`);
 * '' (no model reached, no route called) is left out.
 */
export function latencySql(
  range: AnalyticsRange,
  scope: AnalyticsScope,
  group: LatencyGroup,
  limit: number,
): Statement {
  const w = where(range, scope);
  return {
    sql: `SELECT ${group} AS name, ${sums(['requests', 'errors', 'fallbacks', 'latency_sum_ms', 'ttft_count', 'ttft_sum_ms', ...HISTOGRAMS])}
  FROM ${range.table} WHERE ${w.sql} AND ${group} <> '' GROUP BY name ORDER BY requests DESC, name LIMIT ?`,
    binds: [...w.binds, limit],
  };
}

/** Over every group that matched, before the LIMIT: what the top rows and the "other" row share out. */
const WHOLE = `count(*) OVER () AS groups, sum(requests) OVER () AS all_requests,
    sum(cost_usd) OVER () AS all_cost_usd, sum(tokens) OVER () AS all_tokens`;

const TOP_COLUMN: Record<TopGroup, string> = { tenant: 'tenant_id', key: 'key_id', model: 'model' };

/**
 * The costliest `limit` tenants, keys or models, each row with the number of groups that matched
 * and their sums (window functions over the grouped rows), so the reader can say what the "other" row holds. Model '' (no model
 * reached: failed lookups, requests naming none) is no model and is left out; so are key '' and tenant ''
 * (unauthenticated requests, which cost nothing).
 */
export function topSql(
  range: AnalyticsRange,
  scope: AnalyticsScope,
  group: TopGroup,
  limit: number,
): Statement {
  const w = where(range, scope);
  const column = TOP_COLUMN[group];
  return {
    sql: `SELECT name, requests, cost_usd, tokens, ${WHOLE} FROM (
    SELECT ${column} AS name, coalesce(sum(requests), 0) AS requests, coalesce(sum(cost_usd), 0) AS cost_usd,
      coalesce(sum(input_tokens + output_tokens), 0) AS tokens
    FROM ${range.table} WHERE ${w.sql} AND ${column} <> '' GROUP BY name)
  ORDER BY cost_usd DESC, requests DESC, name LIMIT ?`,
    binds: [...w.binds, limit],
  };
}

/**
 * The same over end users, from usage_end_users_daily: whole UTC days only (its granularity), and only for
 * a scope of tenants (its primary key starts with tenant_id; end-user ids are each tenant's own, so a row
 * is a tenant's end user).
 */
export function topEndUsersSql(
  range: AnalyticsRange,
  tenantIds: readonly string[],
  limit: number,
): Statement {
  const w = where(range, { tenantIds }, 'day');
  return {
    sql: `SELECT tenant_id, name, requests, cost_usd, tokens, ${WHOLE} FROM (
    SELECT tenant_id, end_user AS name, sum(requests) AS requests, sum(cost_usd) AS cost_usd,
      sum(input_tokens + output_tokens) AS tokens
    FROM usage_end_users_daily WHERE ${w.sql} GROUP BY tenant_id, end_user)
  ORDER BY cost_usd DESC, requests DESC, name LIMIT ?`,
    binds: [...w.binds, limit],
  };
}

/** Failed model lookups over the range's UTC days, most frequent first. */
/**
 * The keys whose requests limits or budgets refused most (429s from the gateway: the key's own, its
 * tenant's, its end users' or a model or tag rule's), most first; keys with none are left out.
 */
export function refusedKeysSql(range: AnalyticsRange, scope: AnalyticsScope, limit: number): Statement {
  const w = where(range, scope);
  return {
    sql: `SELECT key_id, tenant_id, sum(denials) AS denials, sum(requests) AS requests
  FROM ${range.table} WHERE ${w.sql} AND key_id <> ''
  GROUP BY key_id, tenant_id HAVING sum(denials) > 0 ORDER BY denials DESC, key_id LIMIT ?`,
    binds: [...w.binds, limit],
  };
}

export function lookupFailuresSql(range: AnalyticsRange, scope: AnalyticsScope, limit: number): Statement {
  const w = where(range, scope, 'day');
  return {
    sql: `SELECT tenant_id, key_id, model, error_code, sum(requests) AS requests, max(last_seen) AS last_seen
  FROM lookup_failures_daily WHERE ${w.sql}
  GROUP BY tenant_id, key_id, model, error_code ORDER BY requests DESC, last_seen DESC LIMIT ?`,
    binds: [...w.binds, limit],
  };
}
