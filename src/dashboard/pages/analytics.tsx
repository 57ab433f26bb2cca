/**
 * The Analytics page: /admin/analytics for a range preset, a grouping and a tenant (a tenant_admin's
 * own tenants only, as the API narrows them), and /export.csv, the admin API's CSV of one table handed
 * through as it is.
 */
import { type Context, Hono } from 'hono';
import { firstFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import { AnalyticsReport, TenantList } from '../schemas';
import {
  type AnalyticsFilters,
  AnalyticsPage,
  GROUPS,
  type GroupValue,
  RANGES,
  type RangeValue,
} from '../views/analytics';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';

/** The filters a URL asks for; anything unknown falls back to the defaults. */
function filtersOf(c: Context<DashboardEnv>): AnalyticsFilters {
  const q = c.req.query();
  const range = RANGES.find((r) => r.value === q.range)?.value ?? ('24h' satisfies RangeValue);
  const group_by = GROUPS.find((g) => g.value === q.group_by)?.value ?? ('model' satisfies GroupValue);
  return { range, group_by, tenant_id: q.tenant_id || undefined };
}

export function analyticsRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', async (c) => {
    const { api } = c.var;
    const filters = filtersOf(c);
    const [tenants, report] = await Promise.all([
      api.get('/tenants', TenantList, { limit: 100 }),
      api.get('/analytics', AnalyticsReport, { ...filters }),
    ]);
    const failure = firstFailure(report, tenants);
    const body = (
      <AnalyticsPage
        filters={filters}
        tenants={tenants.ok ? tenants.data.data : []}
        report={report.ok ? report.data : null}
        failure={failure}
      />
    );
    return page(
      c,
      { title: 'Analytics', session: c.var.session, section: 'analytics' },
      body,
      failureStatus(failure),
    );
  });

  router.get('/export.csv', async (c) => {
    const table = c.req.query('table') || 'series';
    const res = await c.var.api.stream('/analytics/export.csv', { ...filtersOf(c), table }, 'text/csv');
    if (!res.ok)
      return failurePage(c, res, c.var.session, { href: '/dashboard/analytics', label: 'Back to analytics' });
    const headers = new Headers({ 'cache-control': 'no-store' });
    for (const name of ['content-type', 'content-disposition']) {
      const value = res.data.headers.get(name);
      if (value) headers.set(name, value);
    }
    return new Response(res.data.body, { status: 200, headers });
  });

  return router;
}
