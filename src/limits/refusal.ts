/**
 * What a budget's refusal alert records (pure): the refused scope's budget, period key, limit and
 * what was spent (never what was held), from the scope as the refusing reserve saw it. Null for a
 * refusal by a rate limit (rpm, tpm, concurrent): those alert nothing.
 */
import type { BudgetKind } from '../core/alert-message';
import type { Budgets } from '../core/settings';
import { PERIODS, type Period } from './periods';
import { type LedgerRow, type LimitKind, NANOS_PER_USD } from './protocol';
import type { Refusal } from './alerts-store';

const UNITS = ['tokens', 'usd', 'requests'] as const;

export function refusalOf(
  tenantId: string,
  scope: string,
  kind: LimitKind,
  budgets: Budgets,
  ledger: Readonly<Record<Period, LedgerRow>>,
  periods: Readonly<Record<Period, string>>,
): Refusal | null {
  const [unit, period] = kind.split('_') as [string, string | undefined];
  const u = UNITS.find((x) => x === unit);
  const p = PERIODS.find((x) => x === period);
  if (!u || !p) return null;
  const limit = budgets[u]?.[p];
  if (limit === undefined) return null;
  const row = ledger[p];
  const spent =
    u === 'usd' ? row.nanosSpent / NANOS_PER_USD : u === 'tokens' ? row.tokensSpent : row.requestsSpent;
  return { tenantId, scope, budget: kind as BudgetKind, period: periods[p], limit, spent };
}
