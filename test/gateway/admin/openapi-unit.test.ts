import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAdminApp } from '../../../src/admin';
import { OPERATIONS, openApiDocument } from '../../../src/admin/openapi';

describe('the admin OpenAPI document', () => {
  it('describes exactly the admin routes the app serves', () => {
    // The admin app as src/app.ts mounts it (on the first /admin request).
    const served = new Hono()
      .route('/admin', createAdminApp())
      .routes.filter(
        (r) => r.path.startsWith('/admin/') && r.method !== 'ALL' && r.path !== '/admin/openapi.json',
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`);
    const documented = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    const hint =
      'each /admin route needs an OpenAPI entry: export an Operation[] from its router and add it to OPERATIONS in src/admin/openapi.ts';
    expect([...new Set(served)].sort(), hint).toEqual([...documented].sort());
  });

  it('resolves every $ref to a component schema', () => {
    const doc = openApiDocument();
    const text = JSON.stringify(doc);
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    const schemas = (doc as { components: { schemas: Record<string, unknown> } }).components.schemas;
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(schemas, ref).toHaveProperty(ref!);
    expect(text).not.toMatch(/"\$schema"|"\$id"|"\$defs"/);
  });

  it('documents query parameters with their limits', () => {
    const list = OPERATIONS.find((op) => op.method === 'get' && op.path === '/admin/keys');
    expect(list).toBeDefined();
    const doc = openApiDocument() as {
      paths: Record<
        string,
        Record<string, { parameters: { name: string; required: boolean; schema: { maximum?: number } }[] }>
      >;
    };
    const params = doc.paths['/admin/keys']!.get!.parameters;
    expect(params.find((p) => p.name === 'tenant_id')).toMatchObject({ required: true });
    expect(params.find((p) => p.name === 'limit')).toMatchObject({
      required: false,
      schema: { maximum: 100 },
    });
  });

  it("documents tenants' provider keys: PUT creates (201) or replaces (200), DELETE answers 204 with no body", () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
      components: { schemas: Record<string, { properties?: Record<string, { minLength?: number }> }> };
    };
    const one = doc.paths['/admin/tenants/{id}/provider-keys/{provider}']!;
    expect(Object.keys(one.put!.responses).sort()).toEqual(['200', '201', 'default']);
    expect(one.delete!.responses['204']).toEqual({ description: 'No content' });
    expect(doc.components.schemas.ProviderKeyPut?.properties?.key).toMatchObject({ minLength: 8 });
    expect(JSON.stringify(doc.components.schemas.ProviderKey)).not.toMatch(/"key"|ciphertext/);
  });
});
