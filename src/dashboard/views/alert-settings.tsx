/**
 * Budget-alert settings on the tenant and key pages (docs/alerts.md): the thresholds, the tenant's
 * webhook URL, the button that reveals the tenant's signing secret, and the page that shows it.
 * The form ⇄ body conversion is not a second validator: "150" or "abc" goes to the API as typed, so
 * PATCH /admin/tenants|keys/:id refuses it with its own message and `param` (`alerts.thresholds.0`).
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import { numberish } from '../forms';
import type { SignedIn } from '../context';
import { ActionForm, Failure, Field, SecretField } from './parts';

export const THRESHOLDS_FIELD = 'alerts.thresholds';
export const WEBHOOK_FIELD = 'alert_webhook';

/** Success notices of these forms, by their `?notice=` key. */
const NOTICES: Record<string, string> = {
  'alerts-saved':
    'Alert settings saved; thresholds apply from the next request, the webhook to the next alert.',
};
export const alertNotice = (key: string | undefined): string | null => NOTICES[key ?? ''] ?? null;

/** "50, 80 %, 100" as [50, 80, 100]; blank is [] (alerts off); a word stays text for the API to refuse. */
export function thresholdsOf(raw: string | undefined): (number | string)[] {
  const parts = (raw ?? '')
    .replaceAll('%', ' ')
    .split(/[\s,;]+/)
    .filter(Boolean);
  return parts.map((p) => numberish(p) ?? p);
}

/** The PATCH body of an alert form: the thresholds, and on a tenant the webhook too (empty: null, removed). */
export function alertSettingsBody(values: FormValues, scope: 'tenant' | 'key'): Record<string, unknown> {
  const alerts = { thresholds: thresholdsOf(values[THRESHOLDS_FIELD]) };
  if (scope === 'key') return { alerts };
  const webhook = values[WEBHOOK_FIELD]?.trim() ?? '';
  return { alerts, alert_webhook: webhook === '' ? null : webhook };
}

/** Only this form's fields, to put back after a refusal. */
export function alertFields(values: FormValues): FormValues {
  return { [THRESHOLDS_FIELD]: values[THRESHOLDS_FIELD] ?? '', [WEBHOOK_FIELD]: values[WEBHOOK_FIELD] ?? '' };
}

/** Stored settings as the form's values. */
export function alertFormValues(stored: {
  alerts: { thresholds: number[] };
  alert_webhook?: string | null;
}): FormValues {
  return {
    [THRESHOLDS_FIELD]: stored.alerts.thresholds.join(', '),
    [WEBHOOK_FIELD]: stored.alert_webhook ?? '',
  };
}

const describe = (thresholds: number[]) =>
  thresholds.length > 0 ? thresholds.map((t) => `${t} %`).join(', ') : 'none';

export function AlertSettingsSection(props: {
  session: SignedIn;
  scope: 'tenant' | 'key';
  /** Where the form posts. */
  action: string;
  stored: { alerts: { thresholds: number[] }; alert_webhook?: string | null };
  values: FormValues;
  failure?: ApiFailure | null;
  editable: boolean;
  /** The tenant's signing-secret page; null when the admin may not see it (or on a key). */
  secretAction?: string | null;
}) {
  const { scope, stored } = props;
  return (
    <section aria-labelledby="alert-settings-h">
      <h2 id="alert-settings-h">Budget alert settings</h2>
      <p class="muted">
        {scope === 'tenant'
          ? "An alert fires once per budget and period when the tenant's spend reaches a threshold, and when a budget first refuses a request (thresholds or not); its keys' alerts go to the same webhook."
          : "An alert fires once per budget and period when this key's spend reaches a threshold, and when a budget first refuses a request (thresholds or not); it goes to its tenant's webhook."}
      </p>
      {props.editable ? (
        <>
          <Failure failure={props.failure} action="The alert settings were not changed" />
          <ActionForm action={props.action} session={props.session} class="stack">
            <Field
              name={THRESHOLDS_FIELD}
              label="Thresholds, % of each budget"
              hint="Whole percents 1–100, e.g. 50, 80, 100 (at most 10). Empty: no alerts."
              values={props.values}
              failure={props.failure}
            />
            {scope === 'tenant' ? (
              <Field
                name={WEBHOOK_FIELD}
                label="Webhook URL"
                hint="https://… where alerts are POSTed, signed. Empty: alerts are only listed."
                values={props.values}
                failure={props.failure}
              />
            ) : null}
            <div>
              <button type="submit">Save alert settings</button>
            </div>
          </ActionForm>
        </>
      ) : (
        <p>
          Thresholds: {describe(stored.alerts.thresholds)}
          {scope === 'tenant' ? (
            <>
              {' · '}webhook: {stored.alert_webhook ? <code>{stored.alert_webhook}</code> : 'none'}
            </>
          ) : null}
        </p>
      )}
      {props.secretAction ? (
        <ActionForm action={props.secretAction} session={props.session} class="inline">
          <p>
            The receiver checks each alert's <code>x-edgeway-signature</code> with the tenant's signing
            secret.{' '}
            <button type="submit" class="secondary">
              Show the signing secret
            </button>
          </p>
        </ActionForm>
      ) : null}
    </section>
  );
}

/** The tenant's signing secret, answered to the POST that asked for it (never cached: `page()` sends no-store). */
export function AlertSecretPage(props: { tenant: { id: string; name: string }; secret: string }) {
  const back = `/dashboard/tenants/${encodeURIComponent(props.tenant.id)}`;
  return (
    <>
      <h1>Alert signing secret for {props.tenant.name}</h1>
      <div class="alert warn" role="alert">
        <strong>Keep this secret in the webhook receiver only.</strong> Whoever holds it can sign alerts as
        this tenant. It changes when the deployment's <code>ALERT_SIGNING_SECRET</code> is rotated.
      </div>
      <SecretField label="Signing secret" value={props.secret} />
      <p>
        Verify <code>x-edgeway-signature: t=…,v1=…</code> as HMAC-SHA256 of <code>t.body</code> with it.
      </p>
      <p>
        <a class="button" href={back}>
          Back to the tenant
        </a>
      </p>
    </>
  );
}
