/**
 * The admins pages (owners only): the list with the create form, one admin
 * with its edit, disable/enable, rotate and delete forms. The token is shown
 * only on the once-only page (admin-token.tsx).
 */
import { ADMIN_ROLES } from '../../core/admin-principal';
import type { Admin } from '../../storage/admin-store';
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import { ActionForm, Badge, Failure, Field, fieldId, Notice, Pager, Time } from './parts';

export const adminPath = (a: Pick<Admin, 'id'>) => `/dashboard/admins/${encodeURIComponent(a.id)}`;

const ROLE_HINT =
  'owner: everything, admins included · admin: everything but admins · viewer: reads only · ' +
  'tenant_admin: only the keys, usage, logs and audit of its tenants';

function AdminFields(props: { values: FormValues; failure?: ApiFailure | null }) {
  const role = props.values.role ?? 'viewer';
  const invalid = props.failure?.param === 'role';
  return (
    <>
      <Field name="name" label="Name" values={props.values} failure={props.failure} required />
      <div>
        <label for={fieldId('role')}>
          Role<span class="hint">{ROLE_HINT}</span>
        </label>
        <select
          id={fieldId('role')}
          name="role"
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={invalid ? 'form-error' : undefined}
        >
          {ADMIN_ROLES.map((r) => (
            <option value={r} selected={r === role}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <Field
        name="tenant_ids"
        label="Tenants (tenant_admin only)"
        hint="Tenant ids, separated by spaces or commas; leave empty for other roles."
        values={props.values}
        failure={props.failure}
      />
    </>
  );
}

const tenantsOf = (a: Admin) => (a.role === 'tenant_admin' ? a.tenant_ids.join(', ') : '');

export function AdminsPage(props: {
  session: SignedIn;
  admins: Admin[];
  next: string | null;
  cursor?: string;
  failure?: ApiFailure | null;
  values?: FormValues;
  notice?: string | null;
}) {
  return (
    <>
      <h1>Admins</h1>
      <p class="muted">
        Each admin signs in with a token of their own; every change they make is in the audit log under their
        name. The deployment's ADMIN_TOKEN stays a break-glass owner.
      </p>
      <Notice text={props.notice} />
      {props.admins.length === 0 ? (
        <p>No named admins yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Tenants</th>
                <th scope="col">Status</th>
                <th scope="col">Token</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {props.admins.map((a) => (
                <tr>
                  <th scope="row">
                    <a href={adminPath(a)}>{a.name}</a>
                  </th>
                  <td>{a.role}</td>
                  <td>{tenantsOf(a)}</td>
                  <td>
                    <Badge value={a.status} />
                  </td>
                  <td>
                    <code>{a.token_hint}</code>
                  </td>
                  <td>
                    <Time ms={a.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/admins" query={{ cursor: props.cursor }} next={props.next} label="Admins" />
      <section aria-labelledby="create-admin-h">
        <h2 id="create-admin-h">Add an admin</h2>
        <Failure failure={props.failure} action="The admin was not created" />
        <ActionForm action="/dashboard/admins" session={props.session} class="stack">
          <AdminFields values={props.values ?? {}} failure={props.failure} />
          <div>
            <button type="submit">Create admin</button>
          </div>
        </ActionForm>
      </section>
    </>
  );
}

export function AdminPage(props: {
  session: SignedIn;
  admin: Admin;
  values: FormValues;
  failure?: ApiFailure | null;
  notice?: string | null;
}) {
  const { admin: a, session } = props;
  const disable = a.status === 'active';
  return (
    <>
      <p>
        <a href="/dashboard/admins">« All admins</a>
      </p>
      <h1>Admin {a.name}</h1>
      <Notice text={props.notice} />
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <code>{a.id}</code>
        </dd>
        <dt>Role</dt>
        <dd>{a.role}</dd>
        {a.role === 'tenant_admin' ? (
          <>
            <dt>Tenants</dt>
            <dd>{tenantsOf(a)}</dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>
          <Badge value={a.status} />
        </dd>
        <dt>Token</dt>
        <dd>
          <code>{a.token_hint}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time ms={a.created_at} /> by <code>{a.created_by}</code>
        </dd>
      </dl>
      <p class="actions">
        <a href={`/dashboard/audit?actor_id=${encodeURIComponent(a.id)}`}>Their changes in the audit log</a>
      </p>
      <section aria-labelledby="edit-admin-h">
        <h2 id="edit-admin-h">Edit</h2>
        <Failure failure={props.failure} action="The admin was not changed" />
        <ActionForm action={adminPath(a)} session={session} class="stack">
          <AdminFields values={props.values} failure={props.failure} />
          <div>
            <button type="submit">Save admin</button>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="admin-actions-h">
        <h2 id="admin-actions-h">Token and access</h2>
        <div class="actions">
          <ActionForm
            action={`${adminPath(a)}/${disable ? 'disable' : 'enable'}`}
            session={session}
            class="inline"
          >
            <button type="submit" class={disable ? 'danger' : 'secondary'}>
              {disable ? 'Disable' : 'Enable'} admin {a.name}
            </button>
          </ActionForm>
          <ActionForm action={`${adminPath(a)}/rotate`} session={session} class="inline">
            <button type="submit" class="secondary">
              Rotate token
            </button>
          </ActionForm>
          <ActionForm action={`${adminPath(a)}/delete`} session={session} class="inline">
            <button type="submit" class="danger">
              Delete admin {a.name}
            </button>
          </ActionForm>
        </div>
      </section>
    </>
  );
}
