/**
 * Current usage and what remains, for the admin API (pure): a scope's
 * configured limits and budgets (from D1, or an end user's rule) beside its
 * Limiter counters. USD amounts are in USD; `reserved` is what in-flight
 * requests hold. `status` sums it up for a badge (scopeState): ok, near its
 * limit, refusing requests, or exhausted.
 */
import * as z from 'zod';
import { Budgets, Limits } from '../core/settings';
import { PERIODS, periodEnd, periodKey, type Period } from './periods';
import { type LastDenial, NANOS_PER_USD, type ScopeDump, type ScopeSettings } from './protocol';
import { resetMs, used, type WindowCounts } from './window';

const WindowUsage = z.object({
  limit: z.number().nullable(),
  used: z.number().describe('Sliding count over the last minute (tokens include reservations in flight).'),
  remaining: z.number().nullable(),
  reset_ms: z.number().describe('Until the whole allowance is back.'),
});

const BudgetUsage = z.object({
  period: z.string().describe("'2026-11-03' (UTC day), '2026-11' (UTC month) or 'total'."),
  limit: z.number().nullable(),
  spent: z.number(),
  reserved: z.number(),
  remaining: z.number().nullable(),
  resets_at: z.number().nullable().describe('Epoch ms; null for the total.'),
});
type BudgetUsage = z.infer<typeof BudgetUsage>;

const PeriodUsage = z.object({ day: BudgetUsage, month: BudgetUsage, total: BudgetUsage });

/** A scope at a glance: see scopeState. */
export const ScopeStatus = z
  .enum(['ok', 'near_limit', 'refusing', 'exhausted'])
  .describe(
    'near_limit: a budget is ≥ 90 % spent and held; refusing: it refused a request in the last 5 minutes, or a budget refused one this period that it can no longer fit; exhausted: a budget is spent.',
  );
export type ScopeStatus = z.infer<typeof ScopeStatus>;

const BUDGET_UNITS = ['tokens', 'usd', 'requests'] as const;
type BudgetUnit = (typeof BUDGET_UNITS)[number];

const ScopeReport = z.object({
  scope: z.enum(['tenant', 'key', 'user', 'model', 'tag']),
  id: z
    .string()
    .describe("The tenant's, key's or end user's id; a model rule's pattern; a tag rule's `tag=value`."),
  tenant_id: z.string(),
  limits: Limits,
  budgets: Budgets,
  requests: WindowUsage,
  tokens: WindowUsage,
  concurrent: z.object({ limit: z.number().nullable(), in_flight: z.number() }),
  budget_usage: z.object({ tokens: PeriodUsage, usd: PeriodUsage, requests: PeriodUsage }),
  last_denial: z
    .object({
      kind: z.string().describe('The limit that refused, e.g. rpm or usd_day.'),
      at: z.number().describe('Epoch ms of the latest refusal of that kind.'),
      count: z.number(),
    })
    .nullable()
    .describe('The last request this scope refused; null if none.'),
  status: ScopeStatus,
});

export const UsageReport = ScopeReport.extend({
  rules: z
    .array(ScopeReport)
    .optional()
    .describe(
      "The tenant's or key's model rules and tag rules with a value, each with its own usage and status (a tag rule without a value counts each value apart: see /admin/usage?group_by=tag).",
    ),
});
export type UsageReport = z.infer<typeof UsageReport>;
export type ScopeReport = z.infer<typeof ScopeReport>;

export interface ReportSubject {
  readonly scope: 'tenant' | 'key' | 'user' | 'model' | 'tag';
  readonly id: string;
  readonly tenantId: string;
  readonly settings: ScopeSettings;
  /** When its settings last changed (epoch ms): a refusal before that says nothing about today's limits. */
  readonly settingsChangedAt?: number;
}

