/**
 * Budget alerts (pure): which thresholds of a scope's budgets its ledger has reached and that have
 * not fired yet. Thresholds count spent only, never held: an alert says "you have used X %", and a
 * hold that is released would otherwise have fired an alert for spend that never happened.
 */
import type { BudgetKind } from '../core/alert-message';
import type { Budgets } from '../core/settings';
import { PERIODS, type Period } from './periods';
import { type LedgerRow, NANOS_PER_USD } from './protocol';

/** What a scope's alerts are evaluated against: its budgets and thresholds (percent). */
export interface AlertScope {
  readonly budgets: Budgets;
  readonly thresholds: readonly number[];
}

/** One threshold reached: `limit` and `spent` in tokens, or USD. */
export interface Crossing {
  readonly budget: BudgetKind;
  readonly period: string;
  readonly threshold: number;
  readonly limit: number;
  readonly spent: number;
}

/** The identity of a fired alert within a scope: once per budget, period key and threshold. */
export const crossingKey = (c: Pick<Crossing, 'budget' | 'period' | 'threshold'>): string =>
  `${c.budget}:${c.period}:${c.threshold}`;

/**
 * The thresholds reached by `ledger` (the scope's rows for the period keys in `periods`) and not in
 * `fired` (crossingKey values), lowest first per budget. A threshold added after its level was
 * passed fires at the next settle of that period.
 */
export function crossings(
  scope: AlertScope,
  ledger: Readonly<Record<Period, LedgerRow>>,
  periods: Readonly<Record<Period, string>>,
  fired: ReadonlySet<string>,
): Crossing[] {
  const out: Crossing[] = [];
  const thresholds = [...scope.thresholds].sort((a, b) => a - b);
  for (const unit of ['tokens', 'usd', 'requests'] as const) {
    for (const period of PERIODS) {
      const limit = scope.budgets[unit]?.[period];
      if (limit === undefined || !(limit > 0)) continue;
      const row = ledger[period];
      const integral =
        unit === 'tokens' ? row.tokensSpent : unit === 'usd' ? row.nanosSpent : row.requestsSpent;
      const spent = unit === 'usd' ? integral / NANOS_PER_USD : integral;
      // Compared in the ledger's integer unit, so 80 % of a budget fires at exactly 80 %, not a float away.
      const used = integral * 100;
      const whole = unit === 'usd' ? limit * NANOS_PER_USD : limit;
      for (const threshold of thresholds) {
        if (used < whole * threshold) break;
        const crossing = {
          budget: `${unit}_${period}` as const,
          period: periods[period],
          threshold,
          limit,
          spent,
        };
        if (!fired.has(crossingKey(crossing))) out.push(crossing);
      }
    }
  }
  return out;
}

/** True when a scope's settings can ever fire an alert (some threshold and some budget). */
export function alertsApply(scope: AlertScope): boolean {
  const { tokens, usd, requests } = scope.budgets;
  return scope.thresholds.length > 0 && (tokens !== undefined || usd !== undefined || requests !== undefined);
}
