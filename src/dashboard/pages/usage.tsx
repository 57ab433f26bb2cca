/**
 * The usage page: /admin/usage by day and by model (with the MCP tool calls the report carries), plus the
 * scope's budget from /admin/limits/…; for a tenant, also its top end users by spend (searched by id
 * prefix) and its spend per tag value.
 */
import { Hono } from 'hono';
import { firstFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import { KeyList, LimitsReport, TenantList, UsageSeries } from '../schemas';
import { page } from '../views/layout';
import { failureStatus } from '../views/message';
import { UsagePage, type UsageFilters } from '../views/usage';
import { seg, tenantFilter } from './shared';

/** Rows in the page's end-user and tag tables (the API gives up to 500). */
const TOP_END_USERS = 20;
const TOP_TAGS = 50;

export function usageRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', async (c) => {
    const { api } = c.var;
    const q = c.req.query();
    const filters: UsageFilters = {
      tenant_id: tenantFilter(c, q.tenant_id),
      key_id: q.key_id || undefined,
      from: q.from || undefined,
      to: q.to || undefined,
      user_search: q.user_search || undefined,
      tag: q.tag || undefined,
    };
    const scope = {
      tenant_id: filters.tenant_id,
      key_id: filters.key_id,
      from: filters.from,
      to: filters.to,
    };
    const tenantScope = { tenant_id: filters.tenant_id, from: filters.from, to: filters.to };
    const [tenants, keys, byDay, byModel, report, endUsers, tags] = await Promise.all([
      api.get('/tenants', TenantList, { limit: 100 }),
      filters.tenant_id ? api.get('/keys', KeyList, { tenant_id: filters.tenant_id, limit: 100 }) : null,
      api.get('/usage', UsageSeries, { ...scope, group_by: 'day' }),
      api.get('/usage', UsageSeries, { ...scope, group_by: 'model' }),
      filters.key_id
        ? api.get(`/limits/keys/${seg(filters.key_id)}`, LimitsReport)
        : filters.tenant_id
          ? api.get(`/limits/tenants/${seg(filters.tenant_id)}`, LimitsReport)
          : null,
      filters.tenant_id
        ? api.get('/usage', UsageSeries, {
            ...tenantScope,
            group_by: 'end_user',
            limit: TOP_END_USERS,
            search: filters.user_search,
          })
        : null,
      filters.tenant_id
        ? api.get('/usage', UsageSeries, {
            ...tenantScope,
            group_by: 'tag',
            tag: filters.tag,
            limit: TOP_TAGS,
          })
        : null,
    ]);
    const failure = firstFailure(byDay, byModel, report, tenants, keys, endUsers, tags);
    const body = (
      <UsagePage
        filters={filters}
        tenants={tenants.ok ? tenants.data.data : []}
        keys={keys?.ok ? keys.data.data : null}
        byDay={byDay.ok ? byDay.data : null}
        byModel={byModel.ok ? byModel.data : null}
        report={report?.ok ? report.data : null}
        endUsers={endUsers?.ok ? endUsers.data : null}
        tags={tags?.ok ? tags.data : null}
        failure={failure}
      />
    );
    return page(
      c,
      { title: 'Usage', session: c.var.session, section: 'usage' },
      body,
      failureStatus(failure),
    );
  });

  return router;
}
