/** The once-only page with a new admin token (after create or rotate), and the page once it is gone. */
import type { Admin } from '../../storage/admin-store';
import { adminPath } from './admins';
import { SecretField } from './parts';

export function TokenPage(props: { admin: Admin; token: string }) {
  const a = props.admin;
  return (
    <>
      <h1>Token for admin {a.name}</h1>
      <div class="alert warn" role="alert">
        <strong>Hand this token over now.</strong> It is shown only this once: Edgeway keeps only a hash of
        it, and this page will not show it again.
      </div>
      <SecretField label="Admin token" value={props.token} />
      <p>
        {a.name} signs in to this dashboard with it, or calls the admin API with{' '}
        <code>Authorization: Bearer …</code>.
      </p>
      <p>
        <a class="button" href={adminPath(a)}>
          It has been handed over
        </a>
      </p>
    </>
  );
}

export function TokenGonePage(props: { admin: Admin }) {
  return (
    <>
      <h1>Token no longer shown</h1>
      <p class="alert warn" role="alert">
        An admin's token is shown once, right after the admin is created or the token rotated. If it was not
        handed over, rotate the token to get a new one.
      </p>
      <p>
        <a href={adminPath(props.admin)}>Back to the admin</a>
      </p>
    </>
  );
}
