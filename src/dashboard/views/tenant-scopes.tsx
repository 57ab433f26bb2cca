/**
 * A tenant's limits and the scopes below it, on its page: its own rate limits, budgets, downgrade and
 * tag keys; the default every end user is held to (and the way to one end user's page); its model rules
 * and tag rules; its MCP tools (allow-list and tool-call limits, mcp-tools.tsx). Each form saves with PATCH /admin/tenants/{id}, is shown only to an admin who may, and
 * is folded (a <details>) until opened, or open with the refusal it was answered.
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import type { Tenant } from '../schemas';
import { describeMcp, McpToolsFields } from './mcp-tools';
import { ActionForm, Failure, Field } from './parts';
import { describeRule, RuleFields, RuleListSection } from './scope-rules';

/** Which of these forms a refusal belongs to. */
export type ScopeForm = 'limits' | 'end-users' | 'model-rule' | 'tag-rule' | 'mcp';
const SCOPE_FORMS: readonly string[] = [
  'limits',
  'end-users',
  'model-rule',
  'tag-rule',
  'mcp',
] satisfies ScopeForm[];
export const isScopeForm = (form: string | undefined): form is ScopeForm =>
  form !== undefined && SCOPE_FORMS.includes(form);

export function TenantScopesSection(props: {
  session: SignedIn;
  tenant: Tenant;
  editable: boolean;
  /** Each form's values: the stored settings, or what was sent when it was refused. */
  values: Record<ScopeForm, FormValues>;
  failed: ScopeForm | null;
  failure: ApiFailure | null;
}) {
  const { session, tenant, editable } = props;
  const base = `/dashboard/tenants/${encodeURIComponent(tenant.id)}`;
  const failureOf = (form: ScopeForm) => (props.failed === form ? props.failure : null);
  return (
    <>
      <section aria-labelledby="tenant-limits-h">
        <h2 id="tenant-limits-h">Tenant limits and budgets</h2>
        <p class="muted">
          Every request of every key of the tenant counts here; a key's own limits narrow it further.
        </p>
        {editable ? (
          <details open={props.failed === 'limits'}>
            <summary>Edit the tenant's limits and budgets</summary>
            <Failure failure={failureOf('limits')} action="The limits were not saved" />
            <ActionForm action={`${base}/limits`} session={session} class="stack">
              <RuleFields
                idPrefix="tenant-"
                values={props.values.limits}
                failure={failureOf('limits')}
                maxTokens
              />
              <Field
                name="tag_keys"
                label="Tag keys"
                hint="cf-aig-metadata keys usage is rolled up by, comma-separated (tag rules' keys are added)."
                values={props.values.limits}
                failure={failureOf('limits')}
                idPrefix="tenant-"
              />
              <div>
                <button type="submit">Save tenant limits</button>
              </div>
            </ActionForm>
          </details>
        ) : null}
      </section>
      <section aria-labelledby="end-users-h">
        <h2 id="end-users-h">End users</h2>
        <p>
          Default for each end user: <strong>{describeRule(tenant.end_users)}</strong>.{' '}
          <a href={`${base}/end-users`}>Look up an end user</a> to see their usage or set their own limits.
        </p>
        {editable ? (
          <details open={props.failed === 'end-users'}>
            <summary>Edit the end-user default</summary>
            <Failure failure={failureOf('end-users')} action="The end-user default was not saved" />
            <ActionForm action={`${base}/end-user-default`} session={session} class="stack">
              <label class="check">
                <input
                  type="checkbox"
                  name="end_users.on"
                  checked={props.values['end-users']['end_users.on'] === 'on'}
                />
                Meter end users (named by <code>x-edgeway-user</code>, <code>user</code>, …); the fields below
                are each one's default
              </label>
              <RuleFields
                prefix="end_users"
                idPrefix=""
                values={props.values['end-users']}
                failure={failureOf('end-users')}
              />
              <div>
                <button type="submit">Save end-user default</button>
              </div>
            </ActionForm>
          </details>
        ) : null}
      </section>
      <RuleListSection
        session={session}
        id="model-rules"
        heading="Model rules"
        intro="Limits and budgets for the requests whose model (or a target of its route) matches: an exact id, a prefix ending in * (openai/*), or a route's name."
        action={`${base}/model-rules`}
        rules={tenant.model_limits.map((r) => ({ label: r.match, ident: { match: r.match }, rule: r }))}
        editable={editable}
        identFields={[
          { name: 'match', label: 'Model pattern', hint: 'openai/*, anthropic/claude-opus-*, …' },
        ]}
        values={props.values['model-rule']}
        failure={failureOf('model-rule')}
      />
      <RuleListSection
        session={session}
        id="tag-rules"
        heading="Tag rules"
        intro="Limits and budgets for the requests whose cf-aig-metadata has the tag; without a value, each value of it gets its own."
        action={`${base}/tag-rules`}
        rules={tenant.tag_limits.map((r) => ({
          label: `${r.tag}=${r.value ?? '*'}`,
          ident: { tag: r.tag, value: r.value ?? '' },
          rule: r,
        }))}
        editable={editable}
        identFields={[
          { name: 'tag', label: 'Tag (metadata key)', hint: 'team' },
          { name: 'value', label: 'Value', hint: 'search; empty: each value its own' },
        ]}
        values={props.values['tag-rule']}
        failure={failureOf('tag-rule')}
      />
      <section aria-labelledby="mcp-tools-h">
        <h2 id="mcp-tools-h">MCP tools</h2>
        <p>
          Tools this tenant's keys may call through <code>/mcp</code>:{' '}
          <strong>{describeMcp(tenant.mcp, 'tenant')}</strong>. A key's own list narrows it further. The
          servers are on the{' '}
          <a href={`/dashboard/mcp-servers?tenant_id=${encodeURIComponent(tenant.id)}`}>MCP servers</a> page.
        </p>
        {editable ? (
          <details open={props.failed === 'mcp'}>
            <summary>Edit the tenant's MCP tools and tool-call limits</summary>
            <Failure failure={failureOf('mcp')} action="The MCP tools were not saved" />
            <ActionForm action={`${base}/mcp`} session={session} class="stack">
              <McpToolsFields
                scope="tenant"
                values={props.values.mcp}
                failure={failureOf('mcp')}
                idPrefix="tenant-"
              />
              <div>
                <button type="submit">Save MCP tools</button>
              </div>
            </ActionForm>
          </details>
        ) : null}
      </section>
    </>
  );
}
