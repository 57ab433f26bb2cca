/**
 * The tenant page's stored-responses section (docs/responses.md, "Stored responses"): how many days the
 * tenant's stored responses of POST /v1/responses are kept. Blank means the deployment's default
 * (RESPONSES_RETENTION_DAYS); 0 keeps none. The form ⇄ body conversion is not a second validator: "-1" or
 * "a week" goes to the API as typed, and PATCH /admin/tenants/:id refuses it naming `responses_retention_days`.
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import { type FormValues, numberish } from '../forms';
import { ActionForm, Failure, Field } from './parts';

export const RETENTION_FIELD = 'responses_retention_days';

/** The PATCH body of the form: blank is null (the deployment's default). */
export function retentionBody(values: FormValues): Record<string, unknown> {
  return { [RETENTION_FIELD]: numberish(values[RETENTION_FIELD]) ?? null };
}

/** Only this form's field, to put back after a refusal. */
export function retentionFields(values: FormValues): FormValues {
  return { [RETENTION_FIELD]: values[RETENTION_FIELD] ?? '' };
}

/** The stored setting as the form's value. */
export function retentionFormValues(stored: { responses_retention_days: number | null }): FormValues {
  const days = stored.responses_retention_days;
  return { [RETENTION_FIELD]: days === null ? '' : String(days) };
}

function describe(days: number | null): string {
  if (days === null) return "the deployment's default (RESPONSES_RETENTION_DAYS, 30 days unless changed)";
  return days === 0 ? 'none are kept' : `${days} day${days === 1 ? '' : 's'}`;
}

export function ResponsesRetentionSection(props: {
  session: SignedIn;
  /** Where the form posts. */
  action: string;
  stored: { responses_retention_days: number | null };
  values: FormValues;
  failure?: ApiFailure | null;
  editable: boolean;
}) {
  return (
    <section aria-labelledby="responses-retention-h">
      <h2 id="responses-retention-h">Stored responses</h2>
      <p class="muted">
        Responses of <code>POST /v1/responses</code> that do not say <code>store: false</code> are kept for
        this tenant only, so <code>previous_response_id</code> and <code>GET /v1/responses/{'{id}'}</code>{' '}
        work. Kept: {describe(props.stored.responses_retention_days)}.
      </p>
      {props.editable ? (
        <>
          <Failure failure={props.failure} action="The retention was not changed" />
          <ActionForm action={props.action} session={props.session} class="stack">
            <Field
              name={RETENTION_FIELD}
              label="Keep stored responses for, days"
              hint="Whole days 0–3650; 0 stores none. Empty: the deployment's default. Applies to responses stored from now on."
              values={props.values}
              failure={props.failure}
            />
            <div>
              <button type="submit">Save retention</button>
            </div>
          </ActionForm>
        </>
      ) : null}
    </section>
  );
}
