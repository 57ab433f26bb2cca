import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../src/context';
import { getDeps } from '../../../src/deps';
import { openAiErrorBody } from '../../../src/codecs/openai/error';
import { errorResponse, GatewayError } from '../../../src/core/errors';
import { authenticate } from '../../../src/pipeline/auth';
import { d1KeyLoader } from '../../../src/storage/d1-keys';
import { sha256Hex } from '../../../src/util/crypto';
import { admin, createKey, createTenant } from '../admin-helpers';

/** The real auth stage and key store over the test's D1 and KV, with a clock the test moves. */
function clocked() {
  let now = Date.now();
  const app = new Hono<AppEnv>();
  app.get('/whoami', async (c) => {
    const principal = await authenticate(c.req.raw.headers, false, getDeps(c.env).keys, now);
    return c.json({ id: principal.id });
  });
  app.onError((err) =>
    err instanceof GatewayError
      ? errorResponse(err, openAiErrorBody)
      : new Response('unexpected', { status: 500 }),
  );
  return {
    set: (at: number) => {
      now = at;
    },
    call: async (key: string) => {
      const res = await app.request('/whoami', { headers: { authorization: `Bearer ${key}` } }, env);
      const body = (await res.json()) as { id?: string; error?: { code: string } };
      return { status: res.status, code: body.error?.code ?? null };
    },
  };
}

describe('auth against an injected clock', () => {
  it('accepts a key until its expiry and refuses it from then on', async () => {
    const tenant = await createTenant();
    const expiresAt = Date.now() + 3_600_000;
    const { key } = await createKey(tenant.id, { expires_at: expiresAt });
    const clock = clocked();
    clock.set(expiresAt - 1);
    expect(await clock.call(key)).toEqual({ status: 200, code: null });
    clock.set(expiresAt);
    expect(await clock.call(key)).toEqual({ status: 401, code: 'key_expired' });
  });

  it('accepts a rotated-out secret until the end of its grace period, even from cache', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    const rotation = await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 600 });
    const { key: next, grace_expires_at: graceEnd } = rotation.json as {
      key: string;
      grace_expires_at: number;
    };
    const clock = clocked();
    clock.set(graceEnd - 1);
    expect(await clock.call(created.key)).toEqual({ status: 200, code: null });
    clock.set(graceEnd);
    expect(await clock.call(created.key)).toEqual({ status: 401, code: 'key_expired' });
    expect(await clock.call(next)).toEqual({ status: 200, code: null });
  });
});

describe('d1KeyLoader', () => {
  it("fills the record from the key and its tenant's settings", async () => {
    const tenant = await createTenant('loader', {
      limits: { rpm: 100 },
      budgets: { usd: { day: 5 } },
      guardrails: { pii: { request: 'log' }, deny: { terms: ['x-ray'], patterns: [] } },
      alerts: { thresholds: [50, 80] },
      responses_retention_days: 7,
      end_users: { limits: {}, budgets: { usd: { day: 1 } } },
      tag_limits: [{ tag: 'team', limits: { rpm: 5 }, budgets: {} }],
      tag_keys: ['feature'],
    });
    const { key, id } = await createKey(tenant.id, {
      guardrails: { pii: { request: 'redact' } },
      models: ['mock/echo'],
      limits: { rpm: 10 },
      budgets: { tokens: { total: 1000 } },
      cache: { semantic: true },
      origins: ['https://app.example.com'],
      alerts: { thresholds: [100] },
      log_payload: true,
      model_limits: [{ match: 'mock/*', limits: { rpm: 3 }, budgets: {} }],
    });
    const record = await d1KeyLoader(env.DB)(await sha256Hex(key));
    expect(record).toEqual({
      id,
      tenantId: tenant.id,
      status: 'active',
      models: ['mock/echo'],
      expiresAt: null,
      tenantStatus: 'active',
      limits: { rpm: 10 },
      budgets: { tokens: { total: 1000 } },
      tenantLimits: { rpm: 100 },
      tenantBudgets: { usd: { day: 5 } },
      cache: { semantic: true },
      guardrails: { pii: { request: 'redact' } },
      tenantGuardrails: { pii: { request: 'log' }, deny: { terms: ['x-ray'], patterns: [] } },
      origins: ['https://app.example.com'],
      alerts: { thresholds: [100] },
      tenantAlerts: { thresholds: [50, 80] },
      tenantResponsesRetentionDays: 7,
      logPayload: true,
      onUnsupported: 'drop',
      tenantOnUnsupported: 'drop',
      providerKeys: {},
      scopes: { model_limits: [{ match: 'mock/*', limits: { rpm: 3 }, budgets: {} }], downgrade: null },
      tenantScopes: {
        end_users: { limits: {}, budgets: { usd: { day: 1 } } },
        model_limits: [],
        tag_limits: [{ tag: 'team', limits: { rpm: 5 }, budgets: {} }],
        tag_keys: ['feature'],
        downgrade: null,
      },
    });
  });

  it('clamps the expiry of a secret in grace to the end of the grace period', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id, { expires_at: Date.now() + 86_400_000 });
    const rotation = await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 60 });
    const { key: next, grace_expires_at: graceEnd } = rotation.json as {
      key: string;
      grace_expires_at: number;
    };
    const load = d1KeyLoader(env.DB);
    expect((await load(await sha256Hex(created.key)))?.expiresAt).toBe(graceEnd);
    expect((await load(await sha256Hex(next)))?.expiresAt).toBe(created.expires_at);
    expect(await load(await sha256Hex('ew_unknown'))).toBeNull();
  });

  it('cannot store a key for a tenant that does not exist (foreign key)', async () => {
    const insert = env.DB.prepare(
      "INSERT INTO api_keys (id, tenant_id, key_hash, hint, created_at, updated_at) VALUES ('key_orphan', 'ten_missing', 'h', 'ew_…h', 1, 1)",
    );
    await expect(insert.run()).rejects.toThrow(/FOREIGN KEY/);
  });
});
