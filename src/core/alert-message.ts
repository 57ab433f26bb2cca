/**
 * A budget alert as the tenant's Limiter object enqueues it and the alert consumer delivers it
 * (the webhook's JSON body). Shared by src/durable/limiter.ts and src/alerts/, so it lives here.
 * Two types: `budget.threshold` (a share of a budget was spent) and `budget.refusing` (a budget
 * refused its first request of the period; `threshold` is null).
 */
import * as z from 'zod';

export const AlertMessage = z.object({
  /** Stable per (tenant, scope, budget, period, threshold or `refusing`): receivers deduplicate on it. */
  id: z.string(),
  type: z.enum(['budget.threshold', 'budget.refusing']),
  tenant_id: z.string(),
  /** The key whose budget it is (its own, or one of its model rules'); null for the tenant's scopes. */
  key_id: z.string().nullable(),
  /** Whose budget: the tenant's, a key's, an end user's, a model rule's or a tag value's. */
  scope: z.enum(['tenant', 'key', 'user', 'model', 'tag']).default('tenant'),
  /** The end user, model pattern or `tag=value`; null for a key's or the tenant's own budget. */
  scope_id: z.string().nullable().default(null),
  /** `tokens_day`, `usd_month`, `requests_day`, … as in the budget_exceeded error's `kind`. */
  budget: z.enum([
    'tokens_day',
    'tokens_month',
    'tokens_total',
    'usd_day',
    'usd_month',
    'usd_total',
    'requests_day',
    'requests_month',
    'requests_total',
  ]),
  /** The period's ledger key: '2026-11-03', '2026-11' or 'total'. */
  period: z.string(),
  /** Percent of the budget; null for `budget.refusing`. */
  threshold: z.number().nullable(),
  /** The budget, and what was spent when the alert fired (tokens, or USD; a refusal's excludes what was held). */
  limit: z.number(),
  spent: z.number(),
  /** ISO 8601. */
  fired_at: z.string(),
});
export type AlertMessage = z.infer<typeof AlertMessage>;
export type BudgetKind = AlertMessage['budget'];
