/**
 * The guardrails form on the tenant and key pages: per guardrail an action for
 * requests and one for answers (only the actions that apply), the injection
 * threshold, the action and threshold for tool results, restoring, and the
 * tenant's deny-list. On a key page it says that
 * the key's policy narrows the tenant's and shows both with the effective
 * result (src/core/guardrail-policy.ts), read-only, next to the form.
 */
import type { ApiFailure } from '../admin-api';
import {
  type Action,
  type Direction,
  effectivePolicy,
  GUARDRAILS,
  type Guardrail,
  type GuardrailPolicy,
} from '../../core/guardrail-policy';
import type { FormValues } from '../forms';
import {
  actionField,
  actionsFor,
  DIRECTIONS,
  PATTERNS_FIELD,
  type PolicyScope,
  RESTORE_FIELD,
  TERMS_FIELD,
  THRESHOLD_FIELD,
  TOOL_RESULT_CHOICES,
  TOOL_RESULTS_FIELD,
  TOOL_THRESHOLD_FIELD,
} from '../guardrail-form';
import type { Session } from '../session';
import { ActionForm, Badge, Failure, Field, fieldId } from './parts';

export const GUARDRAIL_LABELS: Record<Guardrail, string> = {
  injection: 'Prompt injection',
  pii: 'Personal data',
  secrets: 'Secrets',
  denylist: 'Deny-list',
  llama_guard: 'Safety classifier',
};

const HINTS: Record<Guardrail, string> = {
  injection: 'A local detector scores user turns and tool results.',
  pii: 'E-mail, phone, card, IBAN, SSN and IP addresses.',
  secrets: 'API keys, tokens, JWTs, private keys.',
  denylist: 'The terms and patterns below.',
  llama_guard: 'Llama Guard on Workers AI, alongside the upstream call.',
};

const SIDE: Record<Direction, string> = { request: 'requests', response: 'answers' };

function ActionSelect(props: { g: Guardrail; dir: Direction; values: FormValues; invalid: boolean }) {
  const { g, dir } = props;
  const actions = actionsFor(g, dir);
  if (actions.length === 0) return <span class="muted">requests only</span>;
  const name = actionField(g, dir);
  const current = props.values[name] ?? 'off';
  return (
    <select
      id={fieldId(name)}
      name={name}
      aria-label={`${GUARDRAIL_LABELS[g]} on ${SIDE[dir]}`}
      aria-invalid={props.invalid ? 'true' : undefined}
      aria-describedby={props.invalid ? 'form-error' : undefined}
    >
      {actions.map((a) => (
        <option value={a} selected={a === current}>
          {a}
        </option>
      ))}
    </select>
  );
}

/** What each tool-result choice is called in the select. */
const TOOL_CHOICE_LABELS: Record<(typeof TOOL_RESULT_CHOICES)[number], string> = {
  '': 'as on requests',
  off: 'off',
  log: 'log',
  flag: 'flag',
  quarantine: 'quarantine',
  block: 'block',
};

/** The injection guardrail on tool results: its action (or none, following requests) and its threshold. */
function ToolResultFields(props: { values: FormValues; failure?: ApiFailure | null }) {
  const { values, failure } = props;
  const id = fieldId(TOOL_RESULTS_FIELD);
  const invalid = failure?.param === TOOL_RESULTS_FIELD;
  const current = values[TOOL_RESULTS_FIELD] ?? '';
  return (
    <fieldset>
      <legend>Prompt injection in tool results</legend>
      <div>
        <label for={id}>
          Action on tool results
          <span class="hint" id={`${id}-hint`}>
            Each result a tool returned to an agent is judged on its own. quarantine withholds that result
            from the model (it gets a short notice instead) and lets the turn go on; block refuses the
            request. Recommended for agents: quarantine.
          </span>
        </label>
        <select
          id={id}
          name={TOOL_RESULTS_FIELD}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={invalid ? `${id}-hint form-error` : `${id}-hint`}
        >
          {TOOL_RESULT_CHOICES.map((a) => (
            <option value={a} selected={a === current}>
              {TOOL_CHOICE_LABELS[a]}
            </option>
          ))}
        </select>
      </div>
      <Field
        name={TOOL_THRESHOLD_FIELD}
        label="Tool-result threshold"
        hint="Between 0 and 1, for tool results only; lower is stricter. Empty: the tool-result detector's trained default."
        type="number"
        step="any"
        values={values}
        failure={failure}
      />
    </fieldset>
  );
}

