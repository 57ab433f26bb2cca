/**
 * Guardrail policies: what each guardrail does to a request and to its answer,
 * per tenant and per key (one zod schema shared by the admin API, D1's JSON
 * columns and the key record), and how a key's policy narrows its tenant's
 * (pure). Actions are ordered by strictness; the effective action for each
 * guardrail and direction is the stricter of the two, so a key can tighten
 * its tenant's policy and never loosen it.
 */
import * as z from 'zod';

/** Every guardrail, in the order verdicts are reported. */
export const GUARDRAILS = ['injection', 'pii', 'secrets', 'denylist', 'llama_guard'] as const;
export type Guardrail = (typeof GUARDRAILS)[number];

/**
 * From least to most strict. `log` records a verdict; `flag` also names it in
 * x-edgeway-guardrails; `redact` also replaces what was found; `quarantine`
 * (tool results only) withholds a whole tool result from the model and lets
 * the turn go on; `block` refuses.
 */
export const ACTIONS = ['off', 'log', 'flag', 'redact', 'quarantine', 'block'] as const;
export type Action = (typeof ACTIONS)[number];
export type Direction = 'request' | 'response';

/** The actions of a guardrail's request or response rule: all but `quarantine`. */
export const RULE_ACTIONS = ['off', 'log', 'flag', 'redact', 'block'] as const;
/** The actions of `injection.tool_results`: a tool result is withheld whole, never redacted in part. */
export const TOOL_RESULT_ACTIONS = ['off', 'log', 'flag', 'quarantine', 'block'] as const;
export type ToolResultAction = (typeof TOOL_RESULT_ACTIONS)[number];

/** Guardrails that find spans of text, and so can replace them; the others judge a whole text. */
export const REDACTABLE: ReadonlySet<Guardrail> = new Set(['pii', 'secrets', 'denylist']);
/**
 * Guardrails that only read the request: injection matters where untrusted text enters (user turns and
 * tool results), and the classifier judges the prompt in parallel with the upstream call.
 */
export const REQUEST_ONLY: ReadonlySet<Guardrail> = new Set(['injection', 'llama_guard']);

const RuleAction = z.enum(RULE_ACTIONS, {
  error: (issue) =>
    issue.input === 'quarantine'
      ? "'quarantine' applies to tool results only: set injection.tool_results."
      : undefined,
});
const ToolResultActionSchema = z.enum(TOOL_RESULT_ACTIONS, {
  error: (issue) =>
    issue.input === 'redact' ? 'A tool result cannot be redacted: use flag, quarantine or block.' : undefined,
});

