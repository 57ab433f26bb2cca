/**
 * The audit page: /admin/audit with the filters as typed and its next_cursor
 * as the pager. A tenant_admin may only read its own tenants' entries, so
 * with no tenant picked it reads its first one; a tenant outside its scope is
 * the admin API's 403, shown in words above the filters.
 */
import { Hono } from 'hono';
import { BREAK_GLASS } from '../../core/admin-principal';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import { AdminList, AuditList, TenantList } from '../schemas';
import { AuditPage, type AuditFilters } from '../views/audit';
import { page } from '../views/layout';
import { failureStatus } from '../views/message';
import { tenantFilter } from './shared';

const FILTERS = ['tenant_id', 'actor_id', 'resource', 'cursor'] as const;

export function auditRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', async (c) => {
    const { api, session } = c.var;
    const { who } = session;
    const q = c.req.query();
    const f: AuditFilters = {};
    for (const k of FILTERS) if (q[k]) f[k] = q[k];
    const scoped = who.role === 'tenant_admin';
    f.tenant_id = tenantFilter(c, f.tenant_id);
    const [tenants, admins, entries] = await Promise.all([
      api.get('/tenants', TenantList, { limit: 100 }),
      can(who, 'GET /admin/admins') ? api.get('/admins', AdminList, { limit: 100 }) : null,
      api.get('/audit', AuditList, { ...f, limit: 50 }),
    ]);
    const actors = admins?.ok ? [{ id: BREAK_GLASS.id, name: BREAK_GLASS.name }, ...admins.data.data] : null;
    const failure = entries.ok ? null : entries;
    const body = (
      <AuditPage
        filters={f}
        tenants={tenants.ok ? tenants.data.data : []}
        allTenants={!scoped}
        admins={actors}
        entries={entries.ok ? entries.data.data : null}
        next={entries.ok ? entries.data.next_cursor : null}
        failure={failure}
      />
    );
    return page(c, { title: 'Audit log', session, section: 'audit' }, body, failureStatus(failure));
  });

  return router;
}
