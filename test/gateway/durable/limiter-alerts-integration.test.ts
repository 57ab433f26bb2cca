/**
 * Budget alerts in the Limiter object: thresholds fire once per (scope, budget, period, threshold)
 * however settles interleave, count spent and never held, fire again in a new period, and wait in
 * the outbox (retried from the alarm) when the alert queue refuses them.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../../src/env';
import type { Limiter } from '../../../src/durable/limiter';
import type { ReserveInput, ScopeSettings } from '../../../src/limits/protocol';
import { limiterOf } from '../limits-helpers';

const T0 = Date.UTC(2099, 10, 3, 12, 0, 0);
const NONE: ScopeSettings = { limits: {}, budgets: {} };

function input(tenantId: string, key: ScopeSettings, tenant: ScopeSettings, tokens: number): ReserveInput {
  return { keyId: 'key_a', tenantId, key, tenant, cost: { tokens, nanos: tokens * 1000 }, ttlMs: 60_000 };
}

const fresh = () => {
  const tenantId = `ten_${crypto.randomUUID()}`;
  return { tenantId, stub: limiterOf(tenantId) };
};

describe('budget alerts in the Limiter', () => {
  it('fires each threshold exactly once under many concurrent settles, counting spent only', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { tokens: { day: 1000 } },
      alerts: { thresholds: [50, 80, 100] },
    };
    const tenant: ScopeSettings = {
      limits: {},
      budgets: { tokens: { month: 2000 } },
      alerts: { thresholds: [25, 50] },
    };
    const reserved = await Promise.all(
      Array.from({ length: 10 }, () => stub.reserve(input(tenantId, key, tenant, 100))),
    );
    const ids = reserved.map((r) => (r.ok ? r.id : expect.fail('reserve refused')));
    // Everything is held (100 % of the key's day) yet nothing is spent: no alert.
    expect(await stub.firedAlerts()).toEqual([]);

    const settled = await Promise.all(ids.map((id) => stub.settle(id, { tokens: 100, nanos: 0 })));
    expect(settled.every(Boolean)).toBe(true);
    await stub.flushAlerts();

    const fired = await stub.firedAlerts();
    const seen = fired.map((a) => `${a.key_id ?? 'tenant'}:${a.budget}:${a.threshold}`).sort();
    expect(seen).toEqual([
      'key_a:tokens_day:100',
      'key_a:tokens_day:50',
      'key_a:tokens_day:80',
      'tenant:tokens_month:25',
      'tenant:tokens_month:50',
    ]);
    expect(new Set(fired.map((a) => a.id)).size).toBe(fired.length);
    expect(fired.every((a) => a.tenant_id === tenantId && a.queued)).toBe(true);
    const hundred = fired.find((a) => a.threshold === 100)!;
    expect(hundred).toMatchObject({ limit: 1000, spent: 1000, type: 'budget.threshold' });
  });

  it('fires a threshold when the settle that reaches it arrives, not before, and never twice', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { tokens: { total: 1000 } },
      alerts: { thresholds: [80] },
    };
    await runInDurableObject(stub, (limiter: Limiter) => {
      limiter.now = () => T0;
      const spend = (tokens: number) => {
        const r = limiter.reserve(input(tenantId, key, NONE, tokens));
        expect(r.ok && limiter.settle(r.id, { tokens, nanos: 0 })).toBe(true);
      };
      spend(799);
      expect(limiter.firedAlerts()).toHaveLength(0);
      spend(1);
      expect(limiter.firedAlerts()).toHaveLength(1);
      spend(100);
      expect(limiter.firedAlerts()).toHaveLength(1);
    });
  });

  it('fires again in a new day, while the month that already fired stays quiet', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { tokens: { day: 100, month: 200 } },
      alerts: { thresholds: [50] },
    };
    await runInDurableObject(stub, (limiter: Limiter) => {
      const clock = { now: T0 };
      limiter.now = () => clock.now;
      const spend = (tokens: number) => {
        const r = limiter.reserve(input(tenantId, key, NONE, tokens));
        expect(r.ok && limiter.settle(r.id, { tokens, nanos: 0 })).toBe(true);
      };
      spend(60);
      expect(limiter.firedAlerts().map((a) => `${a.budget}:${a.period}`)).toEqual(['tokens_day:2099-11-03']);
      clock.now = T0 + 24 * 3600 * 1000;
      spend(60); // the day's 50 % again, and now 60 % of the month
      expect(
        limiter
          .firedAlerts()
          .map((a) => `${a.budget}:${a.period}`)
          .sort(),
      ).toEqual(['tokens_day:2099-11-03', 'tokens_day:2099-11-04', 'tokens_month:2099-11']);
    });
  });

  it('follows the thresholds each reserve brings: removed ones stop, added ones fire at the next settle', async () => {
    const { tenantId, stub } = fresh();
    const budgets = { tokens: { total: 1000 } };
    await runInDurableObject(stub, (limiter: Limiter) => {
      limiter.now = () => T0;
      const spend = (alerts: { thresholds: number[] }, tokens: number) => {
        const r = limiter.reserve(input(tenantId, { limits: {}, budgets, alerts }, NONE, tokens));
        expect(r.ok && limiter.settle(r.id, { tokens, nanos: 0 })).toBe(true);
      };
      spend({ thresholds: [] }, 600);
      expect(limiter.firedAlerts()).toEqual([]);
      spend({ thresholds: [50, 80] }, 1);
      expect(limiter.firedAlerts().map((a) => a.threshold)).toEqual([50]);
      spend({ thresholds: [] }, 300); // 90 %: the removed 80 % stays quiet
      expect(limiter.firedAlerts().map((a) => a.threshold)).toEqual([50]);
    });
  });

  it('measures USD thresholds exactly in nano-dollars', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { usd: { day: 1 } },
      alerts: { thresholds: [80, 100] },
    };
    await runInDurableObject(stub, (limiter: Limiter) => {
      limiter.now = () => T0;
      const r = limiter.reserve(input(tenantId, key, NONE, 1000));
      expect(r.ok && limiter.settle(r.id, { tokens: 10, nanos: 800_000_000 })).toBe(true);
      expect(limiter.firedAlerts()).toMatchObject([
        { budget: 'usd_day', threshold: 80, limit: 1, spent: 0.8 },
      ]);
    });
  });

  it('fires when an unreported lease is charged its whole hold by the alarm', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { tokens: { day: 10_000 } },
      alerts: { thresholds: [1] },
    };
    await runInDurableObject(stub, (limiter: Limiter) => {
      limiter.now = () => T0;
      const r = limiter.reserve({ ...input(tenantId, key, NONE, 100), want: 4 });
      expect(r.ok && r.grant?.requests).toBeGreaterThan(1);
      limiter.now = () => T0 + 120_000;
      limiter.alarm();
      expect(limiter.firedAlerts()).toMatchObject([{ budget: 'tokens_day', threshold: 1 }]);
    });
  });

  it('keeps an alert in the outbox when the queue refuses it and sends it from the alarm', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { tokens: { day: 100 } },
      alerts: { thresholds: [50] },
    };
    const sent: unknown[] = [];
    let refuse = true;
    const queue = {
      sendBatch: async (batch: { body: unknown }[]) => {
        if (refuse) throw new Error('queue unavailable');
        sent.push(...batch.map((m) => m.body));
      },
    };
    await runInDurableObject(stub, async (limiter: Limiter, state) => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      (limiter as unknown as { env: Bindings }).env = { ...env, ALERT_QUEUE: queue } as unknown as Bindings;
      const r = await limiter.reserve(input(tenantId, key, NONE, 60));
      expect(r.ok && limiter.settle(r.id, { tokens: 60, nanos: 0 })).toBe(true);
      expect(await limiter.flushAlerts()).toBe(0);
      expect(limiter.firedAlerts()).toMatchObject([{ threshold: 50, queued: false }]);
      expect(await state.storage.getAlarm()).not.toBeNull();
      refuse = false;
    });
    await runDurableObjectAlarm(stub);
    await runInDurableObject(stub, async (limiter: Limiter) => {
      await limiter.flushAlerts();
      expect(limiter.firedAlerts()).toMatchObject([{ threshold: 50, queued: true }]);
    });
    expect(sent).toMatchObject([
      { tenant_id: tenantId, key_id: 'key_a', budget: 'tokens_day', threshold: 50 },
    ]);
  });
});
