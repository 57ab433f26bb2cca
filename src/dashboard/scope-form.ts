/**
 * Scope rules ⇄ HTML forms (pure): a rule's limits, budgets (tokens, USD, requests) and downgrade as
 * fields named by the API's parameter paths under a prefix (`end_users.limits.rpm`, `budgets.usd.day`,
 * `downgrade.route`), so a refusal's `param` marks its input. As in forms.ts, nothing is validated here:
 * what does not look like a number goes through as typed and the API names it. A model or tag rule is
 * edited one at a time and saved into its list; the API then names the field inside the list
 * (`model_limits.3.limits.rpm`), which `ruleFailure` maps back onto the one rule's form.
 */
import type { ApiFailure } from './admin-api';
import { BUDGET_PERIODS, BUDGET_UNITS, type FormValues, numberish } from './forms';
import type { Downgrade, ModelRule, ScopeRule, TagRule } from '../core/settings';

export const RULE_LIMITS = ['rpm', 'tpm', 'concurrent'] as const;

const at = (prefix: string, path: string) => (prefix ? `${prefix}.${path}` : path);

function numbers<K extends string>(values: FormValues, prefix: string, keys: readonly K[]) {
  const out: Partial<Record<K, number | string>> = {};
  for (const k of keys) {
    const v = numberish(values[at(prefix, k)]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The downgrade fields: null when both are blank (none), else as typed. */
export function downgradeBody(values: FormValues, prefix = ''): Record<string, unknown> | null {
  const percent = values[at(prefix, 'downgrade.at_percent')]?.trim() ?? '';
  const route = values[at(prefix, 'downgrade.route')]?.trim() ?? '';
  if (percent === '' && route === '') return null;
  return { at_percent: numberish(percent) ?? '', route };
}

/** A rule's limits and budgets as a body (`max_tokens` too for a tenant's or key's own limits). */
export function limitsAndBudgets(values: FormValues, prefix = '', maxTokens = false) {
  const budgets: Record<string, unknown> = {};
  for (const unit of BUDGET_UNITS) {
    const window = numbers(values, at(prefix, `budgets.${unit}`), BUDGET_PERIODS);
    if (Object.keys(window).length) budgets[unit] = window;
  }
  const limitKeys = maxTokens ? ([...RULE_LIMITS, 'max_tokens'] as const) : RULE_LIMITS;
  return { limits: numbers(values, at(prefix, 'limits'), limitKeys), budgets };
}

/** A ScopeRule body from its fields under `prefix`; a blank downgrade is left out (none). */
export function ruleBody(values: FormValues, prefix = ''): Record<string, unknown> {
  const downgrade = downgradeBody(values, prefix);
  return { ...limitsAndBudgets(values, prefix), ...(downgrade ? { downgrade } : {}) };
}

interface RuleLike {
  readonly limits: Readonly<Record<string, number | undefined>>;
  readonly budgets: ScopeRule['budgets'];
  readonly downgrade?: Downgrade | null | undefined;
}

/** A stored rule (or a tenant's or key's own settings) as its form's values under `prefix`. */
export function ruleFormValues(rule: RuleLike | null, prefix = ''): FormValues {
  const out: FormValues = {};
  if (!rule) return out;
  for (const [k, v] of Object.entries(rule.limits))
    if (v !== undefined) out[at(prefix, `limits.${k}`)] = String(v);
  for (const unit of BUDGET_UNITS)
    for (const p of BUDGET_PERIODS) {
      const v = rule.budgets[unit]?.[p];
      if (v !== undefined) out[at(prefix, `budgets.${unit}.${p}`)] = String(v);
    }
  if (rule.downgrade) {
    out[at(prefix, 'downgrade.at_percent')] = String(rule.downgrade.at_percent);
    out[at(prefix, 'downgrade.route')] = rule.downgrade.route;
  }
  return out;
}

/** A refusal of a rule saved into `list` (`model_limits`, `tag_limits`), its param made the rule's own. */
export function ruleFailure(failure: ApiFailure, list: string): ApiFailure {
  const m = failure.param?.match(new RegExp(`^${list}\\.\\d+\\.(.+)$`));
  return m ? { ...failure, param: m[1] ?? null } : failure;
}

/** `a, b c` → ['a', 'b', 'c']. */
export const wordList = (text: string | undefined) => (text ?? '').split(/[\s,]+/).filter(Boolean);

/**
 * A model rule list with the form's edit: `op=remove` drops the rule of `match`; otherwise the form's
 * rule replaces the one of the same pattern, or is added after the others.
 */
export function editModelRules(stored: readonly ModelRule[], values: FormValues): unknown[] {
  const match = values.match?.trim() ?? '';
  const others = stored.filter((r) => r.match !== match);
  if (values.op === 'remove') return others;
  const rule = { match, ...ruleBody(values) };
  const index = stored.findIndex((r) => r.match === match);
  return index < 0 ? [...stored, rule] : stored.map((r, i) => (i === index ? rule : r));
}

/** The same for tag rules, named by their tag and value (an empty value: every value its own). */
export function editTagRules(stored: readonly TagRule[], values: FormValues): unknown[] {
  const tag = values.tag?.trim() ?? '';
  const value = values.value?.trim() ?? '';
  const same = (r: TagRule) => r.tag === tag && (r.value ?? '') === value;
  if (values.op === 'remove') return stored.filter((r) => !same(r));
  const rule = { tag, ...(value ? { value } : {}), ...ruleBody(values) };
  const index = stored.findIndex(same);
  return index < 0 ? [...stored, rule] : stored.map((r, i) => (i === index ? rule : r));
}
