/**
 * /admin/analytics: the analytics rollups (migration 0023) for a range preset (1h, 24h, 7d, 30d) or
 * from/to — time series, latency and TTFT percentiles per model, provider or route, top-N cost tables
 * with an "other" row, failed lookups (src/logs/read/analytics.ts) — and /admin/analytics/export.csv,
 * one of those tables as CSV. A tenant_admin sees only its tenants: every read is narrowed to them, and
 * naming another tenant is refused like any call outside its scope.
 */
import { type Context, Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { badRequest, GatewayError } from '../../core/errors';
import {
  LatencyRow,
  LookupFailure,
  RefusedKey,
  readAnalytics,
  SeriesPoint,
  TopTable,
} from '../../logs/read/analytics';
import { analyticsCsv, CSV_TABLES } from '../../logs/read/analytics-csv';
import { NameBook } from '../../logs/read/names';
import { PRESETS, resolveRange } from '../../logs/read/analytics-range';
import { type AnalyticsScope, LATENCY_GROUPS } from '../../logs/read/analytics-sql';
import type { Operation } from '../operation';
import { Id } from '../schemas';
import { readQuery } from '../validate';
import { TimeParam } from './logs';

const DEFAULT_TOP = 10;

export const AnalyticsQuery = z.strictObject({
  range: z.enum(PRESETS).optional().describe('A preset ending now (default 24h); not with from/to.'),
  from: TimeParam.optional().describe('Start of a custom range (with `to`, instead of `range`).'),
  to: TimeParam.optional().describe('End of a custom range; default now.'),
  tenant_id: Id.optional(),
  key_id: Id.optional(),
  group_by: z
    .enum(LATENCY_GROUPS)
    .default('model')
    .describe('What the latency table is per: model, provider or route.'),
  top: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(DEFAULT_TOP)
    .describe('Rows in each top-N cost table before its "other" row.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .describe('Rows in the latency and failed-lookup tables.'),
});

export const AnalyticsExportQuery = AnalyticsQuery.extend({
  table: z.enum(CSV_TABLES).default('series').describe('Which table of the report.'),
});

export const AnalyticsReportSchema = z.object({
  object: z.literal('analytics'),
  range: z.enum([...PRESETS, 'custom']),
  from: z.number().describe('First bucket start (epoch ms).'),
  to: z.number().describe('End of the range (epoch ms).'),
  granularity: z.enum(['minute', 'hour']).describe('The rollup read: per-minute up to 6 h, else hourly.'),
  step_ms: z.number().describe('Width of one point of the series.'),
  days: z
    .object({ from: z.string(), to: z.string() })
    .describe('The UTC days the end-user and failed-lookup tables cover (they are kept per day).'),
  tenant_id: z.string().nullable(),
  key_id: z.string().nullable(),
  group_by: z.enum(LATENCY_GROUPS),
  totals: SeriesPoint.omit({ start: true }),
  series: z.array(SeriesPoint).describe('Every step of the range, zeros included.'),
  latency: z.array(LatencyRow),
  top: z.object({
    tenant: TopTable,
    key: TopTable,
    model: TopTable,
    end_user: TopTable.nullable().describe(
      'Per UTC day; null with a key_id (end users are kept per tenant).',
    ),
  }),
  lookup_failures: z.array(LookupFailure),
  refused_keys: z
    .array(RefusedKey)
    .describe('The keys a limit or budget refused most in the range (429s from the gateway), most first.'),
  names: NameBook,
});

export const analyticsOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/analytics',
    access: { level: 'read', tenant: 'list' },
    summary:
      'Analytics over a range: time series, latency and TTFT percentiles, top-N cost tables, failed lookups',
    query: AnalyticsQuery,
    status: 200,
    response: { id: 'AnalyticsReport', schema: AnalyticsReportSchema },
  },
  {
    method: 'get',
    path: '/admin/analytics/export.csv',
    access: { level: 'read', tenant: 'list' },
    summary: 'One table of the analytics report as CSV',
    query: AnalyticsExportQuery,
    status: 200,
    streams: { mediaType: 'text/csv', description: 'A header row, then one line per row (RFC 4180)' },
  },
];

export function analyticsRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const q = readQuery(c, AnalyticsQuery);
    const { range, report, scope } = await read(c, q, now());
    return c.json({
      object: 'analytics' as const,
      range: range.preset,
      from: range.from,
      to: range.to,
      granularity: range.granularity,
      step_ms: range.stepMs,
      days: range.days,
      tenant_id: q.tenant_id ?? null,
      key_id: scope.keyId ?? null,
      group_by: q.group_by,
      ...report,
    });
  });

  router.get('/export.csv', async (c) => {
    const { table, ...q } = readQuery(c, AnalyticsExportQuery);
    const { range, report } = await read(c, q, now());
    const name = `analytics-${table}-${range.preset}-${new Date(range.to).toISOString().slice(0, 10)}.csv`;
    return new Response(analyticsCsv(report, table), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}"`,
      },
    });
  });

  return router;
}

async function read(c: Context<AppEnv>, q: z.output<typeof AnalyticsQuery>, at: number) {
  if (q.range !== undefined && (q.from !== undefined || q.to !== undefined))
    throw badRequest('Give a `range` preset or from/to, not both.', 'range', 'invalid_parameter');
  const range = resolveRange(
    q.from !== undefined ? { from: q.from, to: q.to ?? at } : { preset: q.range ?? '24h' },
    at,
  );
  if ('problem' in range) throw badRequest(range.message, 'from', 'invalid_range');
  const scope: AnalyticsScope = { tenantIds: tenantsOf(c, q.tenant_id), keyId: q.key_id };
  const report = await readAnalytics(c.env.DB, {
    range,
    scope,
    groupBy: q.group_by,
    top: q.top,
    rows: q.limit,
  });
  return { range, report, scope };
}

/** The tenants a read covers: the one named, else every tenant (null), a tenant_admin's own at most. */
function tenantsOf(c: Context<AppEnv>, tenantId: string | undefined): readonly string[] | null {
  const who = c.var.adminPrincipal;
  if (who.role !== 'tenant_admin') return tenantId === undefined ? null : [tenantId];
  if (tenantId === undefined) return who.tenantIds;
  if (who.tenantIds.includes(tenantId)) return [tenantId];
  throw new GatewayError(
    403,
    `The admin '${who.name}' may not call GET /admin/analytics: tenant '${tenantId}' is outside its scope.`,
    { code: 'forbidden', type: 'permission_error' },
  );
}
