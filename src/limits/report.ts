/**
 * Current usage and what remains, for the admin API (pure): a scope's
 * configured limits and budgets (from D1) beside its Limiter counters. USD
 * amounts are in USD; `reserved` is what in-flight requests hold.
 */
import * as z from 'zod';
import { Budgets, Limits } from '../core/settings';
import { PERIODS, periodEnd, type Period } from './periods';
import { NANOS_PER_USD, type ScopeSettings, type ScopeState } from './protocol';
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

const PeriodUsage = z.object({ day: BudgetUsage, month: BudgetUsage, total: BudgetUsage });

export const UsageReport = z.object({
  scope: z.enum(['tenant', 'key']),
  id: z.string(),
  tenant_id: z.string(),
  limits: Limits,
  budgets: Budgets,
  requests: WindowUsage,
  tokens: WindowUsage,
  concurrent: z.object({ limit: z.number().nullable(), in_flight: z.number() }),
  budget_usage: z.object({ tokens: PeriodUsage, usd: PeriodUsage }),
});
export type UsageReport = z.infer<typeof UsageReport>;

export interface ReportSubject {
  readonly scope: 'tenant' | 'key';
  readonly id: string;
  readonly tenantId: string;
  readonly settings: ScopeSettings;
}

export function usageReport(
  subject: ReportSubject,
  state: ScopeState,
  periods: Readonly<Record<Period, string>>,
  now: number,
): UsageReport {
  const { limits, budgets } = subject.settings;
  const usage = (unit: 'tokens' | 'usd') => {
    const out = {} as Record<Period, z.infer<typeof BudgetUsage>>;
    for (const p of PERIODS) {
      const row = state.ledger[p];
      const scale = unit === 'usd' ? NANOS_PER_USD : 1;
      const spent = (unit === 'usd' ? row.nanosSpent : row.tokensSpent) / scale;
      const reserved = (unit === 'usd' ? row.nanosHeld : row.tokensHeld) / scale;
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
  return {
    scope: subject.scope,
    id: subject.id,
    tenant_id: subject.tenantId,
    limits,
    budgets,
    requests: windowUsage(state.requests, limits.rpm, now),
    tokens: windowUsage(state.tokens, limits.tpm, now),
    concurrent: { limit: limits.concurrent ?? null, in_flight: state.inflight },
    budget_usage: { tokens: usage('tokens'), usd: usage('usd') },
  };
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
