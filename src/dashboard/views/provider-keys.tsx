/**
 * A tenant's own provider keys (BYOK) on its page: provider, hint and last
 * change, a form to set or rotate one (a password input, never filled back in)
 * and a delete button each (the forms only for admins who may change them).
 * The key itself is never rendered.
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { ProviderKeyInfo } from '../schemas';
import { ActionForm, Failure, Field, Time } from './parts';

export function ProviderKeysSection(props: {
  session: SignedIn;
  tenantId: string;
  keys: ProviderKeyInfo[];
  failure?: ApiFailure | null;
  /** Only the provider is kept after a refusal: the key is never sent back to the browser. */
  values?: FormValues;
}) {
  const base = `/dashboard/tenants/${encodeURIComponent(props.tenantId)}/provider-keys`;
  const op = '/admin/tenants/{id}/provider-keys/{provider}';
  const mayDelete = can(props.session.who, `DELETE ${op}`, props.tenantId);
  const maySet = can(props.session.who, `PUT ${op}`, props.tenantId);
  return (
    <section aria-labelledby="provider-keys-h">
      <h2 id="provider-keys-h">Provider keys</h2>
      <p class="muted">
        The tenant's own keys: its requests to these providers use them, and are billed to it, instead of the
        gateway's. A key is never shown again once saved, only its hint.
      </p>
      {props.keys.length === 0 ? (
        <p>No provider keys: this tenant's requests use the gateway's own keys.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Hint</th>
                <th scope="col">Updated</th>
                {mayDelete ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr>
                  <th scope="row">{k.provider}</th>
                  <td>
                    <code>{k.hint}</code>
                  </td>
                  <td>
                    <Time ms={k.updated_at} />
                  </td>
                  {mayDelete ? (
                    <td class="actions">
                      <ActionForm
                        action={`${base}/${encodeURIComponent(k.provider)}/delete`}
                        session={props.session}
                        class="inline"
                      >
                        <button type="submit" class="danger" aria-label={`Delete the ${k.provider} key`}>
                          Delete
                        </button>
                      </ActionForm>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {maySet ? <SetProviderKey {...props} base={base} /> : null}
    </section>
  );
}

function SetProviderKey(props: {
  session: SignedIn;
  base: string;
  failure?: ApiFailure | null;
  values?: FormValues;
}) {
  return (
    <>
      <h3>Set or rotate a provider key</h3>
      <Failure failure={props.failure} action="The provider key was not saved" />
      <ActionForm action={props.base} session={props.session} class="stack">
        <Field
          name="provider"
          label="Provider"
          hint="Its id, as in provider/model (e.g. openai, anthropic)"
          values={props.values}
          failure={props.failure}
          required
        />
        <Field
          name="key"
          label="Key"
          hint="Replaces the tenant's current key for this provider, if any"
          type="password"
          autocomplete="new-password"
          failure={props.failure}
          required
        />
        <div>
          <button type="submit">Save provider key</button>
        </div>
      </ActionForm>
    </>
  );
}
