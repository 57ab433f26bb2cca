/**
 * The guardrails form ⇄ a GuardrailPolicy body (pure), in the manner of
 * forms.ts: field names are the API's parameter paths (`guardrails.pii.request`,
 * `guardrails.deny`), values the form cannot read as a number pass through for
 * the admin API to refuse in its own words. Tool results have their own
 * select (`guardrails.injection.tool_results`), whose empty choice leaves the
 * field out so they follow the injection action on requests, and their own
 * threshold. The form saves the whole policy
 * (PATCH replaces `guardrails` whole); what a form does not show (a key's own
 * deny-list, set with the CLI or API) is carried over from the stored policy.
 */
import {
  type Action,
  type Direction,
  GUARDRAILS,
  type Guardrail,
  type GuardrailPolicy,
  REDACTABLE,
  REQUEST_ONLY,
  RULE_ACTIONS,
  TOOL_RESULT_ACTIONS,
  type ToolResultAction,
} from '../core/guardrail-policy';
import { type FormValues, numberish } from './forms';

export type PolicyScope = 'tenant' | 'key';
export const DIRECTIONS: readonly Direction[] = ['request', 'response'];

/** The actions a form offers for one guardrail and direction; none for a request-only guardrail's answers. */
export function actionsFor(g: Guardrail, dir: Direction): readonly Action[] {
  if (dir === 'response' && REQUEST_ONLY.has(g)) return [];
  return RULE_ACTIONS.filter((a) => a !== 'redact' || REDACTABLE.has(g));
}

/** The choices for tool results: '' follows the injection action on requests (the field is left out). */
export const TOOL_RESULT_CHOICES: readonly ('' | ToolResultAction)[] = ['', ...TOOL_RESULT_ACTIONS];

export const actionField = (g: Guardrail, dir: Direction) => `guardrails.${g}.${dir}`;
export const TOOL_RESULTS_FIELD = 'guardrails.injection.tool_results';
export const THRESHOLD_FIELD = 'guardrails.injection_threshold';
export const TOOL_THRESHOLD_FIELD = 'guardrails.injection_tool_threshold';
export const RESTORE_FIELD = 'guardrails.restore';
export const TERMS_FIELD = 'guardrails.deny.terms';
export const PATTERNS_FIELD = 'guardrails.deny.patterns';

/** Non-empty lines; terms are trimmed, patterns keep their spaces (only a CRLF's CR goes). */
function lines(raw: string | undefined, trim: boolean): string[] {
  return (raw ?? '')
    .split(/\r?\n/)
    .map((l) => (trim ? l.trim() : l))
    .filter((l) => l.trim() !== '');
}

/**
 * A form as the policy it asks for. `off` is left out (absent means off).
 * Restore: a tenant's checkbox allows it; a key can only refuse it (`false`).
 */
export function guardrailsBody(
  values: FormValues,
  scope: PolicyScope,
  stored: GuardrailPolicy = {},
): Record<string, unknown> {
  const policy: Record<string, unknown> = {};
  for (const g of GUARDRAILS) {
    const rule: Record<string, string> = {};
    for (const dir of DIRECTIONS) {
      const action = values[actionField(g, dir)]?.trim() ?? '';
      if (action !== '' && action !== 'off') rule[dir] = action;
    }
    // Unlike the other selects, `off` is kept: it differs from following the request action.
    const tools = g === 'injection' ? (values[TOOL_RESULTS_FIELD]?.trim() ?? '') : '';
    if (tools !== '') rule.tool_results = tools;
    if (Object.keys(rule).length > 0) policy[g] = rule;
  }
  const threshold = numberish(values[THRESHOLD_FIELD]);
  if (threshold !== undefined) policy.injection_threshold = threshold;
  const toolThreshold = numberish(values[TOOL_THRESHOLD_FIELD]);
  if (toolThreshold !== undefined) policy.injection_tool_threshold = toolThreshold;
  const restore = values[RESTORE_FIELD];
  if (scope === 'tenant' && restore === 'on') policy.restore = true;
  if (scope === 'key' && restore === 'never') policy.restore = false;
  if (scope === 'tenant') {
    const terms = lines(values[TERMS_FIELD], true);
    const patterns = lines(values[PATTERNS_FIELD], false);
    if (terms.length > 0 || patterns.length > 0) policy.deny = { terms, patterns };
  } else if (stored.deny) {
    policy.deny = stored.deny;
  }
  return policy;
}

/** A stored policy as the values of its form. */
export function guardrailFormValues(policy: GuardrailPolicy, scope: PolicyScope): FormValues {
  const out: FormValues = {};
  for (const g of GUARDRAILS)
    for (const dir of DIRECTIONS) out[actionField(g, dir)] = policy[g]?.[dir] ?? 'off';
  out[TOOL_RESULTS_FIELD] = policy.injection?.tool_results ?? '';
  if (policy.injection_threshold !== undefined) out[THRESHOLD_FIELD] = String(policy.injection_threshold);
  if (policy.injection_tool_threshold !== undefined)
    out[TOOL_THRESHOLD_FIELD] = String(policy.injection_tool_threshold);
  if (scope === 'tenant' && policy.restore === true) out[RESTORE_FIELD] = 'on';
  if (scope === 'key' && policy.restore === false) out[RESTORE_FIELD] = 'never';
  if (scope === 'tenant') {
    out[TERMS_FIELD] = (policy.deny?.terms ?? []).join('\n');
    out[PATTERNS_FIELD] = (policy.deny?.patterns ?? []).join('\n');
  }
  return out;
}

/** Only the guardrail fields of a posted form (what goes back into the form after a refusal). */
export function guardrailFields(values: FormValues): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(values)) if (k.startsWith('guardrails.')) out[k] = v;
  return out;
}
