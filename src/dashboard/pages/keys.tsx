/**
 * Key pages: view with budget, edit (PATCH: every edited field replaced
 * whole), its guardrail policy (shown beside its tenant's, saved whole), its
 * budget-alert thresholds, its response-cache settings (exact cache on/off and TTL, semantic cache),
 * rotate (new secret shown once), revoke behind a confirmation page,
 * and the once-only secret page, which opens and deletes the sealed cookie in
 * the same response so a reload shows nothing.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import { keyBody, keyFormValues, rotateBody, type FormValues } from '../forms';
import { cacheBody, cacheFields, cacheFormValues } from '../cache-form';
import { mcpBody, mcpFormValues } from '../mcp-form';
import { downgradeBody, editModelRules, ruleFailure, ruleFormValues } from '../scope-form';
import { guardrailFields, guardrailFormValues, guardrailsBody } from '../guardrail-form';
import { SESSION_COOKIE_OPTIONS } from '../guard';
import { ApiKey, KeyWithSecret, LimitsReport, Tenant } from '../schemas';
import { FLASH_COOKIE, FLASH_PATH, openSecret } from '../secret-flash';
import { alertFields, alertFormValues, alertNotice, alertSettingsBody } from '../views/alert-settings';
import { page } from '../views/layout';
import { failurePage, failureStatus, messagePage } from '../views/message';
import { KeyPage, RevokePage, SecretGonePage, SecretPage } from '../views/keys';
import { noticeOf, readForm, seg, showSecretOnce } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/tenants', label: 'Back to tenants' };

async function keyPage(
  c: C,
  id: string,
  failed?: {
    failure: ApiFailure;
    form: 'edit' | 'rotate' | 'guardrails' | 'alerts' | 'model-rule' | 'cache';
    values: FormValues;
  },
) {
  const [key, report] = await Promise.all([
    c.var.api.get(`/keys/${seg(id)}`, ApiKey),
    c.var.api.get(`/limits/keys/${seg(id)}`, LimitsReport),
  ]);
  if (!key.ok) return failurePage(c, key, c.var.session, BACK);
  const tenant = await c.var.api.get(`/tenants/${seg(key.data.tenant_id)}`, Tenant);
  // The guardrails form shows exactly what was sent when it was refused (an unticked box stays unticked).
  const guardrails =
    failed?.form === 'guardrails' ? failed.values : guardrailFormValues(key.data.guardrails, 'key');
  const ownForm = failed && failed.form !== 'guardrails' && failed.form !== 'model-rule';
  const edited = ownForm ? failed.values : {};
  const stored = {
    ...keyFormValues(key.data),
    ...ruleFormValues({ limits: {}, budgets: {}, downgrade: key.data.downgrade }),
    ...alertFormValues(key.data),
    ...mcpFormValues(key.data.mcp),
    ...cacheFormValues(key.data.cache),
  };
  // A refused cache form shows what was sent (an unticked box stays unticked), not the stored flags.
  const kept =
    failed?.form === 'cache'
      ? Object.fromEntries(Object.entries(stored).filter(([k]) => !k.startsWith('cache.')))
      : stored;
  const values = { ...kept, ...edited, ...guardrails };
  const body = (
    <KeyPage
      session={c.var.session}
      apiKey={key.data}
      report={report.ok ? report.data : null}
      tenantGuardrails={tenant.ok ? tenant.data.guardrails : null}
      tenantOnUnsupported={tenant.ok ? tenant.data.on_unsupported : null}
      values={values}
      ruleValues={failed?.form === 'model-rule' ? failed.values : {}}
      failure={failed?.failure}
      failed={failed?.form}
      notice={noticeOf(c) ?? alertNotice(c.req.query('notice'))}
    />
  );
  return page(
    c,
    { title: `Key ${key.data.name || key.data.id}`, session: c.var.session, section: 'tenants' },
    body,
    failureStatus(failed?.failure ?? null),
  );
}

export function keyRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/:id', (c) => keyPage(c, c.req.param('id')));

  router.post('/:id', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const body = { ...keyBody(values), downgrade: downgradeBody(values), mcp: mcpBody(values, 'key') };
    const res = await c.var.api.send('PATCH', `/keys/${seg(id)}`, ApiKey, body);
    if (!res.ok) return keyPage(c, id, { failure: res, form: 'edit', values });
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=key-updated`, 303);
  });

  router.post('/:id/guardrails', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    // The form does not edit the key's own deny-list additions (CLI and API do): they are kept as stored.
    const stored = await c.var.api.get(`/keys/${seg(id)}`, ApiKey);
    if (!stored.ok) return failurePage(c, stored, c.var.session, BACK);
    const body = { guardrails: guardrailsBody(values, 'key', stored.data.guardrails) };
    const res = await c.var.api.send('PATCH', `/keys/${seg(id)}`, ApiKey, body);
    if (!res.ok) return keyPage(c, id, { failure: res, form: 'guardrails', values: guardrailFields(values) });
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=guardrails-saved`, 303);
  });

  router.post('/:id/model-rules', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const stored = await c.var.api.get(`/keys/${seg(id)}`, ApiKey);
    if (!stored.ok) return failurePage(c, stored, c.var.session, BACK);
    const body = { model_limits: editModelRules(stored.data.model_limits, values) };
    const res = await c.var.api.send('PATCH', `/keys/${seg(id)}`, ApiKey, body);
    if (!res.ok)
      return keyPage(c, id, { failure: ruleFailure(res, 'model_limits'), form: 'model-rule', values });
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=rules-saved`, 303);
  });

  router.post('/:id/alerts', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('PATCH', `/keys/${seg(id)}`, ApiKey, alertSettingsBody(values, 'key'));
    if (!res.ok) return keyPage(c, id, { failure: res, form: 'alerts', values: alertFields(values) });
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=alerts-saved`, 303);
  });

  router.post('/:id/cache', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('PATCH', `/keys/${seg(id)}`, ApiKey, cacheBody(values));
    if (!res.ok) return keyPage(c, id, { failure: res, form: 'cache', values: cacheFields(values) });
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=cache-saved`, 303);
  });

  router.post('/:id/rotate', async (c) => {
    const id = c.req.param('id');
    const values = await readForm(c);
    const res = await c.var.api.send('POST', `/keys/${seg(id)}/rotate`, KeyWithSecret, rotateBody(values));
    if (!res.ok)
      return keyPage(c, id, {
        failure: res,
        form: 'rotate',
        values: { grace_seconds: values.grace_seconds ?? '' },
      });
    return showSecretOnce(c, res.data.id, res.data.key, now());
  });

  router.get('/:id/revoke', async (c) => {
    const key = await c.var.api.get(`/keys/${seg(c.req.param('id'))}`, ApiKey);
    if (!key.ok) return failurePage(c, key, c.var.session, BACK);
    if (!can(c.var.session.who, 'DELETE /admin/keys/{id}', key.data.tenant_id))
      return messagePage(c, 403, 'Not allowed', 'Your role may not revoke keys.', c.var.session, BACK);
    return page(
      c,
      { title: 'Revoke key', session: c.var.session, section: 'tenants' },
      <RevokePage session={c.var.session} apiKey={key.data} />,
    );
  });

  router.post('/:id/revoke', async (c) => {
    const id = c.req.param('id');
    const res = await c.var.api.send('DELETE', `/keys/${seg(id)}`, ApiKey);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return c.redirect(`/dashboard/keys/${seg(id)}?notice=key-revoked`, 303);
  });

  router.get('/:id/secret', async (c) => {
    const id = c.req.param('id');
    const sealed = getCookie(c, FLASH_COOKIE);
    if (sealed !== undefined) deleteCookie(c, FLASH_COOKIE, { ...SESSION_COOKIE_OPTIONS, path: FLASH_PATH });
    const key = await c.var.api.get(`/keys/${seg(id)}`, ApiKey);
    if (!key.ok) return failurePage(c, key, c.var.session, BACK);
    const secret = await openSecret(c.env.ADMIN_TOKEN ?? '', c.var.session.id, id, sealed, now());
    const options = {
      title: 'New secret',
      session: c.var.session,
      section: 'tenants' as const,
      copyScript: secret !== null,
    };
    return page(
      c,
      options,
      secret === null ? (
        <SecretGonePage apiKey={key.data} />
      ) : (
        <SecretPage apiKey={key.data} secret={secret} />
      ),
      secret === null ? 410 : 200,
    );
  });

  return router;
}
