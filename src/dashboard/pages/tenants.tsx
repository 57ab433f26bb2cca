/**
 * Tenant pages: list and create, one tenant with its keys and budget,
 * disable/enable, creating a key (whose secret then goes to the once-only
 * secret page via the sealed cookie, see secret-flash.ts), the tenant's
 * own provider keys (set, rotate, delete; the key never comes back to the page),
 * its guardrail policy (saved whole), its budget-alert thresholds and webhook, how long its stored
 * responses are kept,
 * its guardrail policy (saved whole), its budget-alert thresholds and webhook,
 * what translations do with fields they cannot carry (on_unsupported),
 * and its alert signing secret (answered to a POST, never to a link that could be replayed or prefetched).
 * its name (a rename, or a create, to a name another tenant has is made and then warned of on the
 * tenant's page), and disabling it (a confirmation page with a required checkbox first).
 * Its limits and scopes (end-user default, model and tag rules) are saved by tenant-scopes.tsx, which
 * re-renders this page with a refusal. Each active tenant and key shows its scope's status (near limit,
 * refusing, exhausted) in place of "active", from its limits report.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { AlertSecret } from '../../admin/resources/alerts';
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import { keyBody, type FormValues } from '../forms';
import { guardrailFields, guardrailFormValues, guardrailsBody } from '../guardrail-form';
import {
  AlertList,
  KeyList,
  KeyWithSecret,
  LimitsReport,
  ProviderKeyInfo,
  ProviderKeyList,
  Tenant,
  TenantList,
  TenantWritten,
} from '../schemas';
import { AlertsPage } from '../views/alerts';
import {
  AlertSecretPage,
  alertFields,
  alertFormValues,
  alertNotice,
  alertSettingsBody,
} from '../views/alert-settings';
import { page } from '../views/layout';
import { retentionBody, retentionFields, retentionFormValues } from '../views/responses-retention';
import { failurePage, failureStatus } from '../views/message';
import { TenantPage, TenantsPage } from '../views/tenants';
import { DisableConfirmPage, sameNameOf } from '../views/tenant-name';
import { isScopeForm, type ScopeForm } from '../views/tenant-scopes';
import { downgradeBody, ruleFormValues } from '../scope-form';
import { mcpBody, mcpFormValues } from '../mcp-form';
import { noticeOf, readForm, seg, showSecretOnce } from './shared';

type C = Context<DashboardEnv>;
export type TenantForm =
  | 'key'
  | 'provider-key'
  | 'guardrails'
  | 'alerts'
  | 'translation'
  | 'retention'
  | 'name'
  | ScopeForm;
const BACK = { href: '/dashboard/tenants', label: 'Back to tenants' };
const NO_PROVIDER: ApiFailure = {
  ok: false,
  status: 400,
  message: 'Enter a provider id.',
  param: 'provider',
};

async function listPage(c: C, failure: ApiFailure | null = null, values: FormValues = {}) {
  const cursor = c.req.query('cursor');
  const res = await c.var.api.get('/tenants', TenantList, { limit: 50, cursor });
  if (!res.ok) return failurePage(c, res, c.var.session, BACK);
  const reports = await scopeReports(c, 'tenants', res.data.data);
  const body = (
    <TenantsPage
      session={c.var.session}
      tenants={res.data.data}
      reports={reports}
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

/** The limits reports of the active ones among `items`, by id, for their status badges (an unreadable one is left out). */
async function scopeReports(
  c: C,
  kind: 'tenants' | 'keys',
  items: readonly { id: string; status: string }[],
): Promise<Map<string, LimitsReport>> {
  const active = items.filter((i) => i.status === 'active');
  const reports = await Promise.all(
    active.map((i) => c.var.api.get(`/limits/${kind}/${seg(i.id)}`, LimitsReport)),
  );
  return new Map(active.flatMap((i, n) => (reports[n]?.ok ? [[i.id, reports[n].data] as const] : [])));
}

/** The values of the tenant's limits and scope forms, from what it has stored. */
function scopeFormValues(tenant: Tenant): Record<ScopeForm, FormValues> {
  return {
    limits: { ...ruleFormValues(tenant), tag_keys: tenant.tag_keys.join(', ') },
    'end-users': {
      ...ruleFormValues(tenant.end_users, 'end_users'),
      ...(tenant.end_users ? { 'end_users.on': 'on' } : {}),
    },
    'model-rule': {},
    'tag-rule': {},
    mcp: mcpFormValues(tenant.mcp),
  };
}

