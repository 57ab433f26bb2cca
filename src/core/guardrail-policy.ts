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
 * x-edgeway-guardrails; `redact` also replaces what was found; `block` refuses.
 */
export const ACTIONS = ['off', 'log', 'flag', 'redact', 'block'] as const;
export type Action = (typeof ACTIONS)[number];
export type Direction = 'request' | 'response';

/** Guardrails that find spans of text, and so can replace them; the others judge a whole text. */
export const REDACTABLE: ReadonlySet<Guardrail> = new Set(['pii', 'secrets', 'denylist']);
/**
 * Guardrails that only read the request: injection matters where untrusted text enters (user turns and
 * tool results), and the classifier judges the prompt in parallel with the upstream call.
 */
export const REQUEST_ONLY: ReadonlySet<Guardrail> = new Set(['injection', 'llama_guard']);

const ActionSchema = z.enum(ACTIONS);

const Rule = z.strictObject({
  request: ActionSchema.optional().describe(
    'What to do when the request trips this guardrail; absent is off.',
  ),
  response: ActionSchema.optional().describe('What to do when the answer trips it; absent is off.'),
});

/** Literal terms and linear-time patterns refused or redacted wherever the denylist guardrail is on. */
export const DenyList = z.strictObject({
  terms: z.array(z.string().min(1).max(200)).max(1000).default([]),
  patterns: z.array(z.string().min(1).max(500)).max(100).default([]),
});
export type DenyList = z.infer<typeof DenyList>;

export const GuardrailPolicy = z
  .strictObject({
    injection: Rule.optional(),
    pii: Rule.optional(),
    secrets: Rule.optional(),
    denylist: Rule.optional(),
    llama_guard: Rule.optional(),
    /** Score above which a prompt counts as an injection; lower is stricter. Absent: the trained default. */
    injection_threshold: z.number().gt(0).lt(1).optional(),
    /** Put the values a request's redaction replaced back into its answer (same request only). */
    restore: z.boolean().optional(),
    /** The tenant's deny-list; on a key's policy it adds to the tenant's. */
    deny: DenyList.optional(),
  })
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
  readonly restore: boolean;
  readonly deny: DenyList;
  /** True when any guardrail is on in either direction (false: the pipeline skips every guardrail). */
  readonly active: boolean;
}

const rank = (a: Action): number => ACTIONS.indexOf(a);
const stricter = (a: Action, b: Action): Action => (rank(a) >= rank(b) ? a : b);

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
  const thresholds = [tenant.injection_threshold, key.injection_threshold].filter((t) => t !== undefined);
  return {
    request,
    response,
    injectionThreshold: thresholds.length > 0 ? Math.min(...thresholds) : null,
    // Restoring gives a caller back its own values; the tenant must allow it and the key may refuse it.
    restore: tenant.restore === true && key.restore !== false,
    deny: {
      terms: [...(tenant.deny?.terms ?? []), ...(key.deny?.terms ?? [])],
      patterns: [...(tenant.deny?.patterns ?? []), ...(key.deny?.patterns ?? [])],
    },
    active,
  };
}
