/**
 * Scopes below a tenant or key, as the dashboard shows and edits them: a rule's fields (rate limits,
 * budgets in USD, tokens and requests, a downgrade), a rule in one line, the list of model or tag rules
 * with a remove button each and a form (folded until opened) that adds a rule or replaces the one of the
 * same pattern or tag,
 * and the status badge of a scope (near limit, refusing, exhausted) in place of a plain "active".
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import { fmtInt, fmtUsd } from '../format';
import { BUDGET_PERIODS, BUDGET_UNITS, type FormValues } from '../forms';
import { RULE_LIMITS } from '../scope-form';
import type { LimitsReport } from '../schemas';
import type { ScopeRule } from '../../core/settings';
import { ActionForm, Badge, Failure, Field } from './parts';

const LIMIT_LABELS: Record<string, string> = {
  rpm: 'Requests / minute',
  tpm: 'Tokens / minute',
  concurrent: 'Concurrent',
  max_tokens: 'Max max_tokens',
};
export const UNIT_LEGENDS = {
  usd: 'Budget in USD',
  tokens: 'Budget in tokens',
  requests: 'Budget in requests',
} as const;

const at = (prefix: string, path: string) => (prefix ? `${prefix}.${path}` : path);

/** A rule's fields under `prefix` (names are the API's parameter paths); `maxTokens` for a tenant's own. */
export function RuleFields(props: {
  prefix?: string;
  idPrefix: string;
  values: FormValues;
  failure?: ApiFailure | null;
  maxTokens?: boolean;
  downgrade?: boolean;
}) {
  const prefix = props.prefix ?? '';
  const common = { values: props.values, failure: props.failure, idPrefix: props.idPrefix };
  const limits = props.maxTokens ? [...RULE_LIMITS, 'max_tokens'] : RULE_LIMITS;
  return (
    <>
      <fieldset>
        <legend>Rate limits (empty: no limit)</legend>
        <div class="grid">
          {limits.map((k) => (
            <Field name={at(prefix, `limits.${k}`)} label={LIMIT_LABELS[k] ?? k} type="number" {...common} />
          ))}
        </div>
      </fieldset>
      {BUDGET_UNITS.map((unit) => (
        <fieldset>
          <legend>{UNIT_LEGENDS[unit]} (empty: no cap)</legend>
          <div class="grid">
            {BUDGET_PERIODS.map((p) => (
              <Field
                name={at(prefix, `budgets.${unit}.${p}`)}
                label={p === 'total' ? 'All time' : `Per ${p} (UTC)`}
                type="number"
                step={unit === 'usd' ? 'any' : undefined}
                {...common}
              />
            ))}
          </div>
        </fieldset>
      ))}
      {props.downgrade === false ? null : <DowngradeFields prefix={prefix} {...common} />}
    </>
  );
}

export function DowngradeFields(props: {
  prefix?: string;
  idPrefix: string;
  values: FormValues;
  failure?: ApiFailure | null | undefined;
}) {
  const prefix = props.prefix ?? '';
  const common = { values: props.values, failure: props.failure, idPrefix: props.idPrefix };
  return (
    <fieldset>
      <legend>Downgrade (empty: none)</legend>
      <div class="grid">
        <Field
          name={at(prefix, 'downgrade.at_percent')}
          label="At % of any budget"
          type="number"
          {...common}
        />
        <Field
          name={at(prefix, 'downgrade.route')}
          label="Route to send requests to"
          hint="A route's name (its own or a global one)."
          {...common}
        />
      </div>
    </fieldset>
  );
}

