/**
 * Spend-triggered downgrades (pure): a scope with a `downgrade` sends a request to a cheaper route once
 * any of its budgets, with the request's worst case added to what is spent and held, reaches the
 * downgrade's percent of its limit. Checked by the Limiter object in the same step as admission, before
 * anything is held; a request already downgraded is never downgraded again (it is admitted or refused).
 */
import { budgetsOf, type ScopeView } from './check';
import type { Charge, DowngradeSignal } from './protocol';

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