export async function tenantPage(
  c: C,
  id: string,
  failure: ApiFailure | null = null,
  values: FormValues = {},
  failed: TenantForm = 'key',
) {
  const { api } = c.var;
  // A tenant_admin may not read provider keys: the section is left out rather than the page refused.
  const readsProviderKeys = can(c.var.session.who, 'GET /admin/tenants/{id}/provider-keys', id);
  const [tenant, keys, report, providerKeys] = await Promise.all([
    api.get(`/tenants/${seg(id)}`, Tenant),
    api.get('/keys', KeyList, { tenant_id: id, limit: 100 }),
    api.get(`/limits/tenants/${seg(id)}`, LimitsReport),
    readsProviderKeys ? api.get(`/tenants/${seg(id)}/provider-keys`, ProviderKeyList) : null,
  ]);
  if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
  if (!keys.ok) return failurePage(c, keys, c.var.session, BACK);
  if (providerKeys && !providerKeys.ok) return failurePage(c, providerKeys, c.var.session, BACK);
  const keyReports = await scopeReports(c, 'keys', keys.data.data);
  const scopeValues = scopeFormValues(tenant.data);
  if (isScopeForm(failed)) scopeValues[failed] = values;
  const body = (
    <TenantPage
      session={c.var.session}
      tenant={tenant.data}
      keys={keys.data.data}
      keyReports={keyReports}
      moreKeys={keys.data.has_more}
      scopeValues={scopeValues}
      report={report.ok ? report.data : null}
      providerKeys={providerKeys ? providerKeys.data.data : null}
      guardrails={failed === 'guardrails' ? values : guardrailFormValues(tenant.data.guardrails, 'tenant')}
      alertValues={failed === 'alerts' ? values : alertFormValues(tenant.data)}
      retentionValues={failed === 'retention' ? values : retentionFormValues(tenant.data)}
      translation={failed === 'translation' ? values : { on_unsupported: tenant.data.on_unsupported }}
      nameValues={failed === 'name' ? values : { name: tenant.data.name }}
      sameName={sameNameOf(c.req.query('same_name'))}
      failure={failure}
      values={values}
      failed={failed}
      notice={noticeOf(c) ?? alertNotice(c.req.query('notice'))}
    />
  );
  return page(
    c,
    { title: tenant.data.name, session: c.var.session, section: 'tenants' },
    body,
    failureStatus(failure),
  );
}

/** The query of the redirect after a tenant is created or renamed: its notice, and any duplicate name. */
function written(notice: string, tenant: TenantWritten): string {
  const q = new URLSearchParams({ notice });
  const same = tenant.warnings.find((w) => w.code === 'duplicate_name');
  if (same) q.set('same_name', same.tenant_ids.join(','));
  return q.toString();
}

/** The confirmation step before disabling a tenant; `unticked` when it was sent without the box ticked. */
async function confirmDisable(c: C, id: string, back: 'list' | 'tenant', unticked: boolean) {
  const [tenant, keys] = await Promise.all([
    c.var.api.get(`/tenants/${seg(id)}`, Tenant),
    c.var.api.get('/keys', KeyList, { tenant_id: id, limit: 100 }),
  ]);
  if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
  const active =
    keys.ok && !keys.data.has_more ? keys.data.data.filter((k) => k.status === 'active').length : null;
  const body = (
    <DisableConfirmPage
      session={c.var.session}
      tenant={tenant.data}
      keys={active}
      back={back}
      unticked={unticked}
    />
  );
  const options = {
    title: `Disable ${tenant.data.name}?`,
    session: c.var.session,
    section: 'tenants' as const,
  };
  return page(c, options, body, unticked ? 400 : 200);
}