function DenyListFields(props: { values: FormValues; failure?: ApiFailure | null }) {
  const invalid = props.failure?.param?.startsWith('guardrails.deny') ?? false;
  const area = (name: string, label: string, hint: string) => (
    <div>
      <label for={fieldId(name)}>
        {label}
        <span class="hint" id={`${fieldId(name)}-hint`}>
          {hint}
        </span>
      </label>
      <textarea
        id={fieldId(name)}
        name={name}
        rows={4}
        spellcheck={false}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${fieldId(name)}-hint form-error` : `${fieldId(name)}-hint`}
      >
        {props.values[name] ?? ''}
      </textarea>
    </div>
  );
  return (
    <fieldset>
      <legend>Deny-list (used where the deny-list guardrail is on)</legend>
      {area(TERMS_FIELD, 'Deny terms', 'One per line: literal text, matched as whole words, ignoring case.')}
      {area(
        PATTERNS_FIELD,
        'Deny patterns',
        'One regular expression per line. Patterns that cannot run in linear time (backreferences, lookaround) are refused.',
      )}
    </fieldset>
  );
}

/** The form's controls; names are the API's parameter paths. */
function PolicyFields(props: { scope: PolicyScope; values: FormValues; failure?: ApiFailure | null }) {
  const { values, failure, scope } = props;
  const param = failure?.param ?? '';
  return (
    <>
      <div class="scroll">
        <table>
          <caption>
            Action per guardrail (off · log · flag · redact · block, from least to most strict; tool results
            below)
          </caption>
          <thead>
            <tr>
              <th scope="col">Guardrail</th>
              <th scope="col">On requests</th>
              <th scope="col">On answers</th>
            </tr>
          </thead>
          <tbody>
            {GUARDRAILS.map((g) => (
              <tr>
                <th scope="row">
                  {GUARDRAIL_LABELS[g]} <code>{g}</code>
                  <span class="hint">{HINTS[g]}</span>
                </th>
                {DIRECTIONS.map((dir) => (
                  <td>
                    <ActionSelect
                      g={g}
                      dir={dir}
                      values={values}
                      invalid={param === actionField(g, dir) || param === `guardrails.${g}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Field
        name={THRESHOLD_FIELD}
        label="Injection threshold"
        hint="Between 0 and 1: a prompt scoring above it counts as an injection; lower is stricter. Empty: the trained default."
        type="number"
        step="any"
        values={values}
        failure={failure}
      />
      <ToolResultFields values={values} failure={failure} />
      {scope === 'tenant' ? (
        <label class="check">
          <input type="checkbox" name={RESTORE_FIELD} checked={values[RESTORE_FIELD] === 'on'} />
          Put values redacted from a request back into its own answer
        </label>
      ) : (
        <div>
          <label for={fieldId(RESTORE_FIELD)}>
            Restoring redacted values
            <span class="hint">A key cannot allow what its tenant does not, only refuse it.</span>
          </label>
          <select id={fieldId(RESTORE_FIELD)} name={RESTORE_FIELD}>
            <option value="">As the tenant allows</option>
            <option value="never" selected={values[RESTORE_FIELD] === 'never'}>
              Never for this key
            </option>
          </select>
        </div>
      )}
      {scope === 'tenant' ? <DenyListFields values={values} failure={failure} /> : null}
    </>
  );
}

/** The effective action, saying so when the key made it stricter than the tenant's. */
function Effective(props: { action: Action; tenant: Action }) {
  return (
    <>
      <Badge value={props.action} />
      {props.action === props.tenant ? null : <span class="muted"> raised by the key</span>}
    </>
  );
}

