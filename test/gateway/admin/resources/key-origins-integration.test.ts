import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import { admin, asKey, createKey, createTenant } from '../../admin-helpers';

describe('a key’s browser origins in the admin API', () => {
  it('defaults to none, and stores, returns and replaces the list', async () => {
    const tenant = await createTenant();
    const plain = await createKey(tenant.id);
    expect(plain.origins).toEqual([]);

    const created = await createKey(tenant.id, { origins: ['https://app.example.com'] });
    expect(created.origins).toEqual(['https://app.example.com']);
    expect(asKey(await admin('GET', `/keys/${created.id}`)).origins).toEqual(['https://app.example.com']);

    const patched = await admin('PATCH', `/keys/${created.id}`, {
      origins: ['http://localhost:5173', 'https://app.example.com:8443'],
    });
    expect(patched.status).toBe(200);
    expect(asKey(patched).origins).toEqual(['http://localhost:5173', 'https://app.example.com:8443']);
    expect(asKey(await admin('PATCH', `/keys/${created.id}`, { origins: [] })).origins).toEqual([]);
  });

  it.each([
    ['a path', ['https://app.example.com/chat'], 'origins.0'],
    ['a trailing slash', ['https://app.example.com/'], 'origins.0'],
    ['a wildcard', ['https://*.example.com'], 'origins.0'],
    ['no scheme', ['app.example.com'], 'origins.0'],
    ['the null origin', ['null'], 'origins.0'],
    ['a second bad entry', ['https://app.example.com', 'ftp://files.example.com'], 'origins.1'],
    ['a duplicate', ['https://app.example.com', 'https://app.example.com'], 'origins'],
    ['a string, not a list', 'https://app.example.com', 'origins'],
    ['more than 50', Array.from({ length: 51 }, (_, i) => `https://a${i}.example.com`), 'origins'],
  ])('refuses %s on create and on update', async (_label, origins, param) => {
    const tenant = await createTenant();
    const create = await admin('POST', '/keys', { tenant_id: tenant.id, origins });
    expect(create.status).toBe(400);
    expect(create.json).toMatchObject({ error: { param } });
    const { id } = await createKey(tenant.id);
    const update = await admin('PATCH', `/keys/${id}`, { origins });
    expect(update.status).toBe(400);
    expect(update.json).toMatchObject({ error: { param } });
  });

  it('documents the field on create, update and the key itself', () => {
    const { schemas } = (
      openApiDocument() as {
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      }
    ).components;
    for (const name of ['KeyCreate', 'KeyUpdate', 'ApiKey'])
      expect(schemas[name]?.properties?.origins, name).toMatchObject({ type: 'array', maxItems: 50 });
  });
});
