/**
 * Route pages: the list (with each route's health, breakers only) and the
 * create form, one route with its health and its edit form, and delete. Both
 * forms have two editors: fields (converted by src/dashboard/route-form.ts)
 * and the spec as JSON, used when the admin changed it; text that is not
 * JSON is refused here, in words. Everything else is the admin API's to judge; its refusal names the
 * field (e.g. `spec.targets.1.model`), shown at the top of the page.
 * The form's "more target rows" button re-renders it with blank rows added,
 * saving nothing.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { RouteHealth } from '../../admin/resources/route-health';
import type { ApiFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import type { FormValues } from '../forms';
import { MORE_ROWS, resubmitted, routeFormValues, specFromForm } from '../route-form';
import { Route, RouteList, Tenant, TenantList } from '../schemas';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { type Editor, RoutePage, RoutesPage } from '../views/routes';
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

/** The JSON editor is the one used when its text was changed from what the page showed; else the fields. */
const editorOf = (values: FormValues): Editor =>
  (values.spec ?? '').trim() !== (values.spec_was ?? '').trim() ? 'json' : 'form';

/** The spec the submission carries: from the fields, or the JSON (refused in words when it is not JSON). */
function specOf(values: FormValues): { ok: true; spec: unknown } | ApiFailure {
  if (editorOf(values) === 'form') return { ok: true, spec: specFromForm(values) };
  try {
    return { ok: true, spec: JSON.parse(values.spec ?? '') };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, status: 400, message: `The spec is not valid JSON (${reason}).`, param: 'spec' };
  }
}

/** What the form shows again after a submission: rows renumbered as sent (JSON: as typed). */
const shownAgain = (values: FormValues, extra = 0) =>
  editorOf(values) === 'form' ? resubmitted(values, extra) : values;

async function listPage(c: C, failure: ApiFailure | null = null, values: FormValues = {}) {
  const cursor = c.req.query('cursor');
  const [routes, tenants] = await Promise.all([
    c.var.api.get('/routes', RouteList, { limit: 50, cursor }),
    c.var.api.get('/tenants', TenantList, { limit: 100 }),
  ]);
  if (!routes.ok) return failurePage(c, routes, c.var.session, BACK);
  if (!tenants.ok) return failurePage(c, tenants, c.var.session, BACK);
  // Breakers only (no log read): one Breaker object call per target of each listed route.
  const reads = await Promise.all(
    routes.data.data.map((r) =>
      c.var.api.get(`/routes/${seg(r.id)}/health`, RouteHealth, { traffic: 'false' }),
    ),
  );
  const health = new Map<string, RouteHealth>();
  for (const read of reads) if (read.ok) health.set(read.data.route.id, read.data);
  const body = (
    <RoutesPage
      session={c.var.session}
      routes={routes.data.data}
      health={health}
      tenants={tenants.data.data}
      moreTenants={tenants.data.has_more}
      next={routes.data.next_cursor}
      cursor={cursor}
      failure={failure}
      editor={Object.keys(values).length ? editorOf(values) : 'form'}
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
  failed?: { failure: ApiFailure | null; form: Editor | 'delete'; values?: FormValues },
) {
  const [route, health] = await Promise.all([
    c.var.api.get(`/routes/${seg(id)}`, Route),
    c.var.api.get(`/routes/${seg(id)}/health`, RouteHealth),
  ]);
  if (!route.ok) return failurePage(c, route, c.var.session, BACK);
  const tenantId = route.data.tenant_id;
  const tenant = tenantId === null ? null : await c.var.api.get(`/tenants/${seg(tenantId)}`, Tenant);
  const json = JSON.stringify(route.data.spec, null, 2);
  const stored = { name: route.data.name, ...routeFormValues(route.data.spec), spec: json, spec_was: json };
  const body = (
    <RoutePage
      session={c.var.session}
      route={route.data}
      tenantName={tenant?.ok ? tenant.data.name : null}
      health={health.ok ? health.data : null}
      healthFailure={health.ok ? null : health}
      values={failed?.values ?? stored}
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
    if (values.more) return listPage(c, null, shownAgain(values, MORE_ROWS));
    const spec = specOf(values);
    if (!spec.ok) return listPage(c, spec, values);
    const body = { name: values.name?.trim() ?? '', tenant_id: values.tenant_id || null, spec: spec.spec };
    const res = await c.var.api.send('POST', '/routes', Route, body);
    if (!res.ok) return listPage(c, res, shownAgain(values));
    return c.redirect(`/dashboard/routes/${seg(res.data.id)}?notice=route-created`, 303);
  });

  router.get('/:id', (c) => routePage(c, c.req.param('id')));

  router.post('/:id', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const editor = editorOf(values);
    if (values.more)
      return routePage(c, id, { failure: null, form: editor, values: shownAgain(values, MORE_ROWS) });
    const spec = specOf(values);
    if (!spec.ok) return routePage(c, id, { failure: spec, form: editor, values });
    const body = { name: values.name?.trim() ?? '', spec: spec.spec };
    const res = await c.var.api.send('PATCH', `/routes/${seg(id)}`, Route, body);
    if (!res.ok) return routePage(c, id, { failure: res, form: editor, values: shownAgain(values) });
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
