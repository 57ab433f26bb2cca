/** A key's settings: one-line summaries for tables, and the fieldsets shared by the create and edit forms. */
import type { ApiFailure } from '../admin-api';
import { fmtInt, fmtUsd } from '../format';
import { BUDGET_PERIODS, BUDGET_UNITS, type FormValues } from '../forms';
import type { ApiKey } from '../schemas';
import { Field, fieldId } from './parts';

export function describeModels(models: ApiKey['models']): string {
  return models === null ? 'all models' : models.join(', ');
}

export function describeOrigins(origins: ApiKey['origins']): string {
  return origins.length === 0 ? 'none (servers only)' : origins.join(', ');
}

export function describeLimits(l: ApiKey['limits']): string {
  const parts = [
    l.rpm && `${fmtInt(l.rpm)} req/min`,
    l.tpm && `${fmtInt(l.tpm)} tokens/min`,
    l.concurrent && `${fmtInt(l.concurrent)} at once`,
    l.max_tokens && `max_tokens ≤ ${fmtInt(l.max_tokens)}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'none';
}

export function describeBudgets(b: ApiKey['budgets']): string {
  const parts: string[] = [];
  for (const p of BUDGET_PERIODS) {
    const usd = b.usd?.[p];
    const tokens = b.tokens?.[p];
    if (usd !== undefined) parts.push(`${fmtUsd(usd)}/${p}`);
    if (tokens !== undefined) parts.push(`${fmtInt(tokens)} tokens/${p}`);
  }
  return parts.length ? parts.join(' · ') : 'none';
}

/** The fields of KeyCreate/KeyUpdate a form edits; names are the API's parameter paths. */
export function KeySettingsFields(props: { values: FormValues; failure?: ApiFailure | null }) {
  const { values, failure } = props;
  const modelsInvalid = failure?.param?.startsWith('models') ?? false;
  const originsInvalid = failure?.param?.startsWith('origins') ?? false;
  return (
    <>
      <Field
        name="name"
        label="Name"
        hint="For people: what uses this key."
        values={values}
        failure={failure}
      />
      <div>
        <label for={fieldId('models')}>
          Allowed models
          <span class="hint" id="models-hint">
            One per line: <code>provider/model</code>, <code>provider/*</code> or a route's name. Empty allows
            every model.
          </span>
        </label>
        <textarea
          id={fieldId('models')}
          name="models"
          rows={3}
          aria-describedby={modelsInvalid ? 'models-hint form-error' : 'models-hint'}
          aria-invalid={modelsInvalid ? 'true' : undefined}
        >
          {values.models ?? ''}
        </textarea>
      </div>
      <div>
        <label for={fieldId('origins')}>
          Browser origins
          <span class="hint" id="origins-hint">
            One per line, like <code>https://app.example.com</code>: web pages there may call the gateway with
            this key (CORS). Empty: servers only.
          </span>
        </label>
        <textarea
          id={fieldId('origins')}
          name="origins"
          rows={2}
          aria-describedby={originsInvalid ? 'origins-hint form-error' : 'origins-hint'}
          aria-invalid={originsInvalid ? 'true' : undefined}
        >
          {values.origins ?? ''}
        </textarea>
      </div>
      <fieldset>
        <legend>Rate limits (empty: no limit)</legend>
        <div class="grid">
          <Field
            name="limits.rpm"
            label="Requests / minute"
            type="number"
            values={values}
            failure={failure}
          />
          <Field name="limits.tpm" label="Tokens / minute" type="number" values={values} failure={failure} />
          <Field
            name="limits.concurrent"
            label="Concurrent"
            type="number"
            values={values}
            failure={failure}
          />
          <Field
            name="limits.max_tokens"
            label="Max max_tokens"
            type="number"
            values={values}
            failure={failure}
          />
        </div>
      </fieldset>
      {BUDGET_UNITS.map((unit) => (
        <fieldset>
          <legend>{unit === 'usd' ? 'Budget in USD' : 'Budget in tokens'} (empty: no cap)</legend>
          <div class="grid">
            {BUDGET_PERIODS.map((p) => (
              <Field
                name={`budgets.${unit}.${p}`}
                label={p === 'total' ? 'All time' : `Per ${p} (UTC)`}
                type="number"
                step="any"
                values={values}
                failure={failure}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <Field
        name="expires_at"
        label="Expires (UTC)"
        hint="Empty: never expires."
        type="datetime-local"
        values={values}
        failure={failure}
      />
      <label class="check">
        <input type="checkbox" name="log_payload" checked={values.log_payload === 'on'} />
        Store prompts and completions in the logs
      </label>
    </>
  );
}
