/**
 * GET /admin/routes/{id}/health: each target of a route with its status
 * (src/routing/route-health.ts), its circuit breakers as the shared Breaker
 * objects hold them (phase, since when, recent calls and failures), and its
 * traffic over the last hour and 24 h from the request logs' tries (requests,
 * served, skipped, failed calls, fallback rate; at most TRAFFIC_ROW_LIMIT log
 * rows, see src/logs/read/route-traffic.ts). `traffic=false` skips the log
 * read (the dashboard's routes list asks for breakers only).
 *
 * Same access as the route itself. Off the request path: one Breaker object
 * call per target read (at most MAX_HEALTH_TARGETS, each bounded by
 * INSPECT_TIMEOUT_MS; one that does not answer is reported unavailable, not
 * an error) and one D1 batch. Reading a target's breaker that was never
 * called creates its (empty) object.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { inspectBreakers } from '../../durable/breaker';
import { fallbackRate, routeTraffic, type TrafficCounts } from '../../logs/read/route-traffic';
import type { BreakerInspection } from '../../routing/breaker-inspection';
import {
  breakerKeys,
  breakerUsed,
  MAX_HEALTH_TARGETS,
  type SpecTarget,
  specTargets,
  targetStatus,
  UNHEALTHY,
  worstStatus,
} from '../../routing/route-health';
import type { Route } from '../../storage/route-admin-store';
import { within } from '../../util/within';
import { readQuery } from '../validate';

export const INSPECT_TIMEOUT_MS = 2_000;

export const RouteHealthQuery = z.strictObject({
  traffic: z
    .enum(['true', 'false'])
    .default('true')
    .describe('false: breakers only, without reading the request logs.'),
});

const Status = z.enum(['open', 'half-open', 'failing', 'healthy', 'idle']);
const Counts = z.object({
  requests: z.number().describe('Requests whose tries name the target (called, or skipped as open).'),
  served: z.number().describe('Requests the target answered.'),
  skipped: z.number().describe('Requests that skipped it because its breaker was open.'),
  failed_calls: z.number().describe('Calls to it that failed, retries included.'),
  fallback_rate: z
    .number()
    .nullable()
    .describe('Share of the requests that reached it which it did not serve; null without requests.'),
});
const BreakerRead = z.object({
  key: z.string().describe('The breaker: the model, or model@tenant for calls with the tenant’s own key.'),
  scope: z.enum(['deployment', 'tenant']),
  state: z.enum(['closed', 'open', 'half-open']),
  since: z.number().nullable().describe('Opened at; half-open from; closed since (null: never opened).'),
  retry_at: z.number().nullable(),
  cooldown_ms: z.number().nullable(),
  window_calls: z.number().describe('Calls in the breaker’s 30 s window (while closed).'),
  window_failures: z.number(),
  recent_calls: z.number().describe('Calls, decayed with a 30 s half-life.'),
  recent_failures: z.number(),
});
const TargetHealth = z.object({
  model: z.string(),
  kind: z.enum(['model', 'route']).describe('route: the target names another route (see its own health).'),
  in_spec: z.boolean().describe('false: seen in the logs only (a nested route’s target, or one removed).'),
  status: Status,
  unhealthy: z.boolean(),
  breakers: z.array(BreakerRead),
  breaker_unavailable: z.boolean().describe('A breaker did not answer in time; its state is unknown.'),
  last_hour: Counts.nullable(),
  last_24h: Counts.nullable(),
});
export const RouteHealth = z.object({
  object: z.literal('route_health'),
  route: z.object({ id: z.string(), name: z.string(), tenant_id: z.string().nullable() }),
  checked_at: z.number(),
  status: Status.describe('The worst target status.'),
  unhealthy: z.number().describe('Targets open, half-open or failing.'),
  traffic: z
    .object({
      since: z.number(),
      until: z.number(),
      rows: z.number().describe('Log rows read.'),
      limit: z.number().describe('The most log rows one read scans.'),
      truncated: z.boolean().describe('More requests than `limit`: the figures cover the newest `rows`.'),
      oldest: z.number().nullable(),
      requests: z.object({ last_hour: z.number(), last_24h: z.number() }),
      fell_back: z
        .object({ last_hour: z.number(), last_24h: z.number() })
        .describe('Requests whose tries name more than one target.'),
    })
    .nullable(),
  targets: z.array(TargetHealth),
});
export type RouteHealth = z.output<typeof RouteHealth>;

export const routeHealthOperation = {
  method: 'get',
  path: '/admin/routes/{id}/health',
  access: { level: 'read' },
  summary: 'Each target of a route: status, circuit breakers, and fallback rate over the last hour and 24 h',
  query: RouteHealthQuery,
  status: 200,
  response: { id: 'RouteHealth', schema: RouteHealth },
} as const;

type BreakerResult = { key: string; scope: 'deployment' | 'tenant'; read: BreakerInspection | null };

const round = (n: number) => Math.round(n * 100) / 100;

function breakerRead(b: BreakerResult & { read: BreakerInspection }): z.output<typeof BreakerRead> {
  const r = b.read;
  return {
    key: b.key,
    scope: b.scope,
    state: r.phase,
    since: r.since,
    retry_at: r.retryAt,
    cooldown_ms: r.cooldownMs,
    window_calls: r.windowCalls,
    window_failures: r.windowFailures,
    recent_calls: round(r.health.calls),
    recent_failures: round(r.health.failures),
  };
}

const withRate = (c: TrafficCounts | undefined) =>
  c
    ? { ...c, fallback_rate: fallbackRate(c) }
    : { requests: 0, served: 0, skipped: 0, failed_calls: 0, fallback_rate: null };

export async function routeHealth(c: Context<AppEnv>, route: Route, now: number): Promise<RouteHealth> {
  const query = readQuery(c, RouteHealthQuery);
  const traffic =
    query.traffic === 'true'
      ? await routeTraffic(c.env.DB, { name: route.name, tenantId: route.tenant_id, now })
      : null;
  const listed = specTargets(route.spec);
  const seen = new Set(listed.map((t) => t.model));
  const fromLogs: SpecTarget[] = (traffic?.targets ?? [])
    .filter((t) => !seen.has(t.target))
    .map((t) => ({ model: t.target, kind: t.target.includes('/') ? 'model' : 'route', credential: 'auto' }));
  const targets = [...listed, ...fromLogs].slice(0, MAX_HEALTH_TARGETS);
  const inspect = inspectBreakers(c.env.BREAKER);
  const reads = await Promise.all(
    targets.map((t) =>
      Promise.all(
        breakerKeys(t, route.tenant_id).map(
          async (k): Promise<BreakerResult> => ({
            ...k,
            read: await within(INSPECT_TIMEOUT_MS, inspect(k.key)).catch(() => null),
          }),
        ),
      ),
    ),
  );
  const rows = targets.map((t, i) => {
    const results = reads[i] ?? [];
    const read = results.filter((b): b is BreakerResult & { read: BreakerInspection } => b.read !== null);
    const shown = read.filter((b) => b.scope === 'deployment' || breakerUsed(b.read));
    const seenIn = traffic?.targets.find((x) => x.target === t.model);
    const lastHour = traffic ? withRate(seenIn?.last_hour) : null;
    const last24h = traffic ? withRate(seenIn?.last_24h) : null;
    const status = targetStatus({ breakers: shown.map((b) => b.read), lastHour, last24h });
    return {
      model: t.model,
      kind: t.kind,
      in_spec: seen.has(t.model),
      status,
      unhealthy: UNHEALTHY.has(status),
      breakers: shown.map(breakerRead),
      breaker_unavailable: read.length < results.length,
      last_hour: lastHour,
      last_24h: last24h,
    };
  });
  return {
    object: 'route_health',
    route: { id: route.id, name: route.name, tenant_id: route.tenant_id },
    checked_at: now,
    status: worstStatus(rows.map((r) => r.status)),
    unhealthy: rows.filter((r) => r.unhealthy).length,
    traffic: traffic && {
      since: traffic.since,
      until: traffic.until,
      rows: traffic.rows,
      limit: traffic.limit,
      truncated: traffic.truncated,
      oldest: traffic.oldest,
      requests: traffic.requests,
      fell_back: traffic.fell_back,
    },
    targets: rows,
  };
}
