/**
 * Spend-triggered downgrades (pure): a scope with a `downgrade` sends a request to a cheaper route once
 * any of its budgets, with the request's worst case added to what is spent and held, reaches the
 * downgrade's percent of its limit. Checked by the Limiter object in the same step as admission, before
 * anything is held; a request already downgraded is never downgraded again (it is admitted or refused).
 */
import type { ScopeView } from './check';
import { PERIODS } from './periods';
import {
  type BudgetUnit,
  type Charge,
  type DowngradeSignal,
  type LedgerRow,
  NANOS_PER_USD,
} from './protocol';

/** The first scope whose downgrade this request triggers, or null. `requests`: what the hold counts. */
export function downgradeOf(views: readonly ScopeView[], cost: Charge, requests = 1): DowngradeSignal | null {
  for (const view of views) {
    const rule = view.settings.downgrade;
    if (!rule) continue;
    for (const { unit, period, limit, used, amount } of budgetsOf(view, cost, requests)) {
      // Integer units (tokens, nano-dollars, requests) × 100, so 90 % triggers at exactly 90 %.
      if ((used + amount) * 100 >= limit * rule.at_percent)
        return {
          route: rule.route,
          scope: view.scope,
          scopeId: view.label ?? null,
          kind: `${unit}_${period}`,
          atPercent: rule.at_percent,
        };
    }
  }
  return null;
}

/**
 * The part of each of a scope's budgets a lease may take before its downgrade would apply: a lease
 * never carries requests past the point where they should have gone to the cheaper route.
 */
export function downgradeCeiling(limit: number, view: ScopeView, downgraded: boolean): number {
  const rule = view.settings.downgrade;
  return rule && !downgraded ? Math.floor((limit * rule.at_percent) / 100) : limit;
}

interface BudgetUse {
  readonly unit: BudgetUnit;
  readonly period: (typeof PERIODS)[number];
  /** In the ledger's integer unit. */
  readonly limit: number;
  readonly used: number;
  readonly amount: number;
}

/** Each configured budget of a scope in the ledger's units: its limit, what is spent and held, and this request's part. */
export function budgetsOf(view: ScopeView, cost: Charge, requests: number): BudgetUse[] {
  const out: BudgetUse[] = [];
  const { budgets } = view.settings;
  for (const period of PERIODS) {
    const row: LedgerRow = view.state.ledger[period];
    const tokens = budgets.tokens?.[period];
    if (tokens !== undefined)
      out.push({
        unit: 'tokens',
        period,
        limit: tokens,
        used: row.tokensSpent + row.tokensHeld,
        amount: cost.tokens,
      });
    const usd = budgets.usd?.[period];
    if (usd !== undefined)
      out.push({
        unit: 'usd',
        period,
        limit: Math.round(usd * NANOS_PER_USD),
        used: row.nanosSpent + row.nanosHeld,
        amount: cost.nanos,
      });
    const count = budgets.requests?.[period];
    if (count !== undefined)
      out.push({
        unit: 'requests',
        period,
        limit: count,
        used: row.requestsSpent + row.requestsHeld,
        amount: requests,
      });
  }
  return out;
}
