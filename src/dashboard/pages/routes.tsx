/**
 * Route pages: the list with the create form, one route with its edit form,
 * and delete. The spec travels as the JSON the admin typed: text that is not
 * JSON is refused here, in words; everything else is the admin API's to judge
 * (its refusal names the field, e.g. `spec.targets.1.model`).
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { ApiFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import type { FormValues } from '../forms';
import { Route, RouteList, Tenant, TenantList } from '../schemas';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { RoutePage, RoutesPage } from '../views/routes';
import { readForm, seg } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/routes', label: 'Back to routes' };

/** Success messages travel as a fixed key in the redirect (`?notice=`), never as free text. */
const NOTICES: Record<string, string> = {
  'route-created': 'Route created: clients may call it by name from now on.',
  'route-updated': 'Route saved; the change applies from the next request.',
  'route-deleted': 'Route deleted.',
};
const noticeOf = (c: C) => NOTICES[c.req.query('notice') ?? ''] ?? null;

/** The spec field as JSON, or the refusal to show next to it. */
function specOf(values: FormValues): { ok: true; spec: unknown } | ApiFailure {
  try {
    return { ok: true, spec: JSON.parse(values.spec ?? '') };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, status: 400, message: `The spec is not valid JSON (${reason}).`, param: 'spec' };
  }
}

async function listPage(c: C, failure: ApiFailure | null = null, values: FormValues = {}) {
  const cursor = c.req.query('cursor');
  const [routes, tenants] = await Promise.all([
    c.var.api.get('/routes', RouteList, { limit: 50, cursor }),
    c.var.api.get('/tenants', TenantList, { limit: 100 }),
  ]);
  if (!routes.ok) return failurePage(c, routes, c.var.session, BACK);
  if (!tenants.ok) return failurePage(c, tenants, c.var.session, BACK);
  const body = (
    <RoutesPage
      session={c.var.session}
      routes={routes.data.data}
      tenants={tenants.data.data}
      moreTenants={tenants.data.has_more}
      next={routes.data.next_cursor}
      cursor={cursor}
      failure={failure}
      values={values}
      notice={noticeOf(c)}
    />
  );
  return page(
    c,
    { title: 'Routes', session: c.var.session, section: 'routes' },
    body,
    failureStatus(failure),
  );
}

async function routePage(
  c: C,
  id: string,
  failed?: { failure: ApiFailure; form: 'edit' | 'delete'; values?: FormValues },
) {
  const route = await c.var.api.get(`/routes/${seg(id)}`, Route);
  if (!route.ok) return failurePage(c, route, c.var.session, BACK);
  const tenantId = route.data.tenant_id;
  const tenant = tenantId === null ? null : await c.var.api.get(`/tenants/${seg(tenantId)}`, Tenant);
  const stored = { name: route.data.name, spec: JSON.stringify(route.data.spec, null, 2) };
  const body = (
    <RoutePage
      session={c.var.session}
      route={route.data}
      tenantName={tenant?.ok ? tenant.data.name : null}
      values={{ ...stored, ...failed?.values }}
      failure={failed?.failure}
      failed={failed?.form}
      notice={noticeOf(c)}
    />
  );
  const title = `Route ${route.data.name}`;
  return page(
    c,
    { title, session: c.var.session, section: 'routes' },
    body,
    failureStatus(failed?.failure ?? null),
  );
}

export function routeRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => listPage(c));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const spec = specOf(values);
    if (!spec.ok) return listPage(c, spec, values);
    const body = { name: values.name?.trim() ?? '', tenant_id: values.tenant_id || null, spec: spec.spec };
    const res = await c.var.api.send('POST', '/routes', Route, body);
    if (!res.ok) return listPage(c, res, values);
    return c.redirect(`/dashboard/routes/${seg(res.data.id)}?notice=route-created`, 303);
  });

  router.get('/:id', (c) => routePage(c, c.req.param('id')));

  router.post('/:id', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const spec = specOf(values);
    if (!spec.ok) return routePage(c, id, { failure: spec, form: 'edit', values });
    const body = { name: values.name?.trim() ?? '', spec: spec.spec };
    const res = await c.var.api.send('PATCH', `/routes/${seg(id)}`, Route, body);
    if (!res.ok) return routePage(c, id, { failure: res, form: 'edit', values });
    return c.redirect(`/dashboard/routes/${seg(id)}?notice=route-updated`, 303);
  });

  router.post('/:id/delete', async (c) => {
    const id = c.req.param('id');
    const res = await c.var.api.send('DELETE', `/routes/${seg(id)}`, z.null());
    if (!res.ok) {
      if (res.status === 404) return failurePage(c, res, c.var.session, BACK);
      return routePage(c, id, { failure: res, form: 'delete' });
    }
    return c.redirect('/dashboard/routes?notice=route-deleted', 303);
  });

  return router;
}
