/**
 * One key: facts, budget, edit, guardrails, alert thresholds, rotate and revoke; the revoke confirmation; the once-only
 * secret page.
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import type { GuardrailPolicy } from '../../core/guardrail-policy';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { ApiKey, LimitsReport } from '../schemas';
import type { Session } from '../session';
import { AlertSettingsSection } from './alert-settings';
import { KeyCacheSection } from './key-cache';
import { BudgetGlance, RuleStatusTable } from './budget';
import { GuardrailsSection } from './guardrails';
import {
  describeBudgets,
  describeLimits,
  describeModels,
  describeOrigins,
  KeySettingsFields,
} from './key-settings';
import { describeMcp } from './mcp-tools';
import { ActionForm, Failure, Field, Id, Notice, Time, SecretField } from './parts';
import { describeOnUnsupported } from './unsupported-policy';
import { RuleListSection, ScopeBadge } from './scope-rules';
import type { OnUnsupported } from '../../core/unsupported-policy';

const keyPath = (k: ApiKey) => `/dashboard/keys/${encodeURIComponent(k.id)}`;

export function KeyPage(props: {
  session: SignedIn;
  apiKey: ApiKey;
  report: LimitsReport | null;
  /** The tenant's policy, shown read-only beside the key's (null when it could not be read). */
  tenantGuardrails: GuardrailPolicy | null;
  /** The tenant's on_unsupported, which the key narrows (null when it could not be read). */
  tenantOnUnsupported: OnUnsupported | null;
  values: FormValues;
  /** The model-rule form's values after a refusal (its fields share names with the edit form's). */
  ruleValues?: FormValues;
  failure?: ApiFailure | null;
  failed?: 'edit' | 'rotate' | 'guardrails' | 'alerts' | 'model-rule' | 'cache';
  notice?: string | null;
}) {
  const { apiKey: k, session } = props;
  const active = k.status === 'active';
  // Edit, guardrails, rotate and revoke are the same permission (write on the key's tenant) today; each asks anyway.
  const may = (op: string) => can(session.who, op, k.tenant_id);
  const mayEdit = may('PATCH /admin/keys/{id}');
  const q = `key_id=${encodeURIComponent(k.id)}&tenant_id=${encodeURIComponent(k.tenant_id)}`;
  return (
    <>
      <p>
        <a href={`/dashboard/tenants/${encodeURIComponent(k.tenant_id)}`}>« Tenant</a>
      </p>
      <h1>
        Key <Id value={k.name || k.id} max={40} text={!!k.name} />
      </h1>
      <Notice text={props.notice} />
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <Id value={k.id} max={40} />
        </dd>
        <dt>Hint</dt>
        <dd>
          <code>{k.hint}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <ScopeBadge status={k.status} report={props.report} />
          {k.revoked_at ? (
            <>
              {' '}
              since <Time ms={k.revoked_at} />
            </>
          ) : null}
        </dd>
        <dt>Models</dt>
        <dd>
          <Id value={describeModels(k.models)} max={40} />
        </dd>
        <dt>Browser origins</dt>
        <dd>{describeOrigins(k.origins)}</dd>
        <dt>Limits</dt>
        <dd>{describeLimits(k.limits)}</dd>
        <dt>Budgets</dt>
        <dd>{describeBudgets(k.budgets)}</dd>
        <dt>MCP tools</dt>
        <dd>{describeMcp(k.mcp, 'key')}</dd>
        <dt>Translation</dt>
        <dd>
          {describeOnUnsupported(props.tenantOnUnsupported === 'refuse' ? 'refuse' : k.on_unsupported)}
          {props.tenantOnUnsupported === 'refuse' && k.on_unsupported === 'drop'
            ? ' (the tenant refuses)'
            : null}
        </dd>
        <dt>Expires</dt>
        <dd>
          <Time ms={k.expires_at} />
        </dd>
        <dt>Created</dt>
        <dd>
          <Time ms={k.created_at} />
        </dd>
        <dt>Last used</dt>
        <dd>
          <Time ms={k.last_used_at} />
        </dd>
        {k.grace_expires_at ? (
          <>
            <dt>Old secret valid until</dt>
            <dd>
              <Time ms={k.grace_expires_at} />
            </dd>
          </>
        ) : null}
      </dl>
      <p class="actions">
        <a href={`/dashboard/usage?${q}`}>Usage</a> <a href={`/dashboard/logs?${q}`}>Logs</a>
      </p>
      {props.report ? <BudgetGlance report={props.report} heading="Key budget at a glance" /> : null}
      {props.report ? <RuleStatusTable report={props.report} /> : null}
      {active ? (
        <>
          {mayEdit ? (
            <section aria-labelledby="edit-h">
              <h2 id="edit-h">Edit</h2>
              {props.failed === 'edit' ? (
                <Failure failure={props.failure} action="The key was not changed" />
              ) : null}
              <ActionForm action={keyPath(k)} session={session} class="stack">
                <KeySettingsFields
                  values={props.values}
                  failure={props.failed === 'edit' ? props.failure : null}
                  tenantOnUnsupported={props.tenantOnUnsupported}
                />
                <div>
                  <button type="submit">Save changes</button>
                </div>
              </ActionForm>
            </section>
          ) : null}
          <RuleListSection
            session={session}
            id="model-rules"
            heading="Model rules"
            intro="Limits and budgets for this key's requests whose model (or a target of its route) matches: an exact id, a prefix ending in * (openai/*), or a route's name. The tenant's model rules apply too."
            action={`${keyPath(k)}/model-rules`}
            rules={k.model_limits.map((r) => ({ label: r.match, ident: { match: r.match }, rule: r }))}
            editable={mayEdit}
            identFields={[
              { name: 'match', label: 'Model pattern', hint: 'openai/*, anthropic/claude-opus-*, …' },
            ]}
            values={props.ruleValues ?? {}}
            failure={props.failed === 'model-rule' ? (props.failure ?? null) : null}
          />
          <GuardrailsSection
            session={session}
            editable={mayEdit}
            action={`${keyPath(k)}/guardrails`}
            scope="key"
            values={props.values}
            failure={props.failed === 'guardrails' ? props.failure : null}
            narrows={props.tenantGuardrails ? { tenant: props.tenantGuardrails, apiKey: k.guardrails } : null}
          />
          <KeyCacheSection
            session={session}
            apiKey={k}
            values={props.values}
            failure={props.failed === 'cache' ? (props.failure ?? null) : null}
            editable={mayEdit}
          />
          <AlertSettingsSection
            session={session}
            scope="key"
            action={`${keyPath(k)}/alerts`}
            stored={k}
            values={props.values}
            failure={props.failed === 'alerts' ? props.failure : null}
            editable={mayEdit}
          />
          {may('POST /admin/keys/{id}/rotate') ? <RotateSection {...props} /> : null}
          {may('DELETE /admin/keys/{id}') ? <RevokeSection apiKey={k} /> : null}
        </>
      ) : (
        <p class="alert warn">This key is revoked: it is refused and can no longer be edited or rotated.</p>
      )}
    </>
  );
}

