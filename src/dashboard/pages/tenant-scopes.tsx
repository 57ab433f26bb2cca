/**
 * A tenant's limits and the scopes below it, from its page: its own limits, budgets, downgrade and tag
 * keys; the end-user default; its model and tag rules (one rule added, replaced or removed at a time,
 * the list saved whole); its MCP tools (allow-list and tool-call limits); and its end users' page (look one up, set or remove their override). Every
 * change goes through the admin API as the signed-in admin; a refusal re-renders the form it came from
 * with the API's words and the field it named.
 */
import { Hono, type Context } from 'hono';
import type { DashboardEnv } from '../context';
import { can } from '../can';
import type { FormValues } from '../forms';
import {
  downgradeBody,
  editModelRules,
  editTagRules,
  limitsAndBudgets,
  ruleBody,
  ruleFailure,
  ruleFormValues,
  wordList,
} from '../scope-form';
import { mcpBody, mcpFields } from '../mcp-form';
import { EndUserOverrides, EndUserView, Tenant } from '../schemas';
import type { ApiFailure } from '../admin-api';
import { EndUsersPage } from '../views/end-users';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { noticeOf, readForm, seg } from './shared';
import { tenantPage } from './tenants';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/tenants', label: 'Back to tenants' };
const saved = (id: string, notice: string) => `/dashboard/tenants/${seg(id)}?notice=${notice}`;

async function endUsersPage(
  c: C,
  id: string,
  user: string | null,
  refused?: { failure: ApiFailure; values: FormValues },
) {
  const { api } = c.var;
  const path = (u: string) => `/tenants/${seg(id)}/end-users/${seg(u)}`;
  const [tenant, view, overrides] = await Promise.all([
    api.get(`/tenants/${seg(id)}`, Tenant),
    user ? api.get(path(user), EndUserView) : null,
    api.get(`/tenants/${seg(id)}/end-users/overrides`, EndUserOverrides, { limit: 100 }),
  ]);
  if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
  const failure = refused?.failure ?? (view && !view.ok ? view : null);
  const shown = view?.ok ? view.data : null;
  const body = (
    <EndUsersPage
      session={c.var.session}
      tenant={tenant.data}
      user={user}
      view={shown}
      overrides={overrides.ok ? overrides.data : null}
      editable={can(c.var.session.who, 'PUT /admin/tenants/{id}/end-users/{user}', id)}
      values={refused?.values ?? ruleFormValues(shown?.override ?? null)}
      failure={failure}
      notice={noticeOf(c)}
    />
  );
  const title = `${tenant.data.name}: end users`;
  return page(
    c,
    { title, session: c.var.session, section: 'tenants' },
    body,
    failureStatus(refused?.failure ?? null),
  );
}

export function tenantScopeRoutes() {
  const router = new Hono<DashboardEnv>();
  const patch = (c: C, id: string, body: Record<string, unknown>) =>
    c.var.api.send('PATCH', `/tenants/${seg(id)}`, Tenant, body);

  router.post('/:id/limits', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const body = {
      ...limitsAndBudgets(values, '', true),
      downgrade: downgradeBody(values),
      tag_keys: wordList(values.tag_keys),
    };
    const res = await patch(c, id, body);
    if (!res.ok) return tenantPage(c, id, res, values, 'limits');
    return c.redirect(saved(id, 'limits-saved'), 303);
  });

  router.post('/:id/mcp', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await patch(c, id, { mcp: mcpBody(values, 'tenant') });
    if (!res.ok) return tenantPage(c, id, res, mcpFields(values), 'mcp');
    return c.redirect(saved(id, 'mcp-saved'), 303);
  });

  router.post('/:id/end-user-default', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await patch(c, id, {
      end_users: values['end_users.on'] === 'on' ? ruleBody(values, 'end_users') : null,
    });
    if (!res.ok) return tenantPage(c, id, res, values, 'end-users');
    return c.redirect(saved(id, 'limits-saved'), 303);
  });

  router.post('/:id/model-rules', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const stored = await c.var.api.get(`/tenants/${seg(id)}`, Tenant);
    if (!stored.ok) return failurePage(c, stored, c.var.session, BACK);
    const res = await patch(c, id, { model_limits: editModelRules(stored.data.model_limits, values) });
    if (!res.ok) return tenantPage(c, id, ruleFailure(res, 'model_limits'), values, 'model-rule');
    return c.redirect(saved(id, 'rules-saved'), 303);
  });

  router.post('/:id/tag-rules', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const stored = await c.var.api.get(`/tenants/${seg(id)}`, Tenant);
    if (!stored.ok) return failurePage(c, stored, c.var.session, BACK);
    const res = await patch(c, id, { tag_limits: editTagRules(stored.data.tag_limits, values) });
    if (!res.ok) return tenantPage(c, id, ruleFailure(res, 'tag_limits'), values, 'tag-rule');
    return c.redirect(saved(id, 'rules-saved'), 303);
  });

  router.get('/:id/end-users', (c) =>
    endUsersPage(c, c.req.param('id'), c.req.query('user')?.trim() || null),
  );

  router.post('/:id/end-users/:op{save|remove}', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const user = values.user ?? '';
    const path = `/tenants/${seg(id)}/end-users/${seg(user)}`;
    const res =
      c.req.param('op') === 'save'
        ? await c.var.api.send('PUT', path, EndUserView, ruleBody(values))
        : await c.var.api.send('DELETE', path, EndUserView);
    if (!res.ok) return endUsersPage(c, id, user, { failure: res, values });
    const notice = c.req.param('op') === 'save' ? 'override-saved' : 'override-removed';
    return c.redirect(`/dashboard/tenants/${seg(id)}/end-users?user=${seg(user)}&notice=${notice}`, 303);
  });

  return router;
}
