import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LATE_SETTLE_GRACE_MS, type Limiter } from '../../../src/durable/limiter';
import type { ReserveInput, ScopeSettings } from '../../../src/limits/protocol';
import { WINDOW_MS } from '../../../src/limits/window';
import { limiterOf } from '../limits-helpers';

// Far in the future, so alarms set by the injected clock never fire on their own during the test.
const T0 = Date.UTC(2099, 10, 3, 23, 59, 0);
const NONE: ScopeSettings = { limits: {}, budgets: {} };

function input(key: ScopeSettings, tokens = 100, ttlMs = 60_000, tenant: ScopeSettings = NONE): ReserveInput {
  return { keyId: 'key_a', key, tenant, cost: { tokens, nanos: tokens * 10 }, ttlMs };
}

/** Runs `f` inside a fresh tenant's Limiter with its clock set by `clock.now`. */
function withLimiter<R>(f: (limiter: Limiter, clock: { now: number }) => R | Promise<R>) {
  const stub = limiterOf(`ten_${crypto.randomUUID()}`);
  const clock = { now: T0 };
  return {
    stub,
    run: () =>
      runInDurableObject(stub, (limiter) => {
        limiter.now = () => clock.now;
        return f(limiter, clock);
      }),
  };
}

describe('the Limiter Durable Object', () => {
  it('refuses past the minute window and admits again once the clock has moved on', async () => {
    await withLimiter((limiter, clock) => {
      const rpm2 = input({ limits: { rpm: 2 }, budgets: {} });
      expect(limiter.reserve(rpm2).ok).toBe(true);
      expect(limiter.reserve(rpm2).ok).toBe(true);
      const refused = limiter.reserve(rpm2);
      expect(refused).toMatchObject({ ok: false, denial: { scope: 'key', kind: 'rpm', limit: 2, used: 2 } });
      clock.now = T0 + 2 * WINDOW_MS;
      expect(limiter.reserve(rpm2).ok).toBe(true);
    }).run();
  });

  it('starts a new daily budget at UTC midnight while the monthly one carries on', async () => {
    await withLimiter((limiter, clock) => {
      const budgets = { limits: {}, budgets: { tokens: { day: 100, month: 150 } } };
      const first = limiter.reserve(input(budgets, 100));
      expect(first.ok && limiter.settle(first.id, { tokens: 100, nanos: 0 })).toBe(true);
      expect(limiter.reserve(input(budgets, 1))).toMatchObject({ ok: false, denial: { kind: 'tokens_day' } });
      clock.now = T0 + WINDOW_MS; // 00:00 on the 4th
      expect(limiter.reserve(input(budgets, 50)).ok).toBe(true);
      expect(limiter.reserve(input(budgets, 1))).toMatchObject({
        ok: false,
        denial: { kind: 'tokens_month', used: 150 },
      });
      expect(limiter.dump('key_a').periods.day).toBe('2099-11-04');
    }).run();
  });

  it('keeps the key and tenant ledgers together and settles each reservation once', async () => {
    await withLimiter((limiter) => {
      const r = limiter.reserve(input({ limits: {}, budgets: { tokens: { total: 1000 } } }, 300));
      if (!r.ok) throw new Error('refused');
      expect(limiter.dump('key_a').state.ledger.total).toMatchObject({
        tokensSpent: 0,
        tokensHeld: 300,
        nanosSpent: 0,
        nanosHeld: 3000,
      });
      expect(limiter.settle(r.id, { tokens: 120, nanos: 1200 })).toBe(true);
      expect(limiter.settle(r.id, { tokens: 120, nanos: 1200 })).toBe(false);
      for (const scope of ['key_a', null]) {
        expect(limiter.dump(scope).state.ledger.total).toMatchObject({
          tokensSpent: 120,
          tokensHeld: 0,
          nanosSpent: 1200,
          nanosHeld: 0,
        });
        expect(limiter.dump(scope).state.inflight).toBe(0);
      }
    }).run();
  });

  it('releases an unsettled reservation at its expiry, and still records a settle that arrives late', async () => {
    const clock = { now: T0 };
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    const id = await runInDurableObject(stub, (limiter) => {
      limiter.now = () => clock.now;
      const r = limiter.reserve(input({ limits: { concurrent: 1 }, budgets: {} }, 500, 1000));
      if (!r.ok) throw new Error('refused');
      expect(limiter.reserve(input({ limits: { concurrent: 1 }, budgets: {} })).ok).toBe(false);
      clock.now = T0 + 1000;
      return r.id;
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await runInDurableObject(stub, (limiter) => {
      expect(limiter.dump('key_a').state).toMatchObject({
        inflight: 0,
        ledger: { total: { tokensHeld: 0, tokensSpent: 0 } },
      });
      expect(limiter.reserve(input({ limits: { concurrent: 1 }, budgets: {} })).ok).toBe(true);
      expect(limiter.settle(id, { tokens: 42, nanos: 420 })).toBe(true);
      expect(limiter.dump('key_a').state.ledger.total.tokensSpent).toBe(42);
      expect(limiter.dump('key_a').state.inflight).toBe(1);
    });
  });

  it('forgets expired reservations after the grace period', async () => {
    const clock = { now: T0 };
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    const id = await runInDurableObject(stub, (limiter) => {
      limiter.now = () => clock.now;
      const r = limiter.reserve(input(NONE, 10, 1000));
      clock.now = T0 + 1000;
      return r.ok ? r.id : '';
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    clock.now = T0 + 1000 + LATE_SETTLE_GRACE_MS;
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (limiter) => limiter.settle(id, { tokens: 1, nanos: 1 }))).toBe(
      false,
    );
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });
});