function RotateSection(props: {
  session: SignedIn;
  apiKey: ApiKey;
  values: FormValues;
  /** The model-rule form's values after a refusal (its fields share names with the edit form's). */
  ruleValues?: FormValues;
  failure?: ApiFailure | null;
  failed?: 'edit' | 'rotate' | 'guardrails' | 'alerts' | 'model-rule' | 'cache';
}) {
  const { apiKey: k, session } = props;
  return (
    <section aria-labelledby="rotate-h">
      <h2 id="rotate-h">Rotate the secret</h2>
      {props.failed === 'rotate' ? (
        <Failure failure={props.failure} action="The key was not rotated" />
      ) : null}
      <ActionForm action={`${keyPath(k)}/rotate`} session={session} class="stack">
        <Field
          name="grace_seconds"
          label="Grace period, seconds"
          hint="How long the current secret keeps working (at most a week). Empty: it stops at once."
          type="number"
          values={props.values}
          failure={props.failed === 'rotate' ? props.failure : null}
        />
        <div>
          <button type="submit">Rotate secret</button>
        </div>
      </ActionForm>
    </section>
  );
}

function RevokeSection(props: { apiKey: ApiKey }) {
  const k = props.apiKey;
  return (
    <section aria-labelledby="revoke-h">
      <h2 id="revoke-h">Revoke</h2>
      <p>Revoking refuses every request made with this key, at once. It cannot be undone.</p>
      <p>
        <a class="button danger" href={`${keyPath(k)}/revoke`}>
          Revoke this key…
        </a>
      </p>
    </section>
  );
}

export function RevokePage(props: { session: Session; apiKey: ApiKey }) {
  const k = props.apiKey;
  return (
    <>
      <h1>
        Revoke key <Id value={k.name || k.id} max={40} text={!!k.name} />?
      </h1>
      <p class="alert warn" role="alert">
        Every application using <code>{k.hint}</code> will be refused from the next request on. This cannot be
        undone.
      </p>
      <ActionForm action={`${keyPath(k)}/revoke`} session={props.session} class="actions">
        <button type="submit" class="danger">
          Yes, revoke this key
        </button>
        <a href={keyPath(k)}>Cancel</a>
      </ActionForm>
    </>
  );
}

export function SecretPage(props: { apiKey: ApiKey; secret: string }) {
  const k = props.apiKey;
  return (
    <>
      <h1>
        Secret for key <Id value={k.name || k.id} max={40} text={!!k.name} />
      </h1>
      <div class="alert warn" role="alert">
        <strong>Copy this secret now.</strong> It is shown only this once: Edgeway keeps only a hash of it,
        and this page will not show it again.
      </div>
      <SecretField label="Secret key" value={props.secret} />
      <p>
        Use it as <code>Authorization: Bearer …</code> with any OpenAI-compatible client.
      </p>
      <p>
        <a class="button" href={keyPath(k)}>
          I have stored it
        </a>
      </p>
    </>
  );
}

export function SecretGonePage(props: { apiKey: ApiKey }) {
  return (
    <>
      <h1>Secret no longer shown</h1>
      <p class="alert warn" role="alert">
        A key’s secret is shown once, right after it is created or rotated. If it was not stored, rotate the
        key to get a new one.
      </p>
      <p>
        <a href={keyPath(props.apiKey)}>Back to the key</a>
      </p>
    </>
  );
}
