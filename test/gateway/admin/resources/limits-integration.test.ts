import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { UsageReport } from '../../../../src/limits/report';
import { priceOf } from '../../../../src/core/cost';
import { admin } from '../../admin-helpers';
import { chatBody, post } from '../../helpers';
import { limitedKey, settledDump } from '../../limits-helpers';

describe('admin: limits and usage', () => {
  it("reads a key's and its tenant's usage and what remains", async () => {
    const { secret, keyId, tenantId } = await limitedKey({
      limits: { rpm: 10, tpm: 10_000 },
      budgets: { tokens: { day: 1000 }, usd: { month: 5 } },
      tenantLimits: { concurrent: 4 },
    });
    const res = await post(
      '/v1/chat/completions',
      chatBody('one two three four', { max_tokens: 10 }),
      secret,
    );
    expect(res.status).toBe(200);
    await settledDump(tenantId);

    const key = await admin('GET', `/limits/keys/${keyId}`);
    expect(key.status).toBe(200);
    const report = UsageReport.parse(key.json);
    expect(report).toMatchObject({
      scope: 'key',
      id: keyId,
      tenant_id: tenantId,
      limits: { rpm: 10, tpm: 10_000 },
      requests: { limit: 10, used: 1, remaining: 9 },
      tokens: { limit: 10_000, used: 16, remaining: 9984 },
      concurrent: { limit: null, in_flight: 0 },
    });
    expect(report.budget_usage.tokens.day).toMatchObject({
      limit: 1000,
      spent: 16,
      reserved: 0,
      remaining: 984,
    });
    expect(report.budget_usage.usd.month.limit).toBe(5);
    const price = priceOf('mock/echo');
    expect(report.budget_usage.usd.month.spent).toBeCloseTo((12 * price.input + 4 * price.output) / 1e6, 9);
    expect(report.budget_usage.tokens.total).toMatchObject({ period: 'total', resets_at: null });

    const tenant = UsageReport.parse((await admin('GET', `/limits/tenants/${tenantId}`)).json);
    expect(tenant).toMatchObject({
      scope: 'tenant',
      concurrent: { limit: 4, in_flight: 0 },
      requests: { limit: null, used: 1, remaining: null },
    });
  });

  it('answers 404 for unknown tenants and keys, and 401 without the admin token', async () => {
    expect((await admin('GET', '/limits/keys/key_nope')).status).toBe(404);
    expect((await admin('GET', '/limits/tenants/ten_nope')).status).toBe(404);
    expect((await admin('GET', '/limits/tenants/ten_nope', undefined, null)).status).toBe(401);
  });
});

describe('admin: price overrides', () => {
  it('overrides, reads and removes the price of a model whose id has slashes', async () => {
    const model = 'workers-ai/@cf/qwen/qwen1.5-14b-chat-awq';
    expect((await admin('GET', `/pricing/${model}`)).json).toMatchObject({ model, source: 'default' });
    const put = await admin('PUT', `/pricing/${model}`, { input: 0.5, output: 1.5 });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      model,
      input: 0.5,
      output: 1.5,
      cached: 0.5,
      cache_write: 0.5,
      cache_write_1h: 0.5,
      source: 'override',
    });
    expect((await admin('GET', '/pricing')).json).toMatchObject({
      overrides: { [model]: { input: 0.5, output: 1.5, cached: 0.5, cache_write: 0.5, cache_write_1h: 0.5 } },
    });
    expect((await admin('DELETE', `/pricing/${model}`)).json).toMatchObject({ model, source: 'default' });
    expect((await admin('DELETE', `/pricing/${model}`)).status).toBe(404);
    expect((await admin('GET', '/pricing/openai/gpt-4o-mini')).json).toMatchObject({
      source: 'catalog',
      input: 0.15,
    });
  });

  it('overrides the cache prices: reads, 5-minute writes, and 1-hour writes defaulting to the 5-minute price', async () => {
    const model = 'anthropic/claude-test-override';
    const both = await admin('PUT', `/pricing/${model}`, {
      input: 3,
      output: 15,
      cached: 0.3,
      cache_write: 3.75,
      cache_write_1h: 6,
    });
    expect(both.json).toMatchObject({
      cached: 0.3,
      cache_write: 3.75,
      cache_write_1h: 6,
      source: 'override',
    });
    const one = await admin('PUT', `/pricing/${model}`, { input: 3, output: 15, cache_write: 3.75 });
    expect(one.json).toMatchObject({ cached: 3, cache_write: 3.75, cache_write_1h: 3.75 });
    const audit = await env.DB.prepare(
      "SELECT after FROM audit_log WHERE resource = 'price' AND resource_id = ? ORDER BY seq DESC LIMIT 1",
    )
      .bind(model)
      .first<{ after: string }>();
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({ cache_write: 3.75, cache_write_1h: 3.75 });
    expect((await admin('DELETE', `/pricing/${model}`)).status).toBe(200);
  });

  it('rejects a negative or unknown price field with a 400 naming it', async () => {
    const negative = await admin('PUT', '/pricing/openai/gpt-4o', { input: -1, output: 1 });
    expect(negative.status).toBe(400);
    expect(negative.json).toMatchObject({ error: { param: 'input' } });
    expect(
      (await admin('PUT', '/pricing/openai/gpt-4o', { input: 1, output: 1, per_request: 3 })).status,
    ).toBe(400);
  });
});
