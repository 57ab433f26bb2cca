/**
 * A route's recent traffic per target, from the request logs' `tries` (what
 * every request called, in order): over the last hour and the last 24 h, how
 * many requests reached each target, how many it served, how many found its
 * breaker open, and how many calls to it failed. A target's fallback rate is
 * the share of the requests that reached it which it did not serve (they
 * fell back to the next target, or failed).
 *
 * Bounded: it reads at most `limit` log rows, the route's newest in the 24 h
 * window, through the index request_logs_route_time (route, time), in two
 * passes of one D1 batch (per target, and the totals; the second reads one
 * row more, to tell whether there were more): at most 2 × (limit + 1) rows
 * read. When the route had more requests than that, the figures cover the
 * newest `limit` only and say so (`truncated`, `oldest`). Logs record the route by the name
 * the client called: a tenant's route counts that tenant's rows; a global
 * route every tenant's, except tenants whose own route of that name shadows it.
 */
import * as z from 'zod';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** The most log rows one read scans. */
export const TRAFFIC_ROW_LIMIT = 5_000;

export interface TrafficCounts {
  /** Requests whose tries name the target (called or skipped). */
  readonly requests: number;
  /** Requests the target answered. */
  readonly served: number;
  /** Requests that found its breaker open and skipped it without a call. */
  readonly skipped: number;
  /** Calls to it that failed (every failed try, retries included). */
  readonly failed_calls: number;
}

export interface TargetTraffic {
  readonly target: string;
  readonly last_hour: TrafficCounts;
  readonly last_24h: TrafficCounts;
}

export interface RouteTraffic {
  readonly since: number;
  readonly until: number;
  /** Log rows read (at most `limit`). */
  readonly rows: number;
  readonly limit: number;
  /** True when the window held more rows than were read: figures cover the newest `rows` only. */
  readonly truncated: boolean;
  /** The oldest request read (null: none). */
  readonly oldest: number | null;
  /** Requests, and those whose tries name more than one target, per window. */
  readonly requests: { readonly last_hour: number; readonly last_24h: number };
  readonly fell_back: { readonly last_hour: number; readonly last_24h: number };
  readonly targets: readonly TargetTraffic[];
}

export interface RouteTrafficQuery {
  readonly name: string;
  /** The route's tenant; null: a global route. */
  readonly tenantId: string | null;
  readonly now: number;
  readonly limit?: number;
}

const TargetRow = z.object({
  target: z.string(),
  in_hour: z.number(),
  requests: z.number(),
  served: z.number(),
  skipped: z.number(),
  failed_calls: z.number(),
});
const TotalRow = z.object({
  fetched: z.number(),
  rows: z.number().nullable(),
  hour: z.number().nullable(),
  fell_back: z.number().nullable(),
  fell_back_hour: z.number().nullable(),
  oldest: z.number().nullable(),
});

export async function routeTraffic(db: D1Database, q: RouteTrafficQuery): Promise<RouteTraffic> {
  const limit = q.limit ?? TRAFFIC_ROW_LIMIT;
  const since = q.now - DAY_MS;
  const hour = q.now - HOUR_MS;
  const scope =
    q.tenantId === null
      ? 'AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT tenant_id FROM routes WHERE name = ?1 AND tenant_id IS NOT NULL))'
      : 'AND tenant_id = ?5';
  // One row more than the limit tells whether the window held more.
  const recent = `WITH recent AS (
    SELECT id, time, tries FROM request_logs
    WHERE route = ?1 AND time >= ?2 AND time <= ?3 AND tries IS NOT NULL ${scope}
    ORDER BY time DESC, id DESC LIMIT ?4)`;
  const perTarget = `${recent},
  per AS (
    SELECT r.id, r.time >= ?6 AS in_hour, json_extract(j.value, '$.target') AS target,
      max(json_extract(j.value, '$.error') IS NULL) AS served,
      max(coalesce(json_extract(j.value, '$.error'), '') = 'circuit_open') AS skipped,
      sum(coalesce(json_extract(j.value, '$.error'), 'circuit_open') <> 'circuit_open') AS failed_calls
    FROM (SELECT * FROM recent ORDER BY time DESC, id DESC LIMIT ?7) r, json_each(r.tries) j
    WHERE json_extract(j.value, '$.target') IS NOT NULL
    GROUP BY r.id, target)
  SELECT target, in_hour, count(*) AS requests, sum(served) AS served, sum(skipped) AS skipped,
    sum(failed_calls) AS failed_calls
  FROM per GROUP BY target, in_hour ORDER BY target`;
  // One pass over `recent` (up to limit + 1 rows): the extra row only says whether there were more.
  const totals = `${recent}
  SELECT count(*) AS fetched, sum(n <= ?7) AS rows, sum(n <= ?7 AND time >= ?6) AS hour,
    sum(n <= ?7 AND fell_back) AS fell_back, sum(n <= ?7 AND fell_back AND time >= ?6) AS fell_back_hour,
    min(CASE WHEN n <= ?7 THEN time END) AS oldest
  FROM (SELECT time, row_number() OVER (ORDER BY time DESC, id DESC) AS n,
      (SELECT count(DISTINCT json_extract(value, '$.target')) FROM json_each(tries)) > 1 AS fell_back
    FROM recent)`;
  const binds = [q.name, since, q.now, limit + 1, q.tenantId, hour, limit];
  const [targets, total] = await db.batch<Record<string, unknown>>([
    db.prepare(perTarget).bind(...binds),
    db.prepare(totals).bind(...binds),
  ]);
  const t = TotalRow.parse(total?.results[0] ?? {});
  return {
    since,
    until: q.now,
    rows: t.rows ?? 0,
    limit,
    truncated: t.fetched > limit,
    oldest: t.oldest,
    requests: { last_hour: t.hour ?? 0, last_24h: t.rows ?? 0 },
    fell_back: { last_hour: t.fell_back_hour ?? 0, last_24h: t.fell_back ?? 0 },
    targets: byTarget((targets?.results ?? []).map((r) => TargetRow.parse(r))),
  };
}

const ZERO: TrafficCounts = { requests: 0, served: 0, skipped: 0, failed_calls: 0 };

function add(a: TrafficCounts, b: TrafficCounts): TrafficCounts {
  return {
    requests: a.requests + b.requests,
    served: a.served + b.served,
    skipped: a.skipped + b.skipped,
    failed_calls: a.failed_calls + b.failed_calls,
  };
}

/** Rows per (target, in the last hour or not) → per target, the hour and the whole 24 h. */
function byTarget(rows: readonly z.output<typeof TargetRow>[]): TargetTraffic[] {
  const out = new Map<string, { last_hour: TrafficCounts; last_24h: TrafficCounts }>();
  for (const r of rows) {
    const counts = {
      requests: r.requests,
      served: r.served,
      skipped: r.skipped,
      failed_calls: r.failed_calls,
    };
    const t = out.get(r.target) ?? { last_hour: ZERO, last_24h: ZERO };
    out.set(r.target, {
      last_hour: r.in_hour ? add(t.last_hour, counts) : t.last_hour,
      last_24h: add(t.last_24h, counts),
    });
  }
  return [...out].map(([target, t]) => ({ target, ...t }));
}

/** The share of the requests that reached a target which it did not serve; null without requests. */
export function fallbackRate(c: TrafficCounts): number | null {
  return c.requests === 0 ? null : (c.requests - c.served) / c.requests;
}