export function usageReport(subject: ReportSubject, dump: ScopeDump, now: number): ScopeReport {
  const { limits, budgets } = subject.settings;
  const { state, periods } = dump;
  const usage = (unit: BudgetUnit) => {
    const out = {} as Record<Period, BudgetUsage>;
    for (const p of PERIODS) {
      const row = state.ledger[p];
      const [spent, reserved] =
        unit === 'usd'
          ? [row.nanosSpent / NANOS_PER_USD, row.nanosHeld / NANOS_PER_USD]
          : unit === 'tokens'
            ? [row.tokensSpent, row.tokensHeld]
            : [row.requestsSpent, row.requestsHeld];
      const limit = budgets[unit]?.[p] ?? null;
      out[p] = {
        period: periods[p],
        limit,
        spent,
        reserved,
        remaining: limit === null ? null : Math.max(0, limit - spent - reserved),
        resets_at: periodEnd(p, now),
      };
    }
    return out;
  };
  const since = subject.settingsChangedAt ?? 0;
  const denial = dump.lastDenial && dump.lastDenial.at >= since ? dump.lastDenial : null;
  const report = {
    scope: subject.scope,
    id: subject.id,
    tenant_id: subject.tenantId,
    limits,
    budgets,
    requests: windowUsage(state.requests, limits.rpm, now),
    tokens: windowUsage(state.tokens, limits.tpm, now),
    concurrent: { limit: limits.concurrent ?? null, in_flight: state.inflight },
    budget_usage: { tokens: usage('tokens'), usd: usage('usd'), requests: usage('requests') },
    last_denial: denial,
  };
  return { ...report, status: scopeState(report, now) };
}

/** A refusal this recent makes a scope `refusing`. */
export const REFUSING_WINDOW_MS = 5 * 60_000;
/** Spent and held at this share of a budget makes a scope `near_limit`. */
export const NEAR_LIMIT_SHARE = 0.9;

/** What scopeState reads of a report (the report itself fits). */
export interface StateInput {
  readonly budget_usage: Readonly<Record<BudgetUnit, Readonly<Record<Period, BudgetUsage>>>>;
  readonly last_denial:
    | LastDenial
    | { readonly kind: string; readonly at: number; readonly count: number }
    | null;
}

/**
 * A scope at a glance (pure), the most severe that holds:
 * - exhausted: a budget's spent reached its limit (nothing more fits until the period ends);
 * - refusing: it refused a request in the last REFUSING_WINDOW_MS, or its last refusal was by a
 *   budget, in that budget's current period, with nothing of it held in flight (no release can make
 *   room: what remains could not fit the refused request, and nothing but a new period or a higher
 *   limit will). A key refused at 5,900 of its 6,000 tokens is refusing, not exhausted: a smaller
 *   request still fits;
 * - near_limit: a budget is at NEAR_LIMIT_SHARE or more, spent and held;
 * - ok otherwise.
 */
export function scopeState(report: StateInput, now: number): ScopeStatus {
  const budgets = BUDGET_UNITS.flatMap((unit) =>
    PERIODS.map((period) => ({ unit, period, u: report.budget_usage[unit][period] })),
  );
  const limited = budgets.filter((b) => b.u.limit !== null);
  if (limited.some((b) => b.u.spent >= (b.u.limit ?? 0))) return 'exhausted';
  const denial = report.last_denial;
  if (denial) {
    const budget = budgetOf(denial.kind);
    const u = budget && report.budget_usage[budget.unit][budget.period];
    const thisPeriod = budget && u && periodKey(budget.period, denial.at) === u.period;
    if (u && thisPeriod && u.limit !== null && u.reserved === 0) return 'refusing';
    if (now - denial.at < REFUSING_WINDOW_MS) return 'refusing';
  }
  const near = limited.some((b) => b.u.spent + b.u.reserved >= (b.u.limit ?? 0) * NEAR_LIMIT_SHARE);
  return near ? 'near_limit' : 'ok';
}

/** The budget a limit kind names (`usd_day` → usd, day); null for a rate limit. */
function budgetOf(kind: string): { unit: BudgetUnit; period: Period } | null {
  const [unit, period] = kind.split('_');
  const isUnit = (BUDGET_UNITS as readonly string[]).includes(unit ?? '');
  const isPeriod = (PERIODS as readonly string[]).includes(period ?? '');
  return isUnit && isPeriod ? { unit: unit as BudgetUnit, period: period as Period } : null;
}

function windowUsage(w: WindowCounts, limit: number | undefined, now: number): z.infer<typeof WindowUsage> {
  const count = Math.round(used(w, now) * 1000) / 1000;
  return {
    limit: limit ?? null,
    used: count,
    remaining: limit === undefined ? null : Math.max(0, Math.floor(limit - count + 1e-9)),
    reset_ms: resetMs(w, now),
  };
}
