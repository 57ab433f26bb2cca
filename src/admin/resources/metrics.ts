/**
 * GET /admin/metrics: the gateway's usage as Prometheus metrics (text exposition format 0.0.4), for a
 * Prometheus scrape with an admin token as its bearer credential (docs/metrics.md). Every role may read
 * it; a tenant_admin's answer holds only its own tenants' series, and `tenant_id` narrows any answer to
 * one tenant (a tenant_admin naming another tenant is refused, as everywhere in the admin API).
 * The numbers are read from the usage_totals rollup in one D1 round trip, never from the raw logs, so a
 * scrape costs one row read per tenant × model × provider whatever the traffic.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { readUsageTotals } from '../../logs/read/usage-totals';
import { EXPOSITION_CONTENT_TYPE, exposition } from '../../logs/prometheus/exposition';
import { usageFamilies } from '../../logs/prometheus/usage-metrics';
import type { Operation } from '../operation';
import { readQuery } from '../validate';

export const MetricsQuery = z.strictObject({
  tenant_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("Only this tenant's series (a tenant_admin: one of its tenants)."),
});

export const metricsOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/metrics',
    access: { level: 'read', tenant: 'list' },
    summary:
      'Usage as Prometheus metrics: requests, tokens, cost, cache, errors, limit denials, latency and TTFT histograms by tenant, model and provider',
    query: MetricsQuery,
    status: 200,
    streams: {
      mediaType: EXPOSITION_CONTENT_TYPE,
      description: 'Prometheus text exposition format 0.0.4 (docs/metrics.md lists every metric).',
    },
  },
];

export function metricsRouter() {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const q = readQuery(c, MetricsQuery);
    const who = c.var.adminPrincipal;
    let tenantIds: readonly string[] | undefined = q.tenant_id === undefined ? undefined : [q.tenant_id];
    if (who.role === 'tenant_admin') {
      if (q.tenant_id !== undefined && !who.tenantIds.includes(q.tenant_id)) {
        throw new GatewayError(
          403,
          `The admin '${who.name}' may not call GET /admin/metrics: tenant '${q.tenant_id}' is outside its scope.`,
          { code: 'forbidden', type: 'permission_error' },
        );
      }
      tenantIds ??= who.tenantIds;
    }
    const totals = await readUsageTotals(c.env.DB, { tenantIds });
    return c.body(exposition(usageFamilies(totals.rows, totals.tenants)), 200, {
      'content-type': EXPOSITION_CONTENT_TYPE,
    });
  });

  return router;
}
