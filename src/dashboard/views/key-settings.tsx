/** A key's settings: one-line summaries for tables, and the fieldsets shared by the create and edit forms. */
import type { Child } from 'hono/jsx';
import type { ApiFailure } from '../admin-api';
import { fmtInt, fmtUsd } from '../format';
import { BUDGET_PERIODS, BUDGET_UNITS, type FormValues } from '../forms';
import type { OnUnsupported } from '../../core/unsupported-policy';
import type { ApiKey } from '../schemas';
import { McpToolsFields } from './mcp-tools';
import { Field, fieldId } from './parts';
import { OnUnsupportedField } from './unsupported-policy';
import { DowngradeFields, UNIT_LEGENDS } from './scope-rules';

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
    const requests = b.requests?.[p];
    if (usd !== undefined) parts.push(`${fmtUsd(usd)}/${p}`);
    if (tokens !== undefined) parts.push(`${fmtInt(tokens)} tokens/${p}`);
    if (requests !== undefined) parts.push(`${fmtInt(requests)} requests/${p}`);
  }
  return parts.length ? parts.join(' · ') : 'none';
}

/** A list edited one entry per line; marked invalid when the API refused any of its entries. */
function LinesField(props: {
  name: 'models' | 'origins';
  label: string;
  hint: Child;
  rows: number;
  values: FormValues;
  failure?: ApiFailure | null | undefined;
}) {
  const { name, values } = props;
  const invalid = props.failure?.param?.startsWith(name) ?? false;
  return (
    <div>
      <label for={fieldId(name)}>
        {props.label}
        <span class="hint" id={`${name}-hint`}>
          {props.hint}
        </span>
      </label>
      <textarea
        id={fieldId(name)}
        name={name}
        rows={props.rows}
        aria-describedby={invalid ? `${name}-hint form-error` : `${name}-hint`}
        aria-invalid={invalid ? 'true' : undefined}
      >
        {values[name] ?? ''}
      </textarea>
    </div>
  );
}

/** The fields of KeyCreate/KeyUpdate a form edits; names are the API's parameter paths. */
export function KeySettingsFields(props: {
  values: FormValues;
  failure?: ApiFailure | null;
  /** The tenant's on_unsupported, which the key narrows; null when unknown. */
  tenantOnUnsupported?: OnUnsupported | null;
}) {
  const { values, failure } = props;
  return (
    <>
      <Field
        name="name"
        label="Name"
        hint="For people: what uses this key."
        values={values}
        failure={failure}
      />
      <LinesField
        name="models"
        label="Allowed models"
        rows={3}
        values={values}
        failure={failure}
        hint={
          <>
            One per line: <code>provider/model</code>, <code>provider/*</code> or a route's name. Empty allows
            every model.
          </>
        }
      />
      <LinesField
        name="origins"
        label="Browser origins"
        rows={2}
        values={values}
        failure={failure}
        hint={
          <>
            One per line, like <code>https://app.example.com</code>: web pages there may call the gateway with
            this key (CORS). Empty: servers only.
          </>
        }
      />
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
          <legend>{UNIT_LEGENDS[unit]} (empty: no cap)</legend>
          <div class="grid">
            {BUDGET_PERIODS.map((p) => (
              <Field
                name={`budgets.${unit}.${p}`}
                label={p === 'total' ? 'All time' : `Per ${p} (UTC)`}
                type="number"
                step={unit === 'usd' ? 'any' : undefined}
                values={values}
                failure={failure}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <DowngradeFields idPrefix="" values={values} failure={failure} />
      <Field
        name="expires_at"
        label="Expires (UTC)"
        hint="Empty: never expires."
        type="datetime-local"
        values={values}
        failure={failure}
      />
      <OnUnsupportedField values={values} failure={failure} tenant={props.tenantOnUnsupported ?? null} />
      <McpToolsFields scope="key" values={values} failure={failure} />
      <label class="check">
        <input type="checkbox" name="log_payload" checked={values.log_payload === 'on'} />
        Store prompts and completions in the logs
      </label>
    </>
  );
}
