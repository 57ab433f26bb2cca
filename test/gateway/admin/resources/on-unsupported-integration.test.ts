/**
 * on_unsupported in the admin API: on keys and tenants (default drop, stored, returned, replaced,
 * anything else refused naming the field), in a route's spec, in the OpenAPI document, and in force
 * from the next request after a tenant's change (its keys' cached records are invalidated).
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import { admin, asKey, asTenant, createKey, createTenant } from '../../admin-helpers';
import { post } from '../../helpers';

const request = {
  model: 'gpt-only/echo',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hi' }],
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
};
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };

describe('on a key', () => {
  it('defaults to drop, and stores, returns and replaces the setting', async () => {
    const tenant = await createTenant('ou-keys');
    expect((await createKey(tenant.id)).on_unsupported).toBe('drop');
    const created = await createKey(tenant.id, { on_unsupported: 'refuse' });
    expect(created.on_unsupported).toBe('refuse');
    expect(asKey(await admin('GET', `/keys/${created.id}`)).on_unsupported).toBe('refuse');
    const patched = await admin('PATCH', `/keys/${created.id}`, { on_unsupported: 'drop' });
    expect(patched.status).toBe(200);
    expect(asKey(patched).on_unsupported).toBe('drop');
  });

  it.each([['block'], [''], [true], [null]])('refuses %j on create and on update', async (value) => {
    const tenant = await createTenant('ou-bad-keys');
    const create = await admin('POST', '/keys', { tenant_id: tenant.id, on_unsupported: value });
    expect(create.status).toBe(400);
    expect(create.json).toMatchObject({ error: { param: 'on_unsupported' } });
    const { id } = await createKey(tenant.id);
    const update = await admin('PATCH', `/keys/${id}`, { on_unsupported: value });
    expect(update.status).toBe(400);
    expect(update.json).toMatchObject({ error: { param: 'on_unsupported' } });
  });

  it('applies from the next request after a change', async () => {
    const tenant = await createTenant('ou-key-change');
    const { id, key } = await createKey(tenant.id);
    expect((await post('/v1/messages', request, key, ANTHROPIC)).status).toBe(200);
    expect((await admin('PATCH', `/keys/${id}`, { on_unsupported: 'refuse' })).status).toBe(200);
    expect((await post('/v1/messages', request, key, ANTHROPIC)).status).toBe(400);
  });
});

describe('on a tenant', () => {
  it('defaults to drop, and stores, returns and replaces the setting', async () => {
    expect((await createTenant('ou-tenant-default')).on_unsupported).toBe('drop');
    const tenant = await createTenant('ou-tenant', { on_unsupported: 'refuse' });
    expect(tenant.on_unsupported).toBe('refuse');
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).on_unsupported).toBe('refuse');
    const patched = await admin('PATCH', `/tenants/${tenant.id}`, { on_unsupported: 'drop' });
    expect(asTenant(patched).on_unsupported).toBe('drop');
  });

  it('refuses anything but drop or refuse', async () => {
    const create = await admin('POST', '/tenants', { name: 'ou-bad', on_unsupported: 'strict' });
    expect(create.status).toBe(400);
    expect(create.json).toMatchObject({ error: { param: 'on_unsupported' } });
    const tenant = await createTenant('ou-bad-patch');
    const update = await admin('PATCH', `/tenants/${tenant.id}`, { on_unsupported: 'REFUSE' });
    expect(update.status).toBe(400);
    expect(update.json).toMatchObject({ error: { param: 'on_unsupported' } });
  });

  it("reaches its keys' cached records at once: the next request of a key that was just used is refused", async () => {
    const tenant = await createTenant('ou-tenant-change');
    const { key } = await createKey(tenant.id);
    expect((await post('/v1/messages', request, key, ANTHROPIC)).status).toBe(200);
    expect((await admin('PATCH', `/tenants/${tenant.id}`, { on_unsupported: 'refuse' })).status).toBe(200);
    const refused = await post('/v1/messages', request, key, ANTHROPIC);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "tenant's policy",
    );
  });
});

describe("in a route's spec", () => {
  it('is stored and returned when given, absent otherwise, and refused when it is not drop or refuse', async () => {
    const tenant = await createTenant('ou-routes');
    const spec = { strategy: 'fallback', targets: [{ model: 'mock/echo' }] };
    const plain = await admin('POST', '/routes', { name: 'ou-plain', tenant_id: tenant.id, spec });
    expect(plain.status).toBe(201);
    expect((plain.json as { spec: Record<string, unknown> }).spec.on_unsupported).toBeUndefined();
    const strict = await admin('POST', '/routes', {
      name: 'ou-strict',
      tenant_id: tenant.id,
      spec: { ...spec, on_unsupported: 'refuse' },
    });
    expect(strict.status).toBe(201);
    const id = (strict.json as { id: string }).id;
    const read = await admin('GET', `/routes/${id}`);
    expect((read.json as { spec: Record<string, unknown> }).spec.on_unsupported).toBe('refuse');
    const bad = await admin('PATCH', `/routes/${id}`, { spec: { ...spec, on_unsupported: 'never' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { param: 'spec.on_unsupported' } });
  });
});

describe('the OpenAPI document', () => {
  it('describes the setting on keys, tenants and routes', () => {
    const { schemas } = (
      openApiDocument() as {
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      }
    ).components;
    for (const name of ['KeyCreate', 'KeyUpdate', 'ApiKey', 'TenantCreate', 'TenantUpdate', 'Tenant'])
      expect(schemas[name]?.properties?.on_unsupported, name).toMatchObject({ enum: ['drop', 'refuse'] });
    const route = JSON.stringify(schemas.RouteCreate ?? schemas.Route);
    expect(route).toContain('on_unsupported');
  });
});
