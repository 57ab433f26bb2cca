import { describe, expect, it } from 'vitest';
import { periodEnd, periodKey } from '../../../src/limits/periods';
import {
  EMPTY_WINDOW,
  WINDOW_MS,
  add,
  adjust,
  fits,
  resetMs,
  roll,
  used,
  waitMs,
  type WindowCounts,
} from '../../../src/limits/window';

const T0 = Date.UTC(2026, 10, 3, 12, 0, 0); // a minute boundary

function fill(n: number, at: number, w: WindowCounts = EMPTY_WINDOW): WindowCounts {
  for (let i = 0; i < n; i++) w = add(w, 1, at);
  return w;
}

describe('sliding-window counters', () => {
  it('admits exactly the limit within a fresh minute, then asks to wait', () => {
    let w = EMPTY_WINDOW;
    let admitted = 0;
    for (let i = 0; i < 10; i++) {
      const now = T0 + i * 100;
      if (!fits(w, 5, 1, now)) continue;
      w = add(w, 1, now);
      admitted++;
    }
    expect(admitted).toBe(5);
    expect(waitMs(w, 5, 1, T0 + 1000)).toBeGreaterThan(0);
  });

  it('resets when the clock moves two minutes on', () => {
    const w = fill(5, T0);
    expect(used(w, T0 + 2 * WINDOW_MS)).toBe(0);
    expect(fits(w, 5, 5, T0 + 2 * WINDOW_MS)).toBe(true);
    expect(roll(w, T0 + 2 * WINDOW_MS + 5)).toEqual({ start: T0 + 2 * WINDOW_MS, prev: 0, cur: 0 });
  });

  it('weights the previous minute by its remaining overlap', () => {
    const w = fill(6, T0);
    expect(used(w, T0 + WINDOW_MS)).toBe(6);
    expect(used(w, T0 + WINDOW_MS + WINDOW_MS / 2)).toBe(3);
    expect(used(w, T0 + WINDOW_MS + (5 * WINDOW_MS) / 6)).toBeCloseTo(1, 9);
  });

  it('does not let a burst straddling the minute boundary through at twice the rate', () => {
    const w = fill(5, T0 + WINDOW_MS - 1);
    expect(fits(w, 5, 1, T0 + WINDOW_MS + 1)).toBe(false);
  });

  it('says exactly when the next request fits, and that is when it does', () => {
    const w = fill(4, T0);
    const now = T0 + 10_000;
    const wait = waitMs(w, 4, 1, now)!;
    // the next minute, plus a quarter of it for one of the four to slide out
    expect(wait).toBe(WINDOW_MS - 10_000 + WINDOW_MS / 4);
    expect(fits(w, 4, 1, now + wait)).toBe(true);
    expect(fits(w, 4, 1, now + wait - 1)).toBe(false);
  });

  it('never admits a cost larger than the limit itself', () => {
    expect(waitMs(EMPTY_WINDOW, 100, 101, T0)).toBeNull();
  });

  it('reports the reset as the time until the whole allowance is back', () => {
    const w = fill(1, T0);
    expect(resetMs(w, T0 + 15_000)).toBe(2 * WINDOW_MS - 15_000);
    expect(resetMs(w, T0 + WINDOW_MS + 15_000)).toBe(WINDOW_MS - 15_000);
    expect(resetMs(w, T0 + 2 * WINDOW_MS)).toBe(0);
  });

  it('corrects a charge in the minute it was made, or in the previous one, and ignores older ones', () => {
    const w = add(EMPTY_WINDOW, 100, T0);
    expect(adjust(w, T0, -60, T0 + 1).cur).toBe(40);
    expect(adjust(w, T0, -60, T0 + WINDOW_MS + 1)).toMatchObject({ prev: 40, cur: 0 });
    expect(adjust(w, T0, -60, T0 + 2 * WINDOW_MS + 1)).toMatchObject({ prev: 0, cur: 0 });
    expect(adjust(w, T0, -500, T0 + 1).cur).toBe(0);
  });
});

describe('budget periods', () => {
  it('names the UTC day, month and total', () => {
    const now = Date.UTC(2026, 0, 31, 23, 59, 59);
    expect(periodKey('day', now)).toBe('2026-01-31');
    expect(periodKey('month', now)).toBe('2026-01');
    expect(periodKey('total', now)).toBe('total');
    expect(periodKey('day', now + 1000)).toBe('2026-02-01');
  });

  it('ends days at UTC midnight and months on the 1st; the total never ends', () => {
    const now = Date.UTC(2026, 11, 31, 8);
    expect(periodEnd('day', now)).toBe(Date.UTC(2027, 0, 1));
    expect(periodEnd('month', now)).toBe(Date.UTC(2027, 0, 1));
    expect(periodEnd('month', Date.UTC(2026, 1, 10))).toBe(Date.UTC(2026, 2, 1));
    expect(periodEnd('total', now)).toBeNull();
  });
});
