import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { admin, createKey, createTenant, v1 } from '../admin-helpers';
import { chatBody } from '../helpers';

const chat = (key: string, model = 'mock/echo') => v1('/chat/completions', key, chatBody('hi', { model }));

async function expectRefused(res: Response, code: string): Promise<void> {
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ error: { code, type: 'invalid_request_error' } });
}

describe('admin changes seen by /v1 on the very next request', () => {
  it('accepts a key created through the admin API', async () => {
    const tenant = await createTenant();
    const { key } = await createKey(tenant.id, { expires_at: Date.now() + 3_600_000 });
    const res = await chat(key);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'chat.completion' });
  });

  it('refuses a revoked key at once, although its lookup was cached', async () => {
    const tenant = await createTenant();
    const { id, key } = await createKey(tenant.id);
    expect((await chat(key)).status).toBe(200);
    await admin('DELETE', `/keys/${id}`);
    await expectRefused(await chat(key), 'key_revoked');
  });

  it("applies a change to a key's models at once", async () => {
    const tenant = await createTenant();
    const { id, key } = await createKey(tenant.id);
    expect((await chat(key, 'mock/mock-small')).status).toBe(200);
    await admin('PATCH', `/keys/${id}`, { models: ['mock/echo'] });
    const res = await chat(key, 'mock/mock-small');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'model_not_allowed', param: 'model' } });
  });

  it("refuses a disabled tenant's keys with tenant_disabled, and accepts them again once enabled", async () => {
    const tenant = await createTenant();
    const one = await createKey(tenant.id);
    const two = await createKey(tenant.id);
    expect((await chat(one.key)).status).toBe(200);
    await admin('POST', `/tenants/${tenant.id}/disable`);
    await expectRefused(await chat(one.key), 'tenant_disabled');
    await expectRefused(await chat(two.key), 'tenant_disabled');
    await admin('POST', `/tenants/${tenant.id}/enable`);
    expect((await chat(one.key)).status).toBe(200);
  });

  it('leaves other tenants alone when one is disabled', async () => {
    const a = await createTenant('a');
    const b = await createTenant('b');
    const keyB = await createKey(b.id);
    await admin('POST', `/tenants/${a.id}/disable`);
    expect((await chat(keyB.key)).status).toBe(200);
  });
});

describe('rotation', () => {
  it('accepts the new secret at once and the old one during the grace period', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    expect((await chat(created.key)).status).toBe(200);
    const rotated = await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 3600 });
    const { key: next } = rotated.json as { key: string };
    expect((await chat(next)).status).toBe(200);
    expect((await chat(created.key)).status).toBe(200);
  });

  it('refuses the old secret at once without a grace period', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    expect((await chat(created.key)).status).toBe(200);
    const { key: next } = (await admin('POST', `/keys/${created.id}/rotate`)).json as { key: string };
    await expectRefused(await chat(created.key), 'invalid_api_key');
    expect((await chat(next)).status).toBe(200);
  });

  it('refuses the old secret once its grace period has ended', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 60 });
    // Move the end of the grace period into the past (the clock-driven path is in auth-clock-integration).
    await env.DB.prepare('UPDATE api_keys SET previous_expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, created.id)
      .run();
    await expectRefused(await chat(created.key), 'key_expired');
  });

  it('ends the first grace period when the key is rotated again', async () => {
    const tenant = await createTenant();
    const first = await createKey(tenant.id);
    const { key: second } = (await admin('POST', `/keys/${first.id}/rotate`, { grace_seconds: 3600 }))
      .json as { key: string };
    expect((await chat(first.key)).status).toBe(200);
    const { key: third } = (await admin('POST', `/keys/${first.id}/rotate`, { grace_seconds: 3600 }))
      .json as { key: string };
    await expectRefused(await chat(first.key), 'invalid_api_key');
    expect((await chat(second)).status).toBe(200);
    expect((await chat(third)).status).toBe(200);
  });

  it('refuses the secret in grace too when the key is revoked', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    const { key: next } = (await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 3600 }))
      .json as { key: string };
    expect((await chat(created.key)).status).toBe(200);
    await admin('DELETE', `/keys/${created.id}`);
    await expectRefused(await chat(created.key), 'key_revoked');
    await expectRefused(await chat(next), 'key_revoked');
  });
});

describe('model allow-list', () => {
  it('answers 403 model_not_allowed for another model and lists only the allowed ones', async () => {
    const tenant = await createTenant();
    const { key } = await createKey(tenant.id, { models: ['mock/echo'] });
    expect((await chat(key, 'mock/echo')).status).toBe(200);
    const denied = await chat(key, 'mock/mock-large');
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      error: { code: 'model_not_allowed', type: 'permission_error', param: 'model' },
    });
    const models = await v1('/models', key);
    expect(models.status).toBe(200);
    const list = (await models.json()) as { data: { id: string }[] };
    expect(list.data.map((m) => m.id)).toEqual(['mock/echo']);
  });

  it('allows a whole provider with provider/*', async () => {
    const tenant = await createTenant();
    const { key } = await createKey(tenant.id, { models: ['mock/*'] });
    expect((await chat(key, 'mock/mock-large')).status).toBe(200);
    const list = (await (await v1('/models', key)).json()) as { data: { id: string }[] };
    expect(list.data.length).toBeGreaterThan(1);
    expect(list.data.every((m) => m.id.startsWith('mock/'))).toBe(true);
  });
});
