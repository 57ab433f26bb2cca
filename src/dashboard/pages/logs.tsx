/**
 * The logs pages: /admin/logs with the filters as typed (times read as UTC) and the
 * delivery reconciliation (/admin/logs/reconcile) above them; /admin/logs/:request_id,
 * found in the recent index or, given its tenant, in the archive (/find takes the id
 * from a form); and /export, the admin API's NDJSON export streamed through as it is
 * read, never buffered (AdminApi.stream hands the response over unread).
 */
import { type Context, Hono } from 'hono';
import { Reconciliation } from '../../logs/read/reconcile';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import { utcInputToIso } from '../forms';
import { KeyList, LogDetail, LogList, TenantList } from '../schemas';
import { TenantNeededPage } from '../views/log-archive';
import { page } from '../views/layout';
import { LogDetailPage, LogsPage, type LogFilters } from '../views/logs';
import { failurePage, failureStatus, messagePage } from '../views/message';
import { seg, tenantFilter } from './shared';

const FILTERS = [
  'tenant_id',
  'key_id',
  'request_id',
  'model',
  'error_code',
  'meta',
  'route',
  'end_user',
  'endpoint',
  'server',
  'status',
  'cache',
  'from',
  'to',
  'cursor',
] as const;
const FIND = 'GET /admin/logs/{request_id}';
const EXPORT = 'GET /admin/logs/export';
const BACK = { href: '/dashboard/logs', label: 'Back to logs' };

type Ctx = Context<DashboardEnv>;

/** GET /admin/logs/export as the signed-in admin; its body is handed on as a stream, never read here. */
async function streamExport(c: Ctx, query: Record<string, string | undefined>) {
  const res = await c.var.api.stream('/logs/export', query);
  if (!res.ok) return failurePage(c, res, c.var.session, BACK);
  const headers = new Headers({ 'cache-control': 'no-store' });
  for (const name of ['content-type', 'content-disposition']) {
    const value = res.data.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(res.data.body, { status: 200, headers });
}

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
    const who = c.var.session.who;
    const body = (
      <LogsPage
        filters={f}
        tenants={tenants.ok ? tenants.data.data : []}
        keys={keys?.ok ? keys.data.data : null}
        rows={logs.ok ? logs.data.data : null}
        next={logs.ok ? logs.data.next_cursor : null}
        failure={logs.ok ? null : logs}
        delivery={delivery.ok ? delivery.data : null}
        archive={{
          find: can(who, FIND, f.tenant_id ?? null),
          exports: can(who, EXPORT, f.tenant_id ?? null),
        }}
      />
    );
    return page(
      c,
      { title: 'Logs', session: c.var.session, section: 'logs' },
      body,
      failureStatus(logs.ok ? null : logs),
    );
  });

  router.get('/find', (c) => {
    const id = c.req.query('request_id')?.trim();
    if (!id) return c.redirect('/dashboard/logs', 303);
    const tenant = c.req.query('tenant_id');
    return c.redirect(`/dashboard/logs/${seg(id)}${tenant ? `?tenant_id=${seg(tenant)}` : ''}`, 303);
  });

  router.get('/export', async (c) => {
    const q = c.req.query();
    if (!q.tenant_id)
      return messagePage(
        c,
        400,
        'Pick a tenant',
        'An export is of one tenant: pick it.',
        c.var.session,
        BACK,
      );
    if (!can(c.var.session.who, EXPORT, q.tenant_id))
      return messagePage(
        c,
        403,
        'Refused',
        'Your role may not export this tenant’s logs.',
        c.var.session,
        BACK,
      );
    return streamExport(c, {
      tenant_id: q.tenant_id,
      from: utcInputToIso(q.from),
      to: utcInputToIso(q.to),
    });
  });

  router.get('/:request_id', async (c) => {
    const id = c.req.param('request_id');
    const tenant = c.req.query('tenant_id') || undefined;
    const res = await c.var.api.get(`/logs/${seg(id)}`, LogDetail, { tenant_id: tenant });
    if (!res.ok && res.status === 404 && res.param === 'tenant_id') {
      const tenants = await c.var.api.get('/tenants', TenantList, { limit: 100 });
      return page(
        c,
        { title: `Request ${id}`, session: c.var.session, section: 'logs' },
        <TenantNeededPage requestId={id} tenants={tenants.ok ? tenants.data.data : []} />,
        404,
      );
    }
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return page(
      c,
      { title: `Request ${res.data.id}`, session: c.var.session, section: 'logs' },
      <LogDetailPage log={res.data} />,
    );
  });

  return router;
}
