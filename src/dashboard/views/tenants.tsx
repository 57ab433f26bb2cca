/**
 * The tenants list (with create, disable, enable) and one tenant's page (its keys, budget, create-key
 * form, provider keys, guardrails, budget-alert settings, stored-response retention). Each form is shown only when
 * the signed-in admin may make the change.
 * form, provider keys, guardrails, what translations do with fields they cannot carry, budget-alert
 * settings), its limits and the scopes below it (tenant-scopes.tsx). Each form is shown only when the
 * signed-in admin may make the change. An active tenant's or key's badge is its scope's status when that is
 * near limit, refusing or exhausted.
 */
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import type { ApiKey, LimitsReport, ProviderKeyInfo, Tenant } from '../schemas';
import { AlertSettingsSection } from './alert-settings';
import { BudgetGlance, RuleStatusTable } from './budget';
import { describeBudgets, describeLimits, describeModels, KeySettingsFields } from './key-settings';
import { GuardrailsSection } from './guardrails';
import { ActionForm, Failure, Field, Id, Notice, Pager, Time } from './parts';
import { ProviderKeysSection } from './provider-keys';
import { ResponsesRetentionSection } from './responses-retention';
import { TenantUnsupportedSection } from './unsupported-policy';
import { ScopeBadge } from './scope-rules';
import { isScopeForm, type ScopeForm, TenantScopesSection } from './tenant-scopes';
import { DuplicateNameWarning, RenameSection } from './tenant-name';

