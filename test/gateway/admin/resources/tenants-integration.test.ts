import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { TenantList } from '../../../../src/admin/schemas';
import { createApp } from '../../../../src/app';
import { admin, asTenant, createTenant } from '../../admin-helpers';

describe('admin guard', () => {
  const routes: [string, string][] = [
    ['GET', '/tenants'],
    ['POST', '/tenants'],
    ['GET', '/tenants/ten_x'],
    ['PATCH', '/tenants/ten_x'],
    ['POST', '/tenants/ten_x/disable'],
    ['POST', '/keys'],
    ['GET', '/keys?tenant_id=ten_x'],
    ['GET', '/keys/key_x'],
    ['PATCH', '/keys/key_x'],
    ['POST', '/keys/key_x/rotate'],
    ['DELETE', '/keys/key_x'],
  ];

  it('refuses every admin route without a token, with 401 in the OpenAI envelope', async () => {
    for (const [method, path] of routes) {
      const res = await admin(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
        null,
      );
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json).toMatchObject({
        error: { code: 'invalid_admin_token', type: 'authentication_error' },
      });
    }
  });

  it('refuses a wrong token, and a gateway key used as an admin token', async () => {
    expect((await admin('GET', '/tenants', undefined, 'test-admin-token-but-longer')).status).toBe(401);
    expect((await admin('GET', '/tenants', undefined, 'ew_somegatewaykey')).status).toBe(401);
    const basic = await SELF.fetch('http://gw.test/admin/tenants', {
      headers: { authorization: 'Basic dGVzdC1hZG1pbi10b2tlbg==' },
    });
    expect(basic.status).toBe(401);
  });

  it('is closed (503) when no ADMIN_TOKEN is configured, whatever the token sent', async () => {
    const res = await createApp().request(
      '/admin/tenants',
      { headers: { authorization: 'Bearer undefined' } },
      { ...env, ADMIN_TOKEN: undefined },
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 'admin_disabled' } });
  });
});

describe('/admin/tenants', () => {
  it('creates a tenant with defaults and returns it with 201', async () => {
    const res = await admin('POST', '/tenants', { name: '  Acme Corp  ' });
    expect(res.status).toBe(201);
    const tenant = asTenant(res);
    expect(tenant).toMatchObject({
      name: 'Acme Corp',
      status: 'active',
      limits: {},
      budgets: {},
      metadata: {},
    });
    expect(tenant.id).toMatch(/^ten_[\w-]{16}$/);
    expect(tenant.created_at).toBe(tenant.updated_at);
  });

  it('stores limits, budgets and metadata given at creation', async () => {
    const tenant = await createTenant('big', {
      limits: { rpm: 600 },
      budgets: { usd: { month: 100 } },
      metadata: { plan: 'pro', seats: 5 },
    });
    const read = asTenant(await admin('GET', `/tenants/${tenant.id}`));
    expect(read).toEqual(tenant);
    expect(read).toMatchObject({
      limits: { rpm: 600 },
      budgets: { usd: { month: 100 } },
      metadata: { plan: 'pro', seats: 5 },
    });
  });

  it.each([
    ['no name', {}, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a non-string name', { name: 42 }, 'name'],
    ['an unknown field', { name: 'x', plan: 'pro' }, 'plan'],
    ['an unknown limit', { name: 'x', limits: { rph: 5 } }, 'limits.rph'],
    ['a negative limit', { name: 'x', limits: { rpm: -1 } }, 'limits.rpm'],
    ['nested metadata', { name: 'x', metadata: { a: { b: 1 } } }, 'metadata.a'],
  ])('refuses a body with %s (400 naming the field)', async (_label, body, param) => {
    const res = await admin('POST', '/tenants', body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: { type: 'invalid_request_error', code: 'invalid_request', param },
    });
  });

  it('refuses bodies that are not JSON objects', async () => {
    expect((await admin('POST', '/tenants', '{"name":')).json).toMatchObject({
      error: { code: 'invalid_json' },
    });
    expect((await admin('POST', '/tenants', '[]')).status).toBe(400);
    const noType = await SELF.fetch('http://gw.test/admin/tenants', {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token' },
      body: '{"name":"x"}',
    });
    expect(noType.status).toBe(415);
    expect((await admin('POST', '/tenants', { name: 'x'.repeat(70_000) })).status).toBe(413);
  });

  it('answers 404 for an unknown tenant on get, update and disable', async () => {
    for (const [method, path, body] of [
      ['GET', '/tenants/ten_nope'],
      ['PATCH', '/tenants/ten_nope', { name: 'y' }],
      ['POST', '/tenants/ten_nope/disable'],
    ] as const) {
      const res = await admin(method, path, body);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: { code: 'tenant_not_found', type: 'not_found_error' } });
    }
  });

  it('updates only the fields given, replacing each whole', async () => {
    const tenant = await createTenant('old', { limits: { rpm: 10, tpm: 1000 }, metadata: { a: 1 } });
    const res = await admin('PATCH', `/tenants/${tenant.id}`, { name: 'new', limits: { rpm: 20 } });
    expect(res.status).toBe(200);
    expect(asTenant(res)).toMatchObject({
      name: 'new',
      limits: { rpm: 20 },
      metadata: { a: 1 },
      status: 'active',
    });
    expect((await admin('PATCH', `/tenants/${tenant.id}`, {})).status).toBe(400);
    expect((await admin('PATCH', `/tenants/${tenant.id}`, { status: 'deleted' })).json).toMatchObject({
      error: { param: 'status' },
    });
  });

  it('disables and enables a tenant', async () => {
    const tenant = await createTenant();
    expect(asTenant(await admin('POST', `/tenants/${tenant.id}/disable`)).status).toBe('disabled');
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).status).toBe('disabled');
    expect(asTenant(await admin('POST', `/tenants/${tenant.id}/enable`)).status).toBe('active');
  });

  it('lists tenants newest first in pages joined by next_cursor, without repeats', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await createTenant(`paged-${i}`, { metadata: { batch: 'paging' } })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await admin('GET', `/tenants?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = TenantList.parse(res.json);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((t) => t.id));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ids) expect(seen).toContain(id);
    const created = await Promise.all(
      seen.map(async (id) => asTenant(await admin('GET', `/tenants/${id}`)).created_at),
    );
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('filters tenants by status', async () => {
    const off = await createTenant('off');
    await admin('POST', `/tenants/${off.id}/disable`);
    const page = TenantList.parse((await admin('GET', '/tenants?status=disabled&limit=100')).json);
    expect(page.data.map((t) => t.id)).toContain(off.id);
    expect(page.data.every((t) => t.status === 'disabled')).toBe(true);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=garbage', 'cursor'],
    ['status=gone', 'status'],
    ['tenant=x', 'tenant'],
  ])('refuses the list query %s', async (query, param) => {
    const res = await admin('GET', `/tenants?${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { param } });
  });
});
