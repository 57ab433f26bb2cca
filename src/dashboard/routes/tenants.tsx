/**
 * Tenant pages: list and create, one tenant with its keys and budget,
 * disable/enable, and creating a key (whose secret then goes to the
 * once-only secret page via the sealed cookie, see secret-flash.ts).
 */
import { Hono, type Context } from 'hono';
import type { ApiFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import { keyBody, type FormValues } from '../forms';
import { KeyList, KeyWithSecret, LimitsReport, Tenant, TenantList } from '../schemas';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { TenantPage, TenantsPage } from '../views/tenants';
import { noticeOf, readForm, seg, showSecretOnce } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/tenants', label: 'Back to tenants' };

async function listPage(c: C, failure: ApiFailure | null = null, values: FormValues = {}) {
  const cursor = c.req.query('cursor');
  const res = await c.var.api.get('/tenants', TenantList, { limit: 50, cursor });
  if (!res.ok) return failurePage(c, res, c.var.session, BACK);
  const body = (
    <TenantsPage
      session={c.var.session}
      tenants={res.data.data}
      next={res.data.next_cursor}
      cursor={cursor}
      failure={failure}
      values={values}
      notice={noticeOf(c)}
    />
  );
  return page(
    c,
    { title: 'Tenants', session: c.var.session, section: 'tenants' },
    body,
    failureStatus(failure),
  );
}

async function tenantPage(c: C, id: string, failure: ApiFailure | null = null, values: FormValues = {}) {
  const { api } = c.var;
  const [tenant, keys, report] = await Promise.all([
    api.get(`/tenants/${seg(id)}`, Tenant),
    api.get('/keys', KeyList, { tenant_id: id, limit: 100 }),
    api.get(`/limits/tenants/${seg(id)}`, LimitsReport),
  ]);
  if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
  if (!keys.ok) return failurePage(c, keys, c.var.session, BACK);
  const body = (
    <TenantPage
      session={c.var.session}
      tenant={tenant.data}
      keys={keys.data.data}
      moreKeys={keys.data.has_more}
      report={report.ok ? report.data : null}
      failure={failure}
      values={values}
      notice={noticeOf(c)}
    />
  );
  return page(
    c,
    { title: tenant.data.name, session: c.var.session, section: 'tenants' },
    body,
    failureStatus(failure),
  );
}

export function tenantRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => listPage(c));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const res = await c.var.api.send('POST', '/tenants', Tenant, { name: values.name ?? '' });
    if (!res.ok) return listPage(c, res, values);
    return c.redirect(`/dashboard/tenants/${seg(res.data.id)}?notice=tenant-created`, 303);
  });

  router.get('/:id', (c) => tenantPage(c, c.req.param('id')));

  router.post('/:id/:action{disable|enable}', async (c) => {
    const id = c.req.param('id');
    const action = c.req.param('action');
    const values = await readForm(c);
    const res = await c.var.api.send('POST', `/tenants/${seg(id)}/${action}`, Tenant);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    const back = values.back === 'list' ? '/dashboard/tenants' : `/dashboard/tenants/${seg(id)}`;
    return c.redirect(`${back}?notice=tenant-${action}d`, 303);
  });

  router.post('/:id/keys', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('POST', '/keys', KeyWithSecret, { tenant_id: id, ...keyBody(values) });
    if (!res.ok) return tenantPage(c, id, res, values);
    return showSecretOnce(c, res.data.id, res.data.key, now());
  });

  return router;
}