/** The tenant's policy, the key's and what a request with the key runs under, read-only. */
export function EffectivePolicyTable(props: { tenant: GuardrailPolicy; apiKey: GuardrailPolicy }) {
  const eff = effectivePolicy(props.tenant, props.apiKey);
  const rows = GUARDRAILS.flatMap((g) =>
    DIRECTIONS.filter((dir) => actionsFor(g, dir).length > 0).map((dir) => ({ g, dir })),
  );
  const keyDeny = props.apiKey.deny;
  const tenantTools = effectivePolicy(props.tenant, {}).toolResults;
  return (
    <div class="scroll">
      <table>
        <caption>The tenant's policy, this key's, and the effective result</caption>
        <thead>
          <tr>
            <th scope="col">Guardrail</th>
            <th scope="col">On</th>
            <th scope="col">Tenant</th>
            <th scope="col">This key</th>
            <th scope="col">Effective</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ g, dir }) => (
            <tr>
              <th scope="row">{GUARDRAIL_LABELS[g]}</th>
              <td>{SIDE[dir]}</td>
              <td>{props.tenant[g]?.[dir] ?? 'off'}</td>
              <td>{props.apiKey[g]?.[dir] ?? 'off'}</td>
              <td>
                <Effective action={eff[dir][g]} tenant={props.tenant[g]?.[dir] ?? 'off'} />
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">{GUARDRAIL_LABELS.injection}</th>
            <td>tool results</td>
            <td>{toolResultsOf(props.tenant)}</td>
            <td>{toolResultsOf(props.apiKey)}</td>
            <td>
              <Effective action={eff.toolResults} tenant={tenantTools} />
            </td>
          </tr>
          <tr>
            <th scope="row">Injection threshold</th>
            <td>requests</td>
            <td>{props.tenant.injection_threshold ?? 'default'}</td>
            <td>{props.apiKey.injection_threshold ?? 'default'}</td>
            <td>{eff.injectionThreshold ?? 'default'}</td>
          </tr>
          <tr>
            <th scope="row">Injection threshold</th>
            <td>tool results</td>
            <td>{props.tenant.injection_tool_threshold ?? 'default'}</td>
            <td>{props.apiKey.injection_tool_threshold ?? 'default'}</td>
            <td>{eff.toolThreshold ?? 'default'}</td>
          </tr>
          <tr>
            <th scope="row">Restore redacted values</th>
            <td>answers</td>
            <td>{props.tenant.restore ? 'yes' : 'no'}</td>
            <td>{props.apiKey.restore === false ? 'never' : 'as the tenant'}</td>
            <td>{eff.restore ? 'yes' : 'no'}</td>
          </tr>
          <tr>
            <th scope="row">Deny-list</th>
            <td>both</td>
            <td>{denySize(props.tenant.deny)}</td>
            <td>{keyDeny ? `adds ${denySize(keyDeny)}` : 'adds none'}</td>
            <td>{denySize(eff.deny)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** One side's action on tool results as written: its own, or what it follows. */
function toolResultsOf(policy: GuardrailPolicy): string {
  const own = policy.injection?.tool_results;
  return own ?? `${policy.injection?.request ?? 'off'} (as requests)`;
}

function denySize(deny: GuardrailPolicy['deny']): string {
  const terms = deny?.terms.length ?? 0;
  const patterns = deny?.patterns.length ?? 0;
  return `${terms} ${terms === 1 ? 'term' : 'terms'}, ${patterns} ${patterns === 1 ? 'pattern' : 'patterns'}`;
}

export function GuardrailsSection(props: {
  session: Session;
  /** False: the policy is shown read-only, with no form (the admin may not change it). */
  editable: boolean;
  action: string;
  scope: PolicyScope;
  values: FormValues;
  failure?: ApiFailure | null;
  /** On a key page: the tenant's policy and the key's stored one, for the read-only comparison. */
  narrows?: { tenant: GuardrailPolicy; apiKey: GuardrailPolicy } | null;
}) {
  return (
    <section aria-labelledby="guardrails-h">
      <h2 id="guardrails-h">Guardrails</h2>
      {props.scope === 'key' ? (
        <p>
          This key's policy narrows its tenant's: for each guardrail the stricter of the two actions applies,
          so a key can tighten the tenant's policy, never loosen it. Its deny-list adds to the tenant's.
        </p>
      ) : (
        <p class="muted">
          Applies to every key of this tenant; a key's own policy can only make it stricter.
        </p>
      )}
      {props.narrows ? (
        <EffectivePolicyTable tenant={props.narrows.tenant} apiKey={props.narrows.apiKey} />
      ) : null}
      {props.editable ? (
        <>
          <Failure failure={props.failure} action="The guardrails were not saved" />
          <ActionForm action={props.action} session={props.session} class="stack wide">
            <PolicyFields scope={props.scope} values={props.values} failure={props.failure} />
            <div>
              <button type="submit">Save guardrails</button>
            </div>
          </ActionForm>
        </>
      ) : (
        <fieldset class="stack wide" disabled>
          <legend>Current policy (read-only)</legend>
          <PolicyFields scope={props.scope} values={props.values} failure={null} />
        </fieldset>
      )}
    </section>
  );
}
