/** The health factor (pure): bounds, neutrality for healthy peers, ordering by errors and speed, decay. */
import { describe, expect, it } from 'vitest';
import {
  groupFactors,
  HALF_LIFE_MS,
  type Health,
  MIN_FACTOR,
  NO_HEALTH,
  observe,
  SPEED_SLACK,
} from '../../../src/routing/health';

const T0 = 5_000_000;

/** Health after `n` calls at T0, the first `failures` of them failed, the rest answering in `ttfbMs`. */
function health(n: number, failures: number, ttfbMs: number): Health {
  let h = NO_HEALTH;
  for (let i = 0; i < n; i++) {
    const ok = i >= failures;
    h = observe(h, { at: T0, ok, ttfbMs: ok ? ttfbMs : null }, T0);
  }
  return h;
}

describe('groupFactors', () => {
  it('leaves unknown and equally healthy targets at 1', () => {
    expect(groupFactors([NO_HEALTH, NO_HEALTH], T0)).toEqual([1, 1]);
    expect(groupFactors([health(20, 0, 300), health(20, 0, 300), NO_HEALTH], T0)).toEqual([1, 1, 1]);
  });

  it('does not penalise a target within SPEED_SLACK of its fastest peer', () => {
    const [fast, near] = groupFactors([health(20, 0, 200), health(20, 0, 200 * SPEED_SLACK)], T0);
    expect([fast, near]).toEqual([1, 1]);
  });

  it('scales a slower target by how far it is beyond the slack', () => {
    const [fast, slow] = groupFactors([health(20, 0, 200), health(20, 0, 600)], T0);
    expect(fast).toBe(1);
    expect(slow).toBeCloseTo((SPEED_SLACK * 200) / 600, 10);
  });

  it('orders targets by failures, and one failure costs little', () => {
    const factors = groupFactors(
      [0, 1, 4, 10, 19].map((f) => health(20, f, 300)),
      T0,
    );
    for (let i = 1; i < factors.length; i++) expect(factors[i]).toBeLessThan(factors[i - 1] ?? 0);
    expect(groupFactors([health(1, 1, 0)], T0)[0]).toBeGreaterThan(0.8);
  });

  it('stays within [MIN_FACTOR, 1] even for a target that always fails or is very slow', () => {
    const peers = [health(50, 0, 100), health(50, 50, 0), health(50, 0, 1_000_000), health(50, 25, 50_000)];
    const factors = groupFactors(peers, T0);
    for (const f of factors) {
      expect(f).toBeGreaterThanOrEqual(MIN_FACTOR);
      expect(f).toBeLessThanOrEqual(1);
    }
    expect(factors[1]).toBe(MIN_FACTOR);
    expect(factors[2]).toBe(MIN_FACTOR);
  });

  it('drifts back to neutral when a failing, slow target has not been called for a while', () => {
    const peers = [health(20, 0, 100), health(20, 10, 2_000)];
    expect(groupFactors(peers, T0)[1]).toBeLessThan(0.2);
    const later = groupFactors(peers, T0 + 10 * HALF_LIFE_MS);
    expect(later[1]).toBeGreaterThan(0.95);
  });
});

describe('observe', () => {
  it('counts a late-known outcome for less, and only successes in the mean time to first byte', () => {
    const h = observe(
      observe(NO_HEALTH, { at: T0, ok: false, ttfbMs: 50 }, T0),
      {
        at: T0 - HALF_LIFE_MS,
        ok: true,
        ttfbMs: 400,
      },
      T0,
    );
    expect(h.calls).toBeCloseTo(1.5, 10);
    expect(h.failures).toBe(1);
    expect(h.ttfbSum / h.ttfbWeight).toBe(400);
  });
});
