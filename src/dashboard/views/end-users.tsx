/**
 * A tenant's end users: look one up by id, see their override, the tenant's default, the rule in force
 * and their usage with its status; set or remove their override; and the list of every override.
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import type { EndUserOverrides, EndUserView, Tenant } from '../schemas';
import { BudgetGlance } from './budget';
import { ActionForm, Failure, Id, Notice } from './parts';
import { describeRule, RuleFields, ScopeBadge } from './scope-rules';

const userHref = (tenantId: string, user: string) =>
  `/dashboard/tenants/${encodeURIComponent(tenantId)}/end-users?user=${encodeURIComponent(user)}`;

export function EndUsersPage(props: {
  session: SignedIn;
  tenant: Tenant;
  user: string | null;
  view: EndUserView | null;
  overrides: EndUserOverrides | null;
  editable: boolean;
  values: FormValues;
  failure: ApiFailure | null;
  notice: string | null;
}) {
  const { tenant, view, session } = props;
  const base = `/dashboard/tenants/${encodeURIComponent(tenant.id)}/end-users`;
  return (
    <>
      <p>
        «{' '}
        <Id
          value={tenant.id}
          name={tenant.name}
          href={`/dashboard/tenants/${encodeURIComponent(tenant.id)}`}
        />
      </p>
      <h1>
        End users of <Id value={tenant.id} name={tenant.name} max={40} />
      </h1>
      <Notice text={props.notice} />
      <p>
        Default for each end user: <strong>{describeRule(tenant.end_users)}</strong>
        {tenant.end_users === null ? ' (setting an override turns metering on, with no default)' : ''}.
      </p>
      <form method="get" action={base} class="inline">
        <label for="f-user">End user id</label> <input id="f-user" name="user" value={props.user ?? ''} />{' '}
        <button type="submit">Look up</button>
      </form>
      {view ? (
        <section aria-labelledby="user-h">
          <h2 id="user-h">
            <Id value={view.user} max={30} /> <ScopeBadge status="active" report={view.usage} />
          </h2>
          <dl class="facts">
            <dt>Override</dt>
            <dd>{view.override ? describeRule(view.override) : 'none (the default applies)'}</dd>
            <dt>In force</dt>
            <dd>
              {view.metered
                ? describeRule(view.effective)
                : 'not metered: the tenant has no end-user default'}
            </dd>
          </dl>
          <BudgetGlance report={view.usage} heading="This end user's usage" />
          {props.editable ? (
            <>
              <h3>Set this end user's own limits</h3>
              <Failure failure={props.failure} action="The override was not saved" />
              <ActionForm action={`${base}/save`} session={session} class="stack">
                <input type="hidden" name="user" value={view.user} />
                <RuleFields idPrefix="user-" values={props.values} failure={props.failure} />
                <div>
                  <button type="submit">Save override</button>
                </div>
              </ActionForm>
              {view.override ? (
                <ActionForm action={`${base}/remove`} session={session}>
                  <input type="hidden" name="user" value={view.user} />
                  <button type="submit" class="secondary">
                    Remove override
                  </button>
                </ActionForm>
              ) : null}
            </>
          ) : null}
        </section>
      ) : props.failure ? (
        <Failure failure={props.failure} action="The end user could not be read" />
      ) : null}
      {props.overrides ? (
        <section aria-labelledby="overrides-h">
          <h2 id="overrides-h">End users with their own limits</h2>
          {props.overrides.data.length === 0 ? (
            <p>None.</p>
          ) : (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">End user</th>
                    <th scope="col">Override</th>
                  </tr>
                </thead>
                <tbody>
                  {props.overrides.data.map((o) => (
                    <tr>
                      <th scope="row">
                        <Id value={o.user} href={userHref(tenant.id, o.user)} />
                      </th>
                      <td>{describeRule(o.rule)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {props.overrides.has_more ? <p class="muted">Showing the first 100, by id.</p> : null}
        </section>
      ) : null}
    </>
  );
}
