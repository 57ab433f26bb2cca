import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/limits/check';
import { NOTHING, applyReserve, applySettle } from '../../../src/limits/ledger';
import {
  EMPTY_LEDGER,
  InvalidChargeError,
  isCharge,
  type Charge,
  type ScopeState,
} from '../../../src/limits/protocol';
import { EMPTY_WINDOW } from '../../../src/limits/window';

const NOW = Date.UTC(2026, 10, 3, 12, 0, 0);
const FRESH: ScopeState = {
  inflight: 0,
  requests: EMPTY_WINDOW,
  tokens: EMPTY_WINDOW,
  ledger: { day: EMPTY_LEDGER, month: EMPTY_LEDGER, total: EMPTY_LEDGER },
};
const BAD: Charge[] = [
  { tokens: -1, nanos: 0 },
  { tokens: -1_000_000, nanos: 0 },
  { tokens: Infinity, nanos: 0 },
  { tokens: -Infinity, nanos: 0 },
  { tokens: Number.NaN, nanos: 0 },
  { tokens: 0.5, nanos: 0 },
  { tokens: 2 ** 53, nanos: 0 },
  { tokens: 1, nanos: -1 },
  { tokens: 1, nanos: Infinity },
];

describe('the ledger refuses charges it cannot hold', () => {
  it('accepts only non-negative safe integers', () => {
    expect(isCharge({ tokens: 0, nanos: 0 })).toBe(true);
    expect(isCharge({ tokens: 2 ** 53 - 1, nanos: 1 })).toBe(true);
    for (const c of BAD) expect(isCharge(c), JSON.stringify(c)).toBe(false);
    expect(isCharge(null)).toBe(false);
    expect(isCharge({ tokens: '1', nanos: 0 })).toBe(false);
  });

  it('throws from decide and applyReserve instead of admitting or holding a bad cost', () => {
    const scopes = [
      { scope: 'key' as const, settings: { limits: {}, budgets: { tokens: { day: 10 } } }, state: FRESH },
    ];
    for (const c of BAD) {
      expect(() => decide(scopes, c, NOW)).toThrow(InvalidChargeError);
      expect(() => applyReserve(FRESH, c, NOW)).toThrow(InvalidChargeError);
    }
  });

  it('throws from applySettle for a bad reserved or actual amount', () => {
    const held = applyReserve(FRESH, { tokens: 5, nanos: 5 }, NOW);
    for (const c of BAD) {
      expect(() =>
        applySettle(held, { reserved: { tokens: 5, nanos: 5 }, actual: c, chargedAt: NOW, held: true }, NOW),
      ).toThrow(InvalidChargeError);
      expect(() =>
        applySettle(held, { reserved: c, actual: NOTHING, chargedAt: NOW, held: true }, NOW),
      ).toThrow(InvalidChargeError);
    }
  });
});
