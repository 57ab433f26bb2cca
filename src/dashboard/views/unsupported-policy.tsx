/**
 * The `on_unsupported` setting on the dashboard (src/core/unsupported-policy.ts): its one-line summary,
 * the select shared by the key forms, and the tenant page's small form. A key's setting narrows its
 * tenant's (refuse wins), so the key form names the tenant's when it refuses.
 */
import type { ApiFailure } from '../admin-api';
import type { OnUnsupported } from '../../core/unsupported-policy';
import type { FormValues } from '../forms';
import type { Session } from '../session';
import { ActionForm, Failure, fieldId } from './parts';

const NAME = 'on_unsupported';

export function describeOnUnsupported(policy: OnUnsupported): string {
  return policy === 'refuse' ? 'refused (400 unsupported_field)' : 'dropped and named in x-edgeway-dropped';
}

/** The select, marked invalid when the API named the field. */
export function OnUnsupportedField(props: {
  values: FormValues;
  failure?: ApiFailure | null | undefined;
  /** On a key form: the tenant's setting, which a key cannot loosen. */
  tenant?: OnUnsupported | null;
}) {
  const id = fieldId(NAME);
  const invalid = props.failure?.param === NAME;
  const current = props.values[NAME] ?? 'drop';
  return (
    <div>
      <label for={id}>
        Fields a translation cannot carry
        <span class="hint" id={`${id}-hint`}>
          When a request reaches a provider of another wire format, fields and headers that only tune the
          client's provider (e.g. <code>context_management</code>, hosted tools like{' '}
          <code>tools[web_search]</code>, an <code>anthropic-beta</code> header) are dropped and named in{' '}
          <code>x-edgeway-dropped</code>, or the request is refused with a 400.
          {props.tenant === 'refuse' ? ' The tenant refuses, so every key of it does.' : null}
        </span>
      </label>
      <select
        id={id}
        name={NAME}
        aria-describedby={invalid ? `${id}-hint form-error` : `${id}-hint`}
        aria-invalid={invalid ? 'true' : undefined}
      >
        <option value="drop" selected={current === 'drop'}>
          Drop them and name them in x-edgeway-dropped
        </option>
        <option value="refuse" selected={current === 'refuse'}>
          Refuse the request (400 unsupported_field)
        </option>
      </select>
    </div>
  );
}

/** The tenant page's form: the tenant's setting, saved on its own. */
export function TenantUnsupportedSection(props: {
  session: Session;
  action: string;
  stored: OnUnsupported;
  values: FormValues;
  failure?: ApiFailure | null | undefined;
  editable: boolean;
}) {
  return (
    <section aria-labelledby="unsupported-h">
      <h2 id="unsupported-h">Translation</h2>
      <p class="muted">
        Now: {describeOnUnsupported(props.stored)}. A key of this tenant may refuse where the tenant drops,
        never the reverse; a route may refuse for every request through it.
      </p>
      {props.editable ? (
        <>
          <Failure failure={props.failure} action="The setting was not saved" />
          <ActionForm action={props.action} session={props.session} class="stack">
            <OnUnsupportedField values={props.values} failure={props.failure} />
            <div>
              <button type="submit">Save translation setting</button>
            </div>
          </ActionForm>
        </>
      ) : null}
    </section>
  );
}