export function tenantRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => listPage(c));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const res = await c.var.api.send('POST', '/tenants', TenantWritten, { name: values.name ?? '' });
    if (!res.ok) return listPage(c, res, values);
    return c.redirect(`/dashboard/tenants/${seg(res.data.id)}?${written('tenant-created', res.data)}`, 303);
  });

  router.post('/:id/name', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const kept = { name: values.name ?? '' };
    const res = await c.var.api.send('PATCH', `/tenants/${seg(id)}`, TenantWritten, kept);
    if (!res.ok) return tenantPage(c, id, res, kept, 'name');
    return c.redirect(`/dashboard/tenants/${seg(id)}?${written('tenant-renamed', res.data)}`, 303);
  });

  router.get('/:id', (c) => tenantPage(c, c.req.param('id')));

  router.get('/:id/alerts', async (c) => {
    const id = c.req.param('id');
    const [tenant, alerts] = await Promise.all([
      c.var.api.get(`/tenants/${seg(id)}`, Tenant),
      c.var.api.get(`/tenants/${seg(id)}/alerts`, AlertList, { limit: 200 }),
    ]);
    if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
    if (!alerts.ok) return failurePage(c, alerts, c.var.session, BACK);
    const body = <AlertsPage tenant={tenant.data} alerts={alerts.data.data} />;
    return page(
      c,
      { title: `${tenant.data.name}: budget alerts`, session: c.var.session, section: 'tenants' },
      body,
    );
  });

  router.post('/:id/:action{disable|enable}', async (c) => {
    const id = c.req.param('id');
    const action = c.req.param('action');
    const values = await readForm(c);
    const mayDisable = can(c.var.session.who, 'POST /admin/tenants/{id}/disable', id);
    // Disabling asks first: without the ticked box the answer is the confirmation page, nothing changed.
    if (action === 'disable' && values.confirm !== 'yes' && mayDisable)
      return confirmDisable(c, id, values.back === 'list' ? 'list' : 'tenant', values.step === 'confirm');
    const res = await c.var.api.send('POST', `/tenants/${seg(id)}/${action}`, Tenant);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    const back = values.back === 'list' ? '/dashboard/tenants' : `/dashboard/tenants/${seg(id)}`;
    return c.redirect(`${back}?notice=tenant-${action}d`, 303);
  });

  router.post('/:id/keys', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const body = {
      tenant_id: id,
      ...keyBody(values),
      downgrade: downgradeBody(values),
      mcp: mcpBody(values, 'key'),
    };
    const res = await c.var.api.send('POST', '/keys', KeyWithSecret, body);
    if (!res.ok) return tenantPage(c, id, res, values);
    return showSecretOnce(c, res.data.id, res.data.key, now());
  });

  router.post('/:id/provider-keys', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const provider = values.provider?.trim() ?? '';
    // Only the provider goes back into the form after a refusal, never the key.
    const kept = { provider };
    if (!provider) return tenantPage(c, id, NO_PROVIDER, kept, 'provider-key');
    const path = `/tenants/${seg(id)}/provider-keys/${seg(provider)}`;
    const res = await c.var.api.send('PUT', path, ProviderKeyInfo, { key: values.key ?? '' });
    if (!res.ok) return tenantPage(c, id, res, kept, 'provider-key');
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=provider-key-saved`, 303);
  });

  router.post('/:id/guardrails', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const body = { guardrails: guardrailsBody(values, 'tenant') };
    const res = await c.var.api.send('PATCH', `/tenants/${seg(id)}`, Tenant, body);
    if (!res.ok) return tenantPage(c, id, res, guardrailFields(values), 'guardrails');
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=guardrails-saved`, 303);
  });

  router.post('/:id/translation', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const kept = { on_unsupported: values.on_unsupported ?? '' };
    const res = await c.var.api.send('PATCH', `/tenants/${seg(id)}`, Tenant, kept);
    if (!res.ok) return tenantPage(c, id, res, kept, 'translation');
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=translation-saved`, 303);
  });

  router.post('/:id/alert-settings', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send(
      'PATCH',
      `/tenants/${seg(id)}`,
      Tenant,
      alertSettingsBody(values, 'tenant'),
    );
    if (!res.ok) return tenantPage(c, id, res, alertFields(values), 'alerts');
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=alerts-saved`, 303);
  });

  router.post('/:id/responses-retention', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('PATCH', `/tenants/${seg(id)}`, Tenant, retentionBody(values));
    if (!res.ok) return tenantPage(c, id, res, retentionFields(values), 'retention');
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=retention-saved`, 303);
  });

  router.post('/:id/alert-secret', async (c) => {
    const id = c.req.param('id');
    const [tenant, secret] = await Promise.all([
      c.var.api.get(`/tenants/${seg(id)}`, Tenant),
      c.var.api.get(`/tenants/${seg(id)}/alert-secret`, AlertSecret),
    ]);
    if (!tenant.ok) return failurePage(c, tenant, c.var.session, BACK);
    if (!secret.ok)
      return failurePage(c, secret, c.var.session, { href: `/dashboard/tenants/${seg(id)}`, label: 'Back' });
    const options = { title: 'Alert signing secret', session: c.var.session, section: 'tenants' as const };
    const body = <AlertSecretPage tenant={tenant.data} secret={secret.data.secret} />;
    return page(c, { ...options, copyScript: true }, body);
  });

  router.post('/:id/provider-keys/:provider/delete', async (c) => {
    const id = c.req.param('id');
    const path = `/tenants/${seg(id)}/provider-keys/${seg(c.req.param('provider'))}`;
    const res = await c.var.api.send('DELETE', path, z.null());
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return c.redirect(`/dashboard/tenants/${seg(id)}?notice=provider-key-deleted`, 303);
  });

  return router;
}
