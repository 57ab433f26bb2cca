import { describe, expect, it } from 'vitest';
import { alertsApply, crossingKey, crossings } from '../../../src/limits/alerts';
import { EMPTY_LEDGER, type LedgerRow } from '../../../src/limits/protocol';

const PERIODS = { day: '2026-11-03', month: '2026-11', total: 'total' };
const ledger = (day: Partial<LedgerRow>, month: Partial<LedgerRow> = {}) => ({
  day: { ...EMPTY_LEDGER, ...day },
  month: { ...EMPTY_LEDGER, ...month },
  total: EMPTY_LEDGER,
});

describe('budget alert crossings', () => {
  it('lists every threshold the spend has reached, lowest first', () => {
    const scope = { budgets: { tokens: { day: 1000 } }, thresholds: [100, 50, 80] };
    const due = crossings(scope, ledger({ tokensSpent: 850 }), PERIODS, new Set());
    expect(due.map((c) => c.threshold)).toEqual([50, 80]);
    expect(due[0]).toEqual({
      budget: 'tokens_day',
      period: '2026-11-03',
      threshold: 50,
      limit: 1000,
      spent: 850,
    });
  });

  it('ignores what is only held', () => {
    const scope = { budgets: { tokens: { day: 1000 } }, thresholds: [50] };
    expect(crossings(scope, ledger({ tokensSpent: 100, tokensHeld: 900 }), PERIODS, new Set())).toEqual([]);
  });

  it('skips thresholds already fired for the same period', () => {
    const scope = { budgets: { tokens: { day: 1000 } }, thresholds: [50, 80] };
    const fired = new Set([crossingKey({ budget: 'tokens_day', period: '2026-11-03', threshold: 50 })]);
    expect(crossings(scope, ledger({ tokensSpent: 900 }), PERIODS, fired).map((c) => c.threshold)).toEqual([
      80,
    ]);
  });

  it('compares USD budgets in nano-dollars, exactly at the boundary', () => {
    const scope = { budgets: { usd: { month: 0.3 } }, thresholds: [10] };
    expect(crossings(scope, ledger({}, { nanosSpent: 29_999_999 }), PERIODS, new Set())).toEqual([]);
    expect(crossings(scope, ledger({}, { nanosSpent: 30_000_000 }), PERIODS, new Set())).toMatchObject([
      { budget: 'usd_month', period: '2026-11', threshold: 10, spent: 0.03 },
    ]);
  });

  it('applies only with both a threshold and a budget', () => {
    expect(alertsApply({ budgets: {}, thresholds: [50] })).toBe(false);
    expect(alertsApply({ budgets: { usd: { day: 1 } }, thresholds: [] })).toBe(false);
    expect(alertsApply({ budgets: { usd: { day: 1 } }, thresholds: [50] })).toBe(true);
  });
});
