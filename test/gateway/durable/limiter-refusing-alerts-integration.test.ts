/**
 * The refusing alert in the Limiter object: a budget's first refusal of a period fires one
 * `budget.refusing` alert, exactly once however many requests are refused together, with what was
 * spent (not held); again in a new period; never for a rate limit's refusal; queued like a threshold's.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import type { Limiter } from '../../../src/durable/limiter';
import type { ReserveInput, ScopeSettings } from '../../../src/limits/protocol';
import { limiterOf } from '../limits-helpers';

const T0 = Date.UTC(2099, 10, 3, 12, 0, 0);
const NONE: ScopeSettings = { limits: {}, budgets: {} };

function input(tenantId: string, key: ScopeSettings, tokens: number): ReserveInput {
  return { keyId: 'key_a', tenantId, key, tenant: NONE, cost: { tokens, nanos: 0 }, ttlMs: 60_000 };
}

const fresh = () => {
  const tenantId = `ten_${crypto.randomUUID()}`;
  return { tenantId, stub: limiterOf(tenantId) };
};

describe('the refusing alert', () => {
  it('fires once when a 6,000-token budget refuses at 5,900 spent, under concurrent refusals', async () => {
    const { tenantId, stub } = fresh();
    // No thresholds at all: a refusal alerts every budget.
    const key: ScopeSettings = { limits: {}, budgets: { tokens: { total: 6000 } } };
    const first = await stub.reserve(input(tenantId, key, 5900));
    expect(first.ok && (await stub.settle(first.id, { tokens: 5900, nanos: 0 }))).toBe(true);
    const refused = await Promise.all(
      Array.from({ length: 12 }, () => stub.reserve(input(tenantId, key, 500))),
    );
    expect(refused.every((r) => !r.ok)).toBe(true);
    await stub.flushAlerts();
    const fired = await stub.firedAlerts();
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({
      id: `${tenantId}:key:key_a:tokens_total:total:refusing`,
      type: 'budget.refusing',
      tenant_id: tenantId,
      key_id: 'key_a',
      scope: 'key',
      budget: 'tokens_total',
      period: 'total',
      threshold: null,
      limit: 6000,
      spent: 5900,
    });
  });

  it('fires again in a new period, and never for a rate limit', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = { limits: { rpm: 1 }, budgets: { tokens: { day: 100 } } };
    await runInDurableObject(stub, (limiter: Limiter) => {
      const clock = { now: T0 };
      limiter.now = () => clock.now;
      expect(limiter.reserve(input(tenantId, key, 500)).ok).toBe(false); // the day's budget
      expect(limiter.reserve(input(tenantId, key, 500)).ok).toBe(false);
      const ok = limiter.reserve(input(tenantId, key, 10));
      expect(ok.ok).toBe(true);
      expect(limiter.reserve(input(tenantId, key, 10)).ok).toBe(false); // rpm
      expect(limiter.firedAlerts().map((a) => `${a.type}:${a.budget}:${a.period}`)).toEqual([
        'budget.refusing:tokens_day:2099-11-03',
      ]);
      clock.now = T0 + 24 * 3600 * 1000;
      expect(limiter.reserve(input(tenantId, key, 500)).ok).toBe(false);
      expect(limiter.firedAlerts().map((a) => a.period)).toEqual(['2099-11-04', '2099-11-03']);
    });
  });

  it('leaves through the alert queue and is marked queued', async () => {
    const { tenantId, stub } = fresh();
    const key: ScopeSettings = {
      limits: {},
      budgets: { requests: { day: 1 } },
      alerts: { thresholds: [100] },
    };
    const sent: { type: string; threshold: number | null }[] = [];
    const queue = {
      sendBatch: async (batch: { body: { type: string; threshold: number | null } }[]) => {
        sent.push(...batch.map((m) => m.body));
      },
    };
    await runInDurableObject(stub, async (limiter: Limiter) => {
      (limiter as unknown as { env: Bindings }).env = { ...env, ALERT_QUEUE: queue } as unknown as Bindings;
      limiter.now = () => T0;
      const r = limiter.reserve(input(tenantId, key, 1));
      expect(r.ok && limiter.settle(r.id, { tokens: 1, nanos: 0 })).toBe(true);
      expect(limiter.reserve(input(tenantId, key, 1)).ok).toBe(false);
      await limiter.flushAlerts();
      expect(limiter.firedAlerts().map((a) => [a.type, a.threshold, a.queued])).toEqual([
        ['budget.refusing', null, true],
        ['budget.threshold', 100, true],
      ]);
    });
    expect(sent.map((m) => m.type).sort()).toEqual(['budget.refusing', 'budget.threshold']);
  });
});
