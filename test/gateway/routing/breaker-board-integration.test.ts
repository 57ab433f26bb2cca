/** The isolate-side breaker board, with the real Breaker objects (two boards stand for two isolates). */
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Breaker, breakerObjects } from '../../../src/durable/breaker';
import type { BreakerStore } from '../../../src/routing/breaker-protocol';
import { COOLDOWN_MS, MIN_CALLS } from '../../../src/routing/breaker';
import { createBreakerBoard, REFRESH_MS } from '../../../src/routing/breaker-board';
import { MIN_FACTOR } from '../../../src/routing/health';

const store = breakerObjects(env.BREAKER);
const FAIL = { ok: false, ttfbMs: null } as const;
const OK = { ok: true, ttfbMs: 100 } as const;
const target = () => `mock/${crypto.randomUUID()}`;

/** A shared store that is down: every call fails. */
const down: BreakerStore = {
  report: () => Promise.reject(new Error('down')),
  view: () => Promise.reject(new Error('down')),
  claimProbe: () => Promise.reject(new Error('down')),
};

/** Sets the target's Breaker object's clock. */
async function setObjectClock(t: string, now: number) {
  await runInDurableObject(env.BREAKER.get(env.BREAKER.idFromName(t)), (breaker: Breaker) => {
    breaker.now = () => now;
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the breaker board', () => {
  it('opens a target on its own after MIN_CALLS failures when the shared object is down', async () => {
    const board = createBreakerBoard(down);
    const t = target();
    const now = Date.now();
    for (let i = 1; i < MIN_CALLS; i++) {
      await board.report(t, FAIL, now);
      expect(board.check(t, now)).toBe('closed');
    }
    await board.report(t, FAIL, now);
    expect(board.check(t, now)).toBe('open');
    expect(await board.admit(t, now + COOLDOWN_MS - 1)).toBe('open');

    // Half-open: the object cannot be asked, so the isolate grants one probe itself.
    const later = now + COOLDOWN_MS;
    expect(board.check(t, later)).toBe('half-open');
    const verdicts = await Promise.all([board.admit(t, later), board.admit(t, later)]);
    expect(verdicts.sort()).toEqual(['open', 'probe']);
    await board.report(t, OK, later + 10);
    expect(board.check(t, later + 10)).toBe('closed');
  });

  it('skips a target another isolate opened, once a report has refreshed the stale view', async () => {
    const a = createBreakerBoard(store);
    const b = createBreakerBoard(store);
    const t = target();
    const now = Date.now();
    expect(b.check(t, now)).toBe('closed');
    for (let i = 0; i < MIN_CALLS; i++) await a.report(t, FAIL, now);
    expect(a.check(t, now)).toBe('open');

    expect(b.check(t, now)).toBe('closed');
    await b.report(target(), OK, now); // any report carries the refresh of views consulted and stale
    expect(b.check(t, now)).toBe('open');
    expect(await b.admit(t, now)).toBe('open');
  });

  it('gives the half-open probe to one isolate only, and the others learn that it closed', async () => {
    // The failures come from a third isolate: neither contender has a local breaker of its own, so whichever
    // wins the probe, the other's view is the shared one alone (a local breaker would half-open by itself).
    const a = createBreakerBoard(store);
    const b = createBreakerBoard(store);
    const c = createBreakerBoard(store);
    const t = target();
    const now = Date.now();
    a.check(t, now);
    b.check(t, now);
    for (let i = 0; i < MIN_CALLS; i++) await c.report(t, FAIL, now);
    await a.report(target(), OK, now);
    await b.report(target(), OK, now);

    const later = now + COOLDOWN_MS + 1_000;
    await setObjectClock(t, later);
    expect([a.check(t, later), b.check(t, later)]).toEqual(['half-open', 'half-open']);
    const [va, vb] = await Promise.all([a.admit(t, later), b.admit(t, later)]);
    expect([va, vb].sort()).toEqual(['open', 'probe']);
    const [prober, other] = va === 'probe' ? [a, b] : [b, a];
    expect(await other.admit(t, later)).toBe('open');

    await prober.report(t, { ok: true, ttfbMs: 250 }, later + 5);
    expect(prober.check(t, later + 5)).toBe('closed');
    expect(other.check(t, later + REFRESH_MS)).toBe('open');
    await other.report(target(), OK, later + REFRESH_MS);
    expect(other.check(t, later + REFRESH_MS)).toBe('closed');
  });

  it('lets only one caller of an isolate claim the probe when two race', async () => {
    const board = createBreakerBoard(store);
    const t = target();
    const now = Date.now();
    await setObjectClock(t, now);
    for (let i = 0; i < MIN_CALLS; i++) await board.report(t, FAIL, now);
    const later = now + COOLDOWN_MS;
    await setObjectClock(t, later);
    const verdicts = await Promise.all([board.admit(t, later), board.admit(t, later), board.admit(t, later)]);
    expect(verdicts.sort()).toEqual(['open', 'open', 'probe']);
  });

  it('down-weights a slower and a failing target relative to a healthy peer', async () => {
    const board = createBreakerBoard(store);
    const [fast, slow, flaky] = [target(), target(), target()];
    const now = Date.now();
    for (let i = 0; i < 4; i++) {
      await board.report(fast, { ok: true, ttfbMs: 100 }, now);
      await board.report(slow, { ok: true, ttfbMs: 600 }, now);
      await board.report(flaky, i < 2 ? FAIL : { ok: true, ttfbMs: 100 }, now);
    }
    const [f, s, k] = board.factors([fast, slow, flaky], now);
    expect(f).toBe(1);
    expect(s).toBeCloseTo(0.25, 5); // 1.5 × 100 / 600
    expect(k).toBeCloseTo(1 - 2 / 9, 2); // 2 failures in 4 calls, plus the prior of 5
    expect(Math.min(f ?? 0, s ?? 0, k ?? 0)).toBeGreaterThanOrEqual(MIN_FACTOR);
  });
});
