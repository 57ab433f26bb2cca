import { describe, expect, it } from 'vitest';
import { IN_FLIGHT_RETRY_MS, decide, quotaOf, type ScopeView } from '../../../src/limits/check';
import { NOTHING, applyReserve, applySettle } from '../../../src/limits/ledger';
import { EMPTY_LEDGER, type Charge, type ScopeSettings, type ScopeState } from '../../../src/limits/protocol';
import { EMPTY_WINDOW, minuteOf } from '../../../src/limits/window';

const NOW = Date.UTC(2026, 10, 3, 12, 0, 0);
const FRESH: ScopeState = {
  inflight: 0,
  requests: EMPTY_WINDOW,
  tokens: EMPTY_WINDOW,
  ledger: { day: EMPTY_LEDGER, month: EMPTY_LEDGER, total: EMPTY_LEDGER },
};
const NONE: ScopeSettings = { limits: {}, budgets: {} };
const cost = (tokens: number, nanos = 0): Charge => ({ tokens, nanos });

function views(
  key: ScopeSettings,
  tenant: ScopeSettings,
  keyState = FRESH,
  tenantState = FRESH,
): ScopeView[] {
  return [
    { scope: 'key', settings: key, state: keyState },
    { scope: 'tenant', settings: tenant, state: tenantState },
  ];
}

/** Admits requests one after another, as the Durable Object does, and returns how many got in. */
function admitAll(
  settings: ScopeSettings,
  each: Charge,
  tries: number,
): { admitted: number; state: ScopeState } {
  let state = FRESH;
  let admitted = 0;
  for (let i = 0; i < tries; i++) {
    if (!decide(views(settings, NONE, state), each, NOW).ok) continue;
    state = applyReserve(state, each, NOW);
    admitted++;
  }
  return { admitted, state };
}

describe('the admission decision', () => {
  it('admits everything when nothing is configured', () => {
    expect(decide(views(NONE, NONE), cost(1e9), NOW)).toEqual({ ok: true });
  });

  it('holds the worst case of every admitted request against a token budget', () => {
    const { admitted, state } = admitAll({ limits: {}, budgets: { tokens: { day: 1000 } } }, cost(300), 10);
    expect(admitted).toBe(3);
    expect(state.ledger.day.tokensHeld).toBe(900);
  });

  it('names the scope and the limit that refused, with what is used', () => {
    const { state } = admitAll({ limits: { concurrent: 2 }, budgets: {} }, cost(1), 2);
    const d = decide(views({ limits: { concurrent: 2 }, budgets: {} }, NONE, state), cost(1), NOW);
    expect(d).toMatchObject({
      ok: false,
      denial: { scope: 'key', kind: 'concurrent', limit: 2, used: 2, retryAfterMs: IN_FLIGHT_RETRY_MS },
    });
  });

  it('applies the tenant limit even when the key has none', () => {
    const tenant: ScopeSettings = { limits: { rpm: 1 }, budgets: {} };
    const tenantState = applyReserve(FRESH, cost(1), NOW);
    const d = decide(views(NONE, tenant, FRESH, tenantState), cost(1), NOW);
    expect(d.ok).toBe(false);
    expect(!d.ok && d.denial).toMatchObject({ scope: 'tenant', kind: 'rpm', limit: 1, used: 1 });
  });

  it('reports the limit with the longest wait when several refuse', () => {
    const key: ScopeSettings = { limits: { rpm: 1 }, budgets: { tokens: { month: 10 } } };
    const state = applyReserve(FRESH, cost(10), NOW);
    const spent = applySettle(
      state,
      { reserved: cost(10), actual: cost(10), chargedAt: minuteOf(NOW), held: true },
      NOW,
    );
    const d = decide(views(key, NONE, spent), cost(1), NOW);
    expect(!d.ok && d.denial.kind).toBe('tokens_month');
    expect(!d.ok && d.denial.retryAfterMs).toBe(Date.UTC(2026, 11, 1) - NOW);
  });

  it('asks to retry shortly when only reservations in flight block a budget', () => {
    const key: ScopeSettings = { limits: {}, budgets: { tokens: { total: 100 } } };
    const held = applyReserve(FRESH, cost(80), NOW);
    const d = decide(views(key, NONE, held), cost(50), NOW);
    expect(!d.ok && d.denial).toMatchObject({
      kind: 'tokens_total',
      used: 80,
      retryAfterMs: IN_FLIGHT_RETRY_MS,
    });
  });

  it('says a spent total budget never comes back, and neither does a request larger than the limit', () => {
    const key: ScopeSettings = { limits: { tpm: 100 }, budgets: { usd: { total: 1 } } };
    const spent = applySettle(
      applyReserve(FRESH, cost(1, 1e9), NOW),
      { reserved: cost(1, 1e9), actual: cost(1, 1e9), chargedAt: minuteOf(NOW), held: true },
      NOW,
    );
    const total = decide(views(key, NONE, spent), cost(1, 1), NOW);
    expect(!total.ok && total.denial).toMatchObject({
      kind: 'usd_total',
      limit: 1,
      used: 1,
      retryAfterMs: null,
    });
    const huge = decide(views(key, NONE), cost(101), NOW);
    expect(!huge.ok && huge.denial).toMatchObject({ kind: 'tpm', retryAfterMs: null });
  });

  it('reports the tighter of the key and tenant windows in the quota', () => {
    const key: ScopeSettings = { limits: { rpm: 10, tpm: 1000 }, budgets: {} };
    const tenant: ScopeSettings = { limits: { rpm: 3 }, budgets: {} };
    const q = quotaOf(
      views(key, tenant, applyReserve(FRESH, cost(100), NOW), applyReserve(FRESH, cost(100), NOW)),
      NOW,
    );
    expect(q.requests).toMatchObject({ limit: 3, remaining: 2 });
    expect(q.tokens).toMatchObject({ limit: 1000, remaining: 900 });
  });
});

