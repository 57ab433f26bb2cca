/**
 * The usage report's status (scopeState, pure): ok, near its limit at 90 % spent and held, refusing for
 * five minutes after a refusal (or all period when a budget refused a request it can no longer fit),
 * exhausted when a budget is spent;
 * and the report built from a scope's dump (requests budgets, a refusal older than the settings ignored).
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_LEDGER, type LedgerRow, type ScopeDump } from '../../../src/limits/protocol';
import { REFUSING_WINDOW_MS, scopeState, usageReport } from '../../../src/limits/report';
import type { Budgets } from '../../../src/core/settings';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const PERIODS = { day: '2026-11-27', month: '2026-11', total: 'total' } as const;
const EMPTY_WINDOW = { start: 0, prev: 0, cur: 0 };

function dump(ledger: Partial<LedgerRow> = {}, lastDenial: ScopeDump['lastDenial'] = null): ScopeDump {
  const row = { ...EMPTY_LEDGER, ...ledger };
  return {
    state: {
      inflight: 0,
      requests: EMPTY_WINDOW,
      tokens: EMPTY_WINDOW,
      ledger: { day: row, month: EMPTY_LEDGER, total: EMPTY_LEDGER },
    },
    periods: PERIODS,
    lastDenial,
  };
}

const report = (budgets: Budgets, d: ScopeDump, settingsChangedAt?: number) =>
  usageReport(
    { scope: 'key', id: 'key_1', tenantId: 'ten_1', settings: { limits: {}, budgets }, settingsChangedAt },
    d,
    NOW,
  );

describe('scopeState', () => {
  it('is ok with no budgets, or well within them', () => {
    expect(report({}, dump({ requestsSpent: 1000 })).status).toBe('ok');
    expect(report({ requests: { day: 10 } }, dump({ requestsSpent: 8 })).status).toBe('ok');
  });

  it('is near_limit at 90 % of a budget, spent and held together', () => {
    expect(report({ requests: { day: 10 } }, dump({ requestsSpent: 8, requestsHeld: 1 })).status).toBe(
      'near_limit',
    );
    expect(report({ tokens: { day: 6000 } }, dump({ tokensSpent: 5400 })).status).toBe('near_limit');
  });

  it('is exhausted when a budget is spent', () => {
    expect(report({ requests: { day: 10 } }, dump({ requestsSpent: 10 })).status).toBe('exhausted');
    const usd = report({ usd: { day: 1 } }, dump({ nanosSpent: 1_000_000_000 }));
    expect(usd.budget_usage.usd.day).toMatchObject({ limit: 1, spent: 1, remaining: 0 });
    expect(usd.status).toBe('exhausted');
  });

  it('stays refusing when a budget refused a request this period and nothing it holds can be released', () => {
    // The example: refused at 5,900 of 6,000 tokens showed "active"; a smaller request still
    // fits, so it is refusing (for the rest of the period), not exhausted.
    const refused = { kind: 'tokens_day' as const, at: NOW - 3600_000, count: 4 };
    expect(report({ tokens: { day: 6000 } }, dump({ tokensSpent: 5900 }, refused)).status).toBe('refusing');
    // Something in flight may come back: refusing (recent) rather than exhausted.
    const recent = { ...refused, at: NOW - 60_000 };
    expect(
      report({ tokens: { day: 6000 } }, dump({ tokensSpent: 5000, tokensHeld: 900 }, recent)).status,
    ).toBe('refusing');
    // A refusal of yesterday's budget says nothing about today's.
    const yesterday = { ...refused, at: NOW - 13 * 3600_000 };
    expect(report({ tokens: { day: 6000 } }, dump({ tokensSpent: 10 }, yesterday)).status).toBe('ok');
  });

  it('is refusing for five minutes after a rate refusal, then ok again', () => {
    const rpm = { kind: 'rpm' as const, at: NOW - REFUSING_WINDOW_MS + 1000, count: 1 };
    expect(report({}, dump({}, rpm)).status).toBe('refusing');
    expect(report({}, dump({}, { ...rpm, at: NOW - REFUSING_WINDOW_MS - 1 })).status).toBe('ok');
  });

  it('ignores a refusal made before the settings last changed (a raised limit)', () => {
    const refused = { kind: 'requests_day' as const, at: NOW - 60_000, count: 1 };
    const d = dump({ requestsSpent: 3 }, refused);
    expect(report({ requests: { day: 100 } }, d).status).toBe('refusing');
    const raised = report({ requests: { day: 100 } }, d, NOW - 30_000);
    expect(raised.last_denial).toBeNull();
    expect(raised.status).toBe('ok');
  });

  it('reads a report as is (pure, the clock passed in)', () => {
    const r = report({ requests: { day: 10 } }, dump({ requestsSpent: 9 }));
    expect(scopeState(r, NOW)).toBe('near_limit');
    expect(r.budget_usage.requests.day).toMatchObject({
      period: '2026-11-27',
      limit: 10,
      spent: 9,
      remaining: 1,
    });
  });
});