/** `tool_results` set anywhere but on the injection rule: say where it belongs rather than only "unrecognized". */
const misplacedToolResults = (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys' && issue.keys.includes('tool_results')
    ? "'tool_results' is a setting of the injection guardrail only: set injection.tool_results."
    : undefined;

const Rule = z.strictObject(
  {
    request: RuleAction.optional().describe(
      'What to do when the request trips this guardrail; absent is off.',
    ),
    response: RuleAction.optional().describe('What to do when the answer trips it; absent is off.'),
  },
  { error: misplacedToolResults },
);

/** The injection rule also says what to do with a tool result the tool-result detector fires on. */
const InjectionRule = Rule.extend({
  tool_results: ToolResultActionSchema.optional().describe(
    "What to do when a tool result carries a likely injection: quarantine withholds that result from the model (the turn goes on); absent follows 'request'.",
  ),
});

/** Literal terms and linear-time patterns refused or redacted wherever the denylist guardrail is on. */
export const DenyList = z.strictObject({
  terms: z.array(z.string().min(1).max(200)).max(1000).default([]),
  patterns: z.array(z.string().min(1).max(500)).max(100).default([]),
});
export type DenyList = z.infer<typeof DenyList>;

export const GuardrailPolicy = z
  .strictObject(
    {
      injection: InjectionRule.optional(),
      pii: Rule.optional(),
      secrets: Rule.optional(),
      denylist: Rule.optional(),
      llama_guard: Rule.optional(),
      /** Score above which a prompt counts as an injection; lower is stricter. Absent: the trained default. */
      injection_threshold: z.number().gt(0).lt(1).optional(),
      /** The same for tool results, judged by their own detector; absent: its trained default. */
      injection_tool_threshold: z.number().gt(0).lt(1).optional(),
      /** Put the values a request's redaction replaced back into its answer (same request only). */
      restore: z.boolean().optional(),
      /** The tenant's deny-list; on a key's policy it adds to the tenant's. */
      deny: DenyList.optional(),
    },
    { error: misplacedToolResults },
  )
  .superRefine((policy, ctx) => {
    for (const g of GUARDRAILS) {
      const rule = policy[g];
      if (!rule) continue;
      for (const dir of ['request', 'response'] as const) {
        const action = rule[dir];
        if (action === 'redact' && !REDACTABLE.has(g))
          ctx.addIssue({
            code: 'custom',
            path: [g, dir],
            message: `'${g}' cannot redact; use flag or block.`,
          });
        if (dir === 'response' && action && action !== 'off' && REQUEST_ONLY.has(g))
          ctx.addIssue({ code: 'custom', path: [g, dir], message: `'${g}' judges requests only.` });
      }
    }
  });
export type GuardrailPolicy = z.infer<typeof GuardrailPolicy>;

/** The policy a request runs under: one action per guardrail and direction, nothing optional. */
export interface EffectivePolicy {
  readonly request: Readonly<Record<Guardrail, Action>>;
  readonly response: Readonly<Record<Guardrail, Action>>;
  readonly injectionThreshold: number | null;
  /**
   * What happens to a tool result the tool-result detector fires on: per side `injection.tool_results`,
   * or that side's `injection.request` when absent; the stricter of the two sides.
   */
  readonly toolResults: ToolResultAction;
  /** The tool-result detector's threshold (the lower of the two sides'); null: its trained default. */
  readonly toolThreshold: number | null;
  readonly restore: boolean;
  readonly deny: DenyList;
  /** True when any guardrail is on in either direction (false: the pipeline skips every guardrail). */
  readonly active: boolean;
}

const rank = (a: Action): number => ACTIONS.indexOf(a);
const stricter = (a: Action, b: Action): Action => (rank(a) >= rank(b) ? a : b);

/** One side's action on tool results: its own, else its injection rule's request action (never `redact`). */
const toolResultsOf = (p: GuardrailPolicy): Action =>
  p.injection?.tool_results ?? p.injection?.request ?? 'off';

/** The stricter (lower) of two optional thresholds; null when neither side sets one. */
function lower(a: number | undefined, b: number | undefined): number | null {
  const set = [a, b].filter((t) => t !== undefined);
  return set.length > 0 ? Math.min(...set) : null;
}

/** The tenant's policy narrowed by the key's (pure). */
export function effectivePolicy(tenant: GuardrailPolicy, key: GuardrailPolicy): EffectivePolicy {
  const request = {} as Record<Guardrail, Action>;
  const response = {} as Record<Guardrail, Action>;
  let active = false;
  for (const g of GUARDRAILS) {
    request[g] = stricter(tenant[g]?.request ?? 'off', key[g]?.request ?? 'off');
    response[g] = stricter(tenant[g]?.response ?? 'off', key[g]?.response ?? 'off');
    if (request[g] !== 'off' || response[g] !== 'off') active = true;
  }
  const toolResults = stricter(toolResultsOf(tenant), toolResultsOf(key)) as ToolResultAction;
  if (toolResults !== 'off') active = true;
  return {
    request,
    response,
    injectionThreshold: lower(tenant.injection_threshold, key.injection_threshold),
    toolResults,
    toolThreshold: lower(tenant.injection_tool_threshold, key.injection_tool_threshold),
    // Restoring gives a caller back its own values; the tenant must allow it and the key may refuse it.
    restore: tenant.restore === true && key.restore !== false,
    deny: {
      terms: [...(tenant.deny?.terms ?? []), ...(key.deny?.terms ?? [])],
      patterns: [...(tenant.deny?.patterns ?? []), ...(key.deny?.patterns ?? [])],
    },
    active,
  };
}
