/** Helpers for the limits tests: tenants and keys with limits through the admin API, and the Limiter's ledger. */
import { env, runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import type { LimiterRpc, ScopeDump } from '../../src/limits/protocol';
import type { Limiter } from '../../src/core/limiter';
import type { Price } from '../../src/core/pricing';
import { limiterObjects } from '../../src/durable/limiter';
import { readLimitsConfig } from '../../src/limits/config';
import { durableLimiter } from '../../src/limits/durable-limiter';
import { KeyRecord } from '../../src/core/key-record';
import type { Principal } from '../../src/core/principal';
import type { Budgets, Limits } from '../../src/core/settings';
import { admin, createKey, createTenant } from './admin-helpers';

export interface LimitedKeyOptions {
  limits?: Limits;
  budgets?: Budgets;
  tenantLimits?: Limits;
  tenantBudgets?: Budgets;
  /** Reuse an existing tenant instead of creating one. */
  tenantId?: string;
}

export interface LimitedKey {
  secret: string;
  keyId: string;
  tenantId: string;
}

export async function limitedKey(options: LimitedKeyOptions = {}): Promise<LimitedKey> {
  const tenantId =
    options.tenantId ??
    (
      await createTenant(`limits-${crypto.randomUUID()}`, {
        ...(options.tenantLimits ? { limits: options.tenantLimits } : {}),
        ...(options.tenantBudgets ? { budgets: options.tenantBudgets } : {}),
      })
    ).id;
  const key = await createKey(tenantId, {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
  });
  return { secret: key.key, keyId: key.id, tenantId };
}

export function limiterOf(tenantId: string) {
  return env.LIMITER.get(env.LIMITER.idFromName(tenantId));
}

/** The Limiter's state for a tenant (keyId null) or one of its keys. */
export function dump(tenantId: string, keyId: string | null = null): Promise<ScopeDump> {
  return runInDurableObject(limiterOf(tenantId), (instance) => instance.dump(keyId));
}

/**
 * Waits until every reservation of the tenant is settled (settles run after the
 * response, in waitUntil or when a stream ends), then returns its state.
 * Bounded by attempts, not by time.
 */
export async function settledDump(tenantId: string, keyId: string | null = null): Promise<ScopeDump> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const state = await dump(tenantId, keyId);
    if (state.state.inflight === 0) return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`reservations of ${tenantId} never settled`);
}

export async function setPrice(
  model: string,
  price: { input: number; output: number; cached?: number } | null,
): Promise<void> {
  const res = price
    ? await admin('PUT', `/pricing/${model}`, price)
    : await admin('DELETE', `/pricing/${model}`);
  expect(res.status).toBe(200);
}

/** A principal as the key store would load it: key `key_a` of tenant `ten_a` unless `over` says otherwise. */
export const principalWith = (over: Partial<KeyRecord> = {}): Principal =>
  KeyRecord.parse({
    id: 'key_a',
    tenantId: 'ten_a',
    status: 'active',
    models: null,
    expiresAt: null,
    ...over,
  });

/**
 * One isolate's limits adapter on the real Limiter objects, leases on (admitting for 100 ms), priced at
 * `prices`; with `calls`, every reserve and settle it sends an object is counted there.
 */
export function leasingAdapter(
  prices: Readonly<Record<string, Price>>,
  calls?: { reserve: number; settle: number },
): Limiter {
  const objects = limiterObjects(env.LIMITER);
  const counted = (name: string): LimiterRpc => {
    const stub = objects(name);
    if (!calls) return stub;
    return {
      reserve: (input) => {
        calls.reserve += 1;
        return stub.reserve(input);
      },
      settle: (id, actual, requests) => {
        calls.settle += 1;
        return stub.settle(id, actual, requests);
      },
    };
  };
  return durableLimiter({
    objectFor: counted,
    prices: { overrides: async () => prices, invalidate: () => {} },
    config: readLimitsConfig({ LIMITS_LEASES: 'on', LIMITS_LEASE_MS: '100' }),
  });
}
