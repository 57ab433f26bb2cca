/**
 * The route form's fields (src/dashboard/route-form.ts holds the conversion):
 * the strategy and route settings, then one fieldset per target row — model,
 * weight, time to first byte, tries, credential, request overrides, and a
 * "remove" box — with blank rows to add targets and a "more rows" button, so
 * it works without JavaScript. A group nested in the spec cannot be edited
 * here: its row shows it in words and carries it unchanged (edit it as JSON).
 * Every input is named by its API path, so a refusal marks it.
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import { isGroup, type RouteGroup } from '../../core/route-spec';
import { RouteGroup as GroupSchema } from '../../core/route-spec';
import { MAX_ROWS, rowCount, target } from '../route-form';
import { Field, fieldId } from './parts';

/** A select that the API may refuse: marked invalid and tied to the error like Field. */
function Select(props: {
  name: string;
  label: string;
  hint?: string;
  values: FormValues;
  failure?: ApiFailure | null;
  options: readonly (readonly [string, string])[];
}) {
  const id = fieldId(props.name);
  const invalid = props.failure?.param === props.name;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const described = [hintId, invalid ? 'form-error' : undefined].filter(Boolean).join(' ') || undefined;
  const current = props.values[props.name] ?? props.options[0]?.[0];
  return (
    <div>
      <label for={id}>
        {props.label}
        {props.hint ? (
          <span class="hint" id={hintId}>
            {props.hint}
          </span>
        ) : null}
      </label>
      <select
        id={id}
        name={props.name}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described}
      >
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === current}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A nested group, in words, from the JSON its row keeps (null when the text is not a group). */
function groupText(json: string): string | null {
  try {
    const g = GroupSchema.safeParse(JSON.parse(json));
    if (!g.success) return null;
    const steps = (group: RouteGroup): string =>
      group.targets
        .map((t) => (isGroup(t) ? `(${steps(t)})` : t.model))
        .join(group.strategy === 'loadbalance' ? ' | ' : ' → ');
    return `${g.data.strategy} group: ${steps(g.data)}`;
  } catch {
    return null;
  }
}

function TargetRow(props: { index: number; values: FormValues; failure?: ApiFailure | null }) {
  const { index: i, values, failure } = props;
  const keep = values[target(i, 'keep')] ?? '';
  const group = keep ? groupText(keep) : null;
  const name = (field: string) => target(i, field);
  return (
    <fieldset class="target">
      <legend>{`Target ${i + 1}`}</legend>
      {keep ? <input type="hidden" name={name('keep')} value={keep} /> : null}
      {group ? (
        <p class="muted">
          <span class="id" title={group}>
            {group}
          </span>{' '}
          — kept as is; edit nested groups as JSON.
        </p>
      ) : (
        <div class="grid">
          <Field
            name={name('model')}
            label="Model or route"
            hint="provider/model, or another route's name"
            values={values}
            failure={failure}
          />
          <Field
            name={name('weight')}
            label="Weight"
            hint="loadbalance share; 1 if blank"
            values={values}
            failure={failure}
          />
          <Field
            name={name('ttfb_timeout_ms')}
            label="First-byte timeout (ms)"
            hint="the deployment's if blank"
            values={values}
            failure={failure}
          />
          <Field
            name={name('attempts')}
            label="Tries"
            hint="1–5; the route's if blank"
            values={values}
            failure={failure}
          />
          <Select
            name={name('credential')}
            label="Credential"
            values={values}
            failure={failure}
            options={[
              ['auto', "auto: tenant's key if stored"],
              ['tenant', "tenant's own key only"],
              ['deployment', "the deployment's key"],
            ]}
          />
          <Field
            name={name('overrides.max_tokens')}
            label="Override max_tokens"
            values={values}
            failure={failure}
          />
          <Field
            name={name('overrides.temperature')}
            label="Override temperature"
            values={values}
            failure={failure}
          />
          <Field name={name('overrides.top_p')} label="Override top_p" values={values} failure={failure} />
        </div>
      )}
      <label class="check">
        <input type="checkbox" name={name('remove')} checked={values[name('remove')] === 'on'} />
        Remove this target
      </label>
    </fieldset>
  );
}

/** The form's buttons: the submit first (Enter submits it), then "more target rows" (saves nothing). */
export function RouteFormButtons(props: { label: string; values: FormValues }) {
  return (
    <div class="actions">
      <button type="submit">{props.label}</button>
      {rowCount(props.values) < MAX_ROWS ? (
        <button type="submit" name="more" value="1" class="secondary" formnovalidate>
          More target rows
        </button>
      ) : null}
    </div>
  );
}

export function RouteSpecFields(props: { values: FormValues; failure?: ApiFailure | null }) {
  const { values, failure } = props;
  const rows = rowCount(values);
  return (
    <>
      <input type="hidden" name="rows" value={String(rows)} />
      {values['spec.keep'] ? <input type="hidden" name="spec.keep" value={values['spec.keep']} /> : null}
      <fieldset>
        <legend>Route settings</legend>
        <div class="grid">
          <Select
            name="spec.strategy"
            label="Strategy"
            values={values}
            failure={failure}
            options={[
              ['fallback', 'fallback: in order'],
              ['loadbalance', 'loadbalance: weighted'],
            ]}
          />
          <Field
            name="spec.attempts"
            label="Tries per target"
            hint="the deployment's if blank"
            values={values}
            failure={failure}
          />
          <Field
            name="spec.max_calls"
            label="Most calls a request"
            hint="1–20; 6 if blank"
            values={values}
            failure={failure}
          />
          <Select
            name="spec.on_unsupported"
            label="Fields a target cannot take"
            values={values}
            failure={failure}
            options={[
              ['', "key's or tenant's choice"],
              ['drop', 'drop them, named'],
              ['refuse', 'refuse: skip that target'],
            ]}
          />
        </div>
      </fieldset>
      <p class="hint">
        Targets are tried in this order (fallback) or drawn by weight (loadbalance). Blank rows add targets;
        clear a model or tick "remove" to drop one.
      </p>
      {Array.from({ length: rows }, (_, i) => (
        <TargetRow index={i} values={values} failure={failure} />
      ))}
    </>
  );
}