export function TenantStatusButton(props: { tenant: Tenant; session: SignedIn; back: 'list' | 'tenant' }) {
  const { tenant } = props;
  const disable = tenant.status === 'active';
  const op = `POST /admin/tenants/{id}/${disable ? 'disable' : 'enable'}`;
  if (!can(props.session.who, op, tenant.id)) return null;
  return (
    <ActionForm
      action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/${disable ? 'disable' : 'enable'}`}
      session={props.session}
      class="inline"
    >
      <input type="hidden" name="back" value={props.back} />
      <button
        type="submit"
        class={disable ? 'danger' : 'secondary'}
        aria-label={`${disable ? 'Disable' : 'Enable'} tenant ${tenant.name}`}
      >
        {disable ? 'Disable' : 'Enable'}
      </button>
    </ActionForm>
  );
}

export function TenantsPage(props: {
  session: SignedIn;
  tenants: Tenant[];
  /** Active tenants' limits reports, by id, for their status badges. */
  reports: ReadonlyMap<string, LimitsReport>;
  next: string | null;
  cursor?: string;
  failure?: ApiFailure | null;
  values?: FormValues;
  notice?: string | null;
}) {
  const { session } = props;
  return (
    <>
      <h1>Tenants</h1>
      <Notice text={props.notice} />
      <Failure failure={props.failure} action="The tenant was not created" />
      {can(session.who, 'POST /admin/tenants') ? (
        <section aria-labelledby="create-h">
          <h2 id="create-h">Create a tenant</h2>
          <ActionForm action="/dashboard/tenants" session={session} class="stack">
            <Field name="name" label="Tenant name" values={props.values} failure={props.failure} />
            <div>
              <button type="submit">Create tenant</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
      <h2>{session.who.role === 'tenant_admin' ? 'Your tenants' : 'All tenants'}</h2>
      {props.tenants.length === 0 ? (
        <p>No tenants yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">ID</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.tenants.map((t) => (
                <tr>
                  <th scope="row">
                    <Id value={t.name} href={`/dashboard/tenants/${encodeURIComponent(t.id)}`} text />
                  </th>
                  <td>
                    <Id value={t.id} />
                  </td>
                  <td>
                    <ScopeBadge status={t.status} report={props.reports.get(t.id) ?? null} />
                  </td>
                  <td>
                    <Time ms={t.created_at} />
                  </td>
                  <td class="actions">
                    <a href={`/dashboard/usage?tenant_id=${encodeURIComponent(t.id)}`}>Usage</a>
                    <a href={`/dashboard/logs?tenant_id=${encodeURIComponent(t.id)}`}>Logs</a>
                    <TenantStatusButton tenant={t} session={session} back="list" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/tenants" query={{ cursor: props.cursor }} next={props.next} label="Tenants" />
    </>
  );
}

export function KeysTable(props: { keys: ApiKey[]; reports: ReadonlyMap<string, LimitsReport> }) {
  if (props.keys.length === 0) return <p>No keys yet.</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Hint</th>
            <th scope="col">Status</th>
            <th scope="col">Models</th>
            <th scope="col">Limits</th>
            <th scope="col">Budgets</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((k) => (
            <tr>
              <th scope="row">
                <Id
                  value={k.name || k.id}
                  href={`/dashboard/keys/${encodeURIComponent(k.id)}`}
                  text={!!k.name}
                />
              </th>
              <td>
                <code>{k.hint}</code>
              </td>
              <td>
                <ScopeBadge status={k.status} report={props.reports.get(k.id) ?? null} />
              </td>
              <td>
                <Id value={describeModels(k.models)} />
              </td>
              <td>{describeLimits(k.limits)}</td>
              <td>{describeBudgets(k.budgets)}</td>
              <td>
                <Time ms={k.expires_at} />
              </td>
              <td>
                <Time ms={k.last_used_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TenantPage(props: {
  session: SignedIn;
  tenant: Tenant;
  keys: ApiKey[];
  /** Active keys' limits reports, by id, for their status badges. */
  keyReports: ReadonlyMap<string, LimitsReport>;
  moreKeys: boolean;
  report: LimitsReport | null;
  /** The limits and scope forms' values: the stored settings, or what was sent when refused. */
  scopeValues: Record<ScopeForm, FormValues>;
  /** Null when the admin may not read them (a tenant_admin). */
  providerKeys: ProviderKeyInfo[] | null;
  /** The guardrails form's values: the stored policy, or what was sent when it was refused. */
  guardrails: FormValues;
  /** The alert settings form's values: the stored ones, or what was sent when they were refused. */
  alertValues: FormValues;
  /** The stored-responses retention form's value: the stored one, or what was sent when it was refused. */
  retentionValues: FormValues;
  failure?: ApiFailure | null;
  values?: FormValues;
  /** Which form the failure and values belong to. */
  failed?:
    | 'key'
    | 'provider-key'
    | 'guardrails'
    | 'alerts'
    | 'translation'
    | 'retention'
    | 'name'
    | ScopeForm;
  /** The translation form's values: the stored setting, or what was sent when it was refused. */
  translation: FormValues;
  /** The rename form's value: the stored name, or what was sent when it was refused. */
  nameValues: FormValues;
  /** Other tenants with this tenant's name, after a create or rename that warned of it. */
  sameName: readonly string[];
  notice?: string | null;
}) {
  const { tenant, session } = props;
  const keyForm =
    props.failed === undefined || props.failed === 'key'
      ? { failure: props.failure, values: props.values }
      : {};
  const providerForm =
    props.failed === 'provider-key' ? { failure: props.failure, values: props.values } : {};
  const q = `tenant_id=${encodeURIComponent(tenant.id)}`;
  const may = (op: string) => can(session.who, op, tenant.id);
  return (
    <>
      <p>
        <a href="/dashboard/tenants">« All tenants</a>
      </p>
      <h1>
        <Id value={tenant.name} max={40} text />
      </h1>
      <Notice text={props.notice} />
      <DuplicateNameWarning name={tenant.name} others={props.sameName} />
      <div class="actions">
        <ScopeBadge status={tenant.status} report={props.report} /> <Id value={tenant.id} />
        <a href={`/dashboard/usage?${q}`}>Usage</a>
        <a href={`/dashboard/logs?${q}`}>Logs</a>
        <a href={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/alerts`}>Budget alerts</a>
        <TenantStatusButton tenant={tenant} session={session} back="tenant" />
      </div>
      {tenant.status === 'disabled' ? (
        <p class="alert warn">This tenant is disabled: every one of its keys is refused.</p>
      ) : null}
      {props.report ? <BudgetGlance report={props.report} heading="Tenant budget at a glance" /> : null}
      {props.report ? <RuleStatusTable report={props.report} /> : null}
      <h2>Keys</h2>
      <KeysTable keys={props.keys} reports={props.keyReports} />
      {props.moreKeys ? <p class="muted">Showing the newest 100 keys.</p> : null}
      {may('POST /admin/keys') ? (
        <section aria-labelledby="new-key-h">
          <h2 id="new-key-h">Create a key</h2>
          <Failure failure={keyForm.failure} action="The key was not created" />
          <ActionForm
            action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/keys`}
            session={session}
            class="stack"
          >
            <KeySettingsFields
              values={keyForm.values ?? {}}
              failure={keyForm.failure}
              tenantOnUnsupported={tenant.on_unsupported}
            />
            <div>
              <button type="submit">Create key</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
      {may('PATCH /admin/tenants/{id}') ? (
        <RenameSection
          session={session}
          tenant={tenant}
          values={props.nameValues}
          failure={props.failed === 'name' ? (props.failure ?? null) : null}
        />
      ) : null}
      <TenantScopesSection
        session={session}
        tenant={tenant}
        editable={may('PATCH /admin/tenants/{id}')}
        values={props.scopeValues}
        failed={isScopeForm(props.failed) ? props.failed : null}
        failure={props.failure ?? null}
      />
      {props.providerKeys ? (
        <ProviderKeysSection
          session={session}
          tenantId={tenant.id}
          keys={props.providerKeys}
          failure={providerForm.failure}
          values={providerForm.values}
        />
      ) : null}
      <GuardrailsSection
        session={session}
        editable={may('PATCH /admin/tenants/{id}')}
        action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/guardrails`}
        scope="tenant"
        values={props.guardrails}
        failure={props.failed === 'guardrails' ? props.failure : null}
      />
      <TenantUnsupportedSection
        session={session}
        action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/translation`}
        stored={tenant.on_unsupported}
        values={props.translation}
        failure={props.failed === 'translation' ? props.failure : null}
        editable={may('PATCH /admin/tenants/{id}')}
      />
      <AlertSettingsSection
        session={session}
        scope="tenant"
        action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/alert-settings`}
        stored={tenant}
        values={props.alertValues}
        failure={props.failed === 'alerts' ? props.failure : null}
        editable={may('PATCH /admin/tenants/{id}')}
        secretAction={
          may('GET /admin/tenants/{id}/alert-secret')
            ? `/dashboard/tenants/${encodeURIComponent(tenant.id)}/alert-secret`
            : null
        }
      />
      <ResponsesRetentionSection
        session={session}
        action={`/dashboard/tenants/${encodeURIComponent(tenant.id)}/responses-retention`}
        stored={tenant}
        values={props.retentionValues}
        failure={props.failed === 'retention' ? props.failure : null}
        editable={may('PATCH /admin/tenants/{id}')}
      />
    </>
  );
}
