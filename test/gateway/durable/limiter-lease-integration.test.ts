import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ReserveInput, ScopeSettings } from '../../../src/limits/protocol';
import { LEASE_SHARE } from '../../../src/limits/lease-size';
import { limiterOf } from '../limits-helpers';

// Far in the future, so alarms set by the injected clock never fire on their own during the test.
const T0 = Date.UTC(2099, 10, 3, 12, 0, 0);
const NONE: ScopeSettings = { limits: {}, budgets: {} };

function lease(key: ScopeSettings, want: number, tokens = 100, ttlMs = 60_000): ReserveInput {
  return { keyId: 'key_a', key, tenant: NONE, cost: { tokens, nanos: tokens * 10 }, ttlMs, want };
}

describe('leases from the Limiter Durable Object', () => {
  it('grants a block of requests, and its report replaces the hold with what was spent', async () => {
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    await runInDurableObject(stub, (limiter) => {
      limiter.now = () => T0;
      const settings = { limits: { rpm: 10_000, tpm: 1_000_000 }, budgets: { tokens: { day: 1_000_000 } } };
      const granted = limiter.reserve(lease(settings, 50));
      if (!granted.ok) throw new Error('refused');
      expect(granted.grant).toEqual({ requests: 50, tokens: 5_000, nanos: 50_000 });
      expect(granted.quota.requests?.remaining).toBe(10_000 - 50);
      const held = limiter.dump('key_a').state;
      expect(held.requests.cur).toBe(50);
      expect(held.ledger.day.tokensHeld).toBe(5_000);

      // 20 requests admitted on it, 1,300 tokens used between them.
      expect(limiter.settle(granted.id, { tokens: 1_300, nanos: 13_000 }, 20)).toBe(true);
      for (const scope of ['key_a', null]) {
        const state = limiter.dump(scope).state;
        expect(state.requests.cur).toBe(20);
        expect(state.tokens.cur).toBe(1_300);
        expect(state.inflight).toBe(0);
        expect(state.ledger.day).toMatchObject({
          tokensSpent: 1_300,
          tokensHeld: 0,
          nanosSpent: 13_000,
          nanosHeld: 0,
        });
      }
    });
  });

  it('grants a plain reservation near the limit, and never more than its share of the headroom', async () => {
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    await runInDurableObject(stub, (limiter) => {
      limiter.now = () => T0;
      const budget = { limits: {}, budgets: { tokens: { total: 16_000 } } };
      const first = limiter.reserve(lease(budget, 1_000));
      expect(first.ok && first.grant?.requests).toBe(16_000 / (LEASE_SHARE * 100));
      // 14,000 left: 17 more; then 11,900 left … until under two requests' worth of a share.
      let grants = 1;
      for (;;) {
        const next = limiter.reserve(lease(budget, 1_000));
        if (!next.ok) break;
        grants += 1;
        if (next.grant?.requests === 1) break;
      }
      const { ledger } = limiter.dump('key_a').state;
      expect(ledger.total.tokensHeld).toBeLessThanOrEqual(16_000);
      expect(16_000 - ledger.total.tokensHeld).toBeLessThan(2 * LEASE_SHARE * 100);
      expect(grants).toBeGreaterThan(2);
      // Per-request admission from here on: exactly the worst cases that fit.
      let plain = 0;
      while (limiter.reserve(lease(budget, 1_000)).ok) plain += 1;
      expect(limiter.dump('key_a').state.ledger.total.tokensHeld).toBe(
        16_000 - ((16_000 - ledger.total.tokensHeld) % 100),
      );
      expect(plain).toBe(Math.floor((16_000 - ledger.total.tokensHeld) / 100));
    });
  });

  it('never leases a scope with a concurrency limit', async () => {
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    await runInDurableObject(stub, (limiter) => {
      limiter.now = () => T0;
      const r = limiter.reserve(lease({ limits: { concurrent: 100, rpm: 100_000 }, budgets: {} }, 50));
      expect(r.ok && r.grant).toEqual({ requests: 1, tokens: 100, nanos: 1_000 });
    });
  });

  it('charges a lease that never reported its whole hold at expiry, and a late report corrects it', async () => {
    const clock = { now: T0 };
    const stub = limiterOf(`ten_${crypto.randomUUID()}`);
    const settings = { limits: { rpm: 100_000 }, budgets: { tokens: { month: 1_000_000 } } };
    const id = await runInDurableObject(stub, (limiter) => {
      limiter.now = () => clock.now;
      const r = limiter.reserve(lease(settings, 10, 100, 1_000));
      if (!r.ok || r.grant?.requests !== 10) throw new Error('no lease');
      clock.now = T0 + 1_000;
      return r.id;
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await runInDurableObject(stub, (limiter) => {
      expect(limiter.dump('key_a').state.ledger.month).toMatchObject({ tokensSpent: 1_000, tokensHeld: 0 });
      expect(limiter.dump('key_a').state.inflight).toBe(0);
      expect(limiter.settle(id, { tokens: 250, nanos: 2_500 }, 4)).toBe(true);
      const state = limiter.dump(null).state;
      expect(state.ledger.month).toMatchObject({
        tokensSpent: 250,
        tokensHeld: 0,
        nanosSpent: 2_500,
        nanosHeld: 0,
      });
      expect(state.requests.cur).toBe(4);
    });
  });
});
