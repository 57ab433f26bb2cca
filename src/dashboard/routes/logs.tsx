/**
 * The logs pages: /admin/logs with the filters as typed (times read as UTC) and the
 * delivery reconciliation (/admin/logs/reconcile) above them, and /admin/logs/:request_id.
 */
import { Hono } from 'hono';
import type { DashboardEnv } from '../context';
import { utcInputToIso } from '../forms';
import { Reconciliation } from '../../logs/reconcile';
import { KeyList, LogDetail, LogList, TenantList } from '../schemas';
import { page } from '../views/layout';
import { LogDetailPage, LogsPage, type LogFilters } from '../views/logs';
import { failurePage, failureStatus } from '../views/message';
import { seg, tenantFilter } from './shared';

const FILTERS = ['tenant_id', 'key_id', 'model', 'route', 'status', 'cache', 'from', 'to', 'cursor'] as const;

export function logRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', async (c) => {
    const { api } = c.var;
    const q = c.req.query();
    const f: LogFilters = {};
    for (const k of FILTERS) if (q[k]) f[k] = q[k];
    f.tenant_id = tenantFilter(c, f.tenant_id);
    const [tenants, keys, logs, delivery] = await Promise.all([
      api.get('/tenants', TenantList, { limit: 100 }),
      f.tenant_id ? api.get('/keys', KeyList, { tenant_id: f.tenant_id, limit: 100 }) : null,
      api.get('/logs', LogList, { ...f, from: utcInputToIso(f.from), to: utcInputToIso(f.to), limit: 50 }),
      api.get('/logs/reconcile', Reconciliation),
    ]);
    const body = (
      <LogsPage
        filters={f}
        tenants={tenants.ok ? tenants.data.data : []}
        keys={keys?.ok ? keys.data.data : null}
        rows={logs.ok ? logs.data.data : null}
        next={logs.ok ? logs.data.next_cursor : null}
        failure={logs.ok ? null : logs}
        delivery={delivery.ok ? delivery.data : null}
      />
    );
    return page(
      c,
      { title: 'Logs', session: c.var.session, section: 'logs' },
      body,
      failureStatus(logs.ok ? null : logs),
    );
  });

  router.get('/:request_id', async (c) => {
    const res = await c.var.api.get(`/logs/${seg(c.req.param('request_id'))}`, LogDetail);
    if (!res.ok)
      return failurePage(c, res, c.var.session, { href: '/dashboard/logs', label: 'Back to logs' });
    return page(
      c,
      { title: `Request ${res.data.id}`, session: c.var.session, section: 'logs' },
      <LogDetailPage log={res.data} />,
    );
  });

  return router;
}
