/**
 * A tenant's name and status, the changes worth a second look: the rename form, the warning shown
 * after a tenant is created or renamed to a name another tenant has (the API makes the change and
 * warns), and the confirmation step before disabling a tenant (a page with a required checkbox,
 * so it works without JavaScript; the server checks it too).
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import type { Tenant } from '../schemas';
import { ActionForm, Failure, Field, Id } from './parts';

/** The duplicate-name warning, from the redirect's `same_name` (the other tenants' ids). */
export function DuplicateNameWarning(props: { name: string; others: readonly string[] }) {
  if (props.others.length === 0) return null;
  return (
    <div class="alert warn" role="status" id="duplicate-name">
      <strong>Warning: </strong>another tenant is already named “{props.name}” (
      {props.others.map((id, i) => (
        <>
          {i > 0 ? ', ' : ''}
          <Id value={id} href={`/dashboard/tenants/${encodeURIComponent(id)}`} />
        </>
      ))}
      ). Names need not be unique, so it was saved; rename one of them if that was not meant.
    </div>
  );
}

/** The other tenants' ids a redirect carries in `same_name` (comma-separated), at most five. */
export function sameNameOf(query: string | undefined): string[] {
  return (query ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 5);
}

export function RenameSection(props: {
  session: SignedIn;
  tenant: Tenant;
  values: FormValues;
  failure: ApiFailure | null;
}) {
  return (
    <section aria-labelledby="rename-h">
      <h2 id="rename-h">Rename the tenant</h2>
      <Failure failure={props.failure} action="The tenant was not renamed" />
      <ActionForm
        action={`/dashboard/tenants/${encodeURIComponent(props.tenant.id)}/name`}
        session={props.session}
        class="stack"
      >
        <Field
          name="name"
          idPrefix="rename-"
          label="Tenant name"
          values={props.values}
          failure={props.failure}
          required
        />
        <div>
          <button type="submit">Rename</button>
        </div>
      </ActionForm>
    </section>
  );
}

/** The step before disabling a tenant: what it does, and a checkbox that must be ticked. */
export function DisableConfirmPage(props: {
  session: SignedIn;
  tenant: Tenant;
  keys: number | null;
  back: 'list' | 'tenant';
  unticked: boolean;
}) {
  const { tenant } = props;
  const href = `/dashboard/tenants/${encodeURIComponent(tenant.id)}`;
  const keys =
    props.keys === null
      ? 'all of its keys'
      : props.keys === 1
        ? 'its 1 active key'
        : `its ${props.keys} active keys`;
  return (
    <>
      <p>
        <a href={props.back === 'list' ? '/dashboard/tenants' : href}>« Back</a>
      </p>
      <h1>Disable tenant {tenant.name}?</h1>
      {props.unticked ? (
        <div class="alert error" role="alert" id="form-error">
          <strong>The tenant was not disabled: </strong>tick the box to confirm.
        </div>
      ) : null}
      <p>
        <Id value={tenant.id} name={tenant.name} />: once disabled, every request with {keys} is refused, at
        once where it was disabled and everywhere within the key cache's bound, until the tenant is enabled
        again. Nothing is deleted.
      </p>
      <ActionForm action={`${href}/disable`} session={props.session} class="stack">
        <input type="hidden" name="back" value={props.back} />
        <input type="hidden" name="step" value="confirm" />
        <label class="check">
          <input type="checkbox" name="confirm" value="yes" required /> I understand that every key of{' '}
          {tenant.name} will be refused
        </label>
        <div class="actions">
          <button type="submit" class="danger">
            Disable tenant
          </button>
          <a href={props.back === 'list' ? '/dashboard/tenants' : href}>Cancel</a>
        </div>
      </ActionForm>
    </>
  );
}
