/**
 * Admin pages (owners only; the admin API refuses everyone else, and its 403
 * is the page): list and create, one admin with edit, disable/enable, token
 * rotation and delete, and the once-only token page, which works like a key's
 * secret page (sealed cookie scoped to /dashboard/admins, opened and deleted
 * in the same response).
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { Admin } from '../../storage/admin-store';
import type { ApiFailure } from '../admin-api';
import type { DashboardEnv } from '../context';
import type { FormValues } from '../forms';
import { SESSION_COOKIE_OPTIONS } from '../guard';
import { Admin as AdminSchema, AdminList, AdminWithToken } from '../schemas';
import { FLASH_COOKIE, openSecret } from '../secret-flash';
import { TokenGonePage, TokenPage } from '../views/admin-token';
import { AdminPage, AdminsPage } from '../views/admins';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { ADMIN_TOKEN_SECRET, noticeOf, readForm, seg, showSecretOnce } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/admins', label: 'Back to admins' };

/** The create/edit form as an AdminCreate/AdminUpdate body; tenant ids only when some were typed. */
function adminBody(values: FormValues): Record<string, unknown> {
  const tenantIds = (values.tenant_ids ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    name: values.name?.trim() ?? '',
    role: values.role ?? '',
    ...(tenantIds.length > 0 || values.role === 'tenant_admin' ? { tenant_ids: tenantIds } : {}),
  };
}

const formOf = (a: Admin): FormValues => ({ name: a.name, role: a.role, tenant_ids: a.tenant_ids.join(' ') });

async function listPage(c: C, failure: ApiFailure | null = null, values: FormValues = {}) {
  const cursor = c.req.query('cursor');
  const res = await c.var.api.get('/admins', AdminList, { limit: 100, cursor });
  if (!res.ok) return failurePage(c, res, c.var.session);
  const body = (
    <AdminsPage
      session={c.var.session}
      admins={res.data.data}
      next={res.data.next_cursor}
      cursor={cursor}
      failure={failure}
      values={values}
      notice={noticeOf(c)}
    />
  );
  return page(
    c,
    { title: 'Admins', session: c.var.session, section: 'admins' },
    body,
    failureStatus(failure),
  );
}

async function adminPage(c: C, id: string, failed?: { failure: ApiFailure; values: FormValues }) {
  const res = await c.var.api.get(`/admins/${seg(id)}`, AdminSchema);
  if (!res.ok) return failurePage(c, res, c.var.session, BACK);
  const body = (
    <AdminPage
      session={c.var.session}
      admin={res.data}
      values={failed?.values ?? formOf(res.data)}
      failure={failed?.failure}
      notice={noticeOf(c)}
    />
  );
  const options = { title: `Admin ${res.data.name}`, session: c.var.session, section: 'admins' as const };
  return page(c, options, body, failureStatus(failed?.failure ?? null));
}

export function adminRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => listPage(c));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const res = await c.var.api.send('POST', '/admins', AdminWithToken, adminBody(values));
    if (!res.ok) return listPage(c, res, values);
    return showSecretOnce(c, res.data.id, res.data.token, now(), ADMIN_TOKEN_SECRET);
  });

  router.get('/:id', (c) => adminPage(c, c.req.param('id')));

  router.post('/:id', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('PATCH', `/admins/${seg(id)}`, AdminSchema, adminBody(values));
    if (!res.ok) return adminPage(c, id, { failure: res, values });
    return c.redirect(`/dashboard/admins/${seg(id)}?notice=admin-updated`, 303);
  });

  router.post('/:id/:action{disable|enable}', async (c) => {
    const id = c.req.param('id');
    const action = c.req.param('action');
    const status = action === 'disable' ? 'disabled' : 'active';
    const res = await c.var.api.send('PATCH', `/admins/${seg(id)}`, AdminSchema, { status });
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return c.redirect(`/dashboard/admins/${seg(id)}?notice=admin-${action}d`, 303);
  });

  router.post('/:id/rotate', async (c) => {
    const id = c.req.param('id');
    const res = await c.var.api.send('POST', `/admins/${seg(id)}/rotate`, AdminWithToken);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return showSecretOnce(c, res.data.id, res.data.token, now(), ADMIN_TOKEN_SECRET);
  });

  router.post('/:id/delete', async (c) => {
    const res = await c.var.api.send('DELETE', `/admins/${seg(c.req.param('id'))}`, AdminSchema);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return c.redirect('/dashboard/admins?notice=admin-deleted', 303);
  });

  router.get('/:id/token', async (c) => {
    const id = c.req.param('id');
    const sealed = getCookie(c, FLASH_COOKIE);
    const cookiePath = ADMIN_TOKEN_SECRET.cookiePath;
    if (sealed !== undefined) deleteCookie(c, FLASH_COOKIE, { ...SESSION_COOKIE_OPTIONS, path: cookiePath });
    const admin = await c.var.api.get(`/admins/${seg(id)}`, AdminSchema);
    if (!admin.ok) return failurePage(c, admin, c.var.session, BACK);
    const token = await openSecret(c.env.ADMIN_TOKEN ?? '', c.var.session.id, id, sealed, now());
    const options = { title: 'New admin token', session: c.var.session, section: 'admins' as const };
    return token === null
      ? page(c, options, <TokenGonePage admin={admin.data} />, 410)
      : page(c, { ...options, copyScript: true }, <TokenPage admin={admin.data} token={token} />);
  });

  return router;
}