describe('settling', () => {
  it('replaces the hold with the actual charge, so spent is the sum of settled usage', () => {
    let state = FRESH;
    for (const actual of [120, 7, 0]) {
      state = applyReserve(state, cost(200, 2000), NOW);
      state = applySettle(
        state,
        {
          reserved: cost(200, 2000),
          actual: cost(actual, actual * 10),
          chargedAt: minuteOf(NOW),
          held: true,
        },
        NOW,
      );
    }
    expect(state.inflight).toBe(0);
    expect(state.ledger.day).toMatchObject({
      tokensSpent: 127,
      tokensHeld: 0,
      nanosSpent: 1270,
      nanosHeld: 0,
    });
    expect(state.ledger.total.tokensSpent).toBe(127);
    expect(state.tokens.cur).toBe(127);
    expect(state.requests.cur).toBe(3);
  });

  it('releases a request that failed before the upstream answered, but still counts it as a request', () => {
    const state = applySettle(
      applyReserve(FRESH, cost(500), NOW),
      { reserved: cost(500), actual: NOTHING, chargedAt: minuteOf(NOW), held: true },
      NOW,
    );
    expect(state).toMatchObject({ inflight: 0, tokens: { cur: 0 }, requests: { cur: 1 } });
    expect(state.ledger.day).toEqual({ ...EMPTY_LEDGER, requestsSpent: 1 });
  });

  it('records a late settle after expiry as spend without releasing the hold twice', () => {
    const reserved = applyReserve(FRESH, cost(500), NOW);
    const expired = applySettle(
      reserved,
      { reserved: cost(500), actual: NOTHING, chargedAt: minuteOf(NOW), held: true },
      NOW + 1,
    );
    const late = applySettle(
      expired,
      { reserved: cost(500), actual: cost(42), chargedAt: minuteOf(NOW), held: false },
      NOW + 2,
    );
    expect(late.inflight).toBe(0);
    expect(late.ledger.day).toMatchObject({ tokensSpent: 42, tokensHeld: 0, nanosSpent: 0, nanosHeld: 0 });
  });
});