/** A rule in one line: `100 req/min · $5.00/day · 10 requests/day · downgrade at 90 % → cheap`. */
export function describeRule(rule: Pick<ScopeRule, 'limits' | 'budgets' | 'downgrade'> | null): string {
  if (!rule) return 'not metered';
  const l = rule.limits;
  const parts = [
    l.rpm && `${fmtInt(l.rpm)} req/min`,
    l.tpm && `${fmtInt(l.tpm)} tokens/min`,
    l.concurrent && `${fmtInt(l.concurrent)} at once`,
  ].filter((p): p is string => Boolean(p));
  for (const p of BUDGET_PERIODS) {
    const usd = rule.budgets.usd?.[p];
    const tokens = rule.budgets.tokens?.[p];
    const requests = rule.budgets.requests?.[p];
    if (usd !== undefined) parts.push(`${fmtUsd(usd)}/${p}`);
    if (tokens !== undefined) parts.push(`${fmtInt(tokens)} tokens/${p}`);
    if (requests !== undefined) parts.push(`${fmtInt(requests)} requests/${p}`);
  }
  if (rule.downgrade) parts.push(`downgrade at ${rule.downgrade.at_percent} % → ${rule.downgrade.route}`);
  return parts.length ? parts.join(' · ') : 'no limits';
}

export interface ListedRule {
  /** What the rule applies to, as shown (`openai/*`, `team=search`, `team=*`). */
  readonly label: string;
  /** The hidden fields that name it to the remove handler. */
  readonly ident: Readonly<Record<string, string>>;
  readonly rule: Pick<ScopeRule, 'limits' | 'budgets' | 'downgrade'>;
}

/** A list of model or tag rules, each with a remove button, and the form that adds or replaces one. */
export function RuleListSection(props: {
  session: SignedIn;
  id: string;
  heading: string;
  intro: string;
  action: string;
  rules: readonly ListedRule[];
  editable: boolean;
  /** The fields that name a new rule (its pattern, or its tag and value). */
  identFields: { name: string; label: string; hint?: string }[];
  values: FormValues;
  failure: ApiFailure | null;
}) {
  const { session } = props;
  return (
    <section aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{props.heading}</h2>
      <p class="muted">{props.intro}</p>
      {props.rules.length === 0 ? (
        <p>None.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Applies to</th>
                <th scope="col">Limits and budgets</th>
                {props.editable ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {props.rules.map((r) => (
                <tr>
                  <th scope="row">
                    <code>{r.label}</code>
                  </th>
                  <td>{describeRule(r.rule)}</td>
                  {props.editable ? (
                    <td class="actions">
                      <ActionForm action={props.action} session={session} class="inline">
                        <input type="hidden" name="op" value="remove" />
                        {Object.entries(r.ident).map(([name, value]) => (
                          <input type="hidden" name={name} value={value} />
                        ))}
                        <button type="submit" class="secondary" aria-label={`Remove the rule for ${r.label}`}>
                          Remove
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
      {props.editable ? (
        <details open={props.failure !== null}>
          <summary>Add or replace a rule</summary>
          <Failure failure={props.failure} action="The rule was not saved" />
          <ActionForm action={props.action} session={session} class="stack">
            <input type="hidden" name="op" value="save" />
            <div class="grid">
              {props.identFields.map((f) => (
                <Field
                  name={f.name}
                  label={f.label}
                  hint={f.hint}
                  values={props.values}
                  failure={props.failure}
                  idPrefix={`${props.id}-`}
                />
              ))}
            </div>
            <RuleFields idPrefix={`${props.id}-`} values={props.values} failure={props.failure} />
            <div>
              <button type="submit">Save rule</button>
            </div>
          </ActionForm>
        </details>
      ) : null}
    </section>
  );
}

const STATUS_WORDS = { near_limit: 'near limit', refusing: 'refusing', exhausted: 'exhausted' } as const;

/**
 * An active tenant's or key's badge: its scope's status (near limit, refusing, exhausted) when not ok,
 * else `active`; a disabled or revoked one keeps that word, and one whose report could not be read too.
 */
export function ScopeBadge(props: { status: string; report: Pick<LimitsReport, 'status'> | null }) {
  const scope = props.report?.status;
  if (props.status !== 'active' || !scope || scope === 'ok') return <Badge value={props.status} />;
  return <span class={`badge ${scope}`}>{STATUS_WORDS[scope]}</span>;
}
