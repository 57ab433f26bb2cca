/**
 * Scopes below tenants and keys in the admin API: a tenant's end-user default, model and tag rules, tag
 * keys and downgrade, a key's model rules and downgrade (stored in one JSON column each, returned flat,
 * each field replaced whole, in the key records at once, audited), a downgrade's route checked, and an
 * end user's override set, read, listed and removed in the tenant's user shards.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import { d1KeyLoader } from '../../../../src/storage/d1-keys';
import { TieredKeyStore } from '../../../../src/storage/key-store';
import { sha256Hex } from '../../../../src/util/crypto';
import { admin, asKey, asTenant, createKey, createTenant } from '../../admin-helpers';

/** The key's record as the gateway's lookup finds it (isolate memory → KV → D1), so a stale cache shows. */
const keyStore = () => new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB));

const DEFAULT_SCOPES = { end_users: null, model_limits: [], tag_limits: [], tag_keys: [], downgrade: null };

async function route(name: string, tenantId: string | null): Promise<void> {
  const res = await admin('POST', '/routes', {
    name,
    ...(tenantId ? { tenant_id: tenantId } : {}),
    spec: { strategy: 'fallback', targets: [{ model: 'mock/echo' }] },
  });
  expect(res.status, res.text).toBe(201);
}

interface AuditRows {
  data: { operation: string | null; before: Record<string, unknown>; after: Record<string, unknown> }[];
}

async function auditOf(tenantId: string): Promise<AuditRows['data']> {
  const res = await admin('GET', `/audit?tenant_id=${tenantId}&resource=tenant&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.json as AuditRows).data;
}

describe('a tenant', () => {
  it('has no scopes until set, then returns each field as set, each replaced whole', async () => {
    const tenant = await createTenant('scopes-tenant');
    expect(tenant).toMatchObject(DEFAULT_SCOPES);
    const first = await admin('PATCH', `/tenants/${tenant.id}`, {
      end_users: { limits: { rpm: 10 }, budgets: { usd: { day: 1 }, requests: { day: 50 } } },
      model_limits: [{ match: 'openai/*', limits: { rpm: 100 }, budgets: { usd: { day: 5 } } }],
      tag_limits: [{ tag: 'team', value: 'search', budgets: { usd: { month: 500 } } }],
      tag_keys: ['team'],
    });
    expect(first.status, first.text).toBe(200);
    expect(asTenant(first)).toMatchObject({
      end_users: { limits: { rpm: 10 }, budgets: { usd: { day: 1 }, requests: { day: 50 } } },
      model_limits: [{ match: 'openai/*', limits: { rpm: 100 }, budgets: { usd: { day: 5 } } }],
      tag_limits: [{ tag: 'team', value: 'search', limits: {}, budgets: { usd: { month: 500 } } }],
      tag_keys: ['team'],
      downgrade: null,
    });
    // end_users replaced whole (not merged), the other scope fields and the tenant's own limits kept.
    const second = await admin('PATCH', `/tenants/${tenant.id}`, {
      end_users: { limits: { tpm: 500 } },
      limits: { rpm: 1000 },
    });
    const got = asTenant(await admin('GET', `/tenants/${tenant.id}`));
    expect(asTenant(second)).toEqual(got);
    expect(got.end_users).toEqual({ limits: { tpm: 500 }, budgets: {} });
    expect(got.model_limits).toHaveLength(1);
    expect(got.tag_keys).toEqual(['team']);
    expect(got.limits).toEqual({ rpm: 1000 });
    const cleared = asTenant(
      await admin('PATCH', `/tenants/${tenant.id}`, { end_users: null, model_limits: [] }),
    );
    expect(cleared).toMatchObject({ end_users: null, model_limits: [], tag_keys: ['team'] });
  });

  it.each([
    [{ end_users: { limits: { max_tokens: 5 } } }, 'end_users.limits.max_tokens'],
    [{ model_limits: [{ match: 'open ai/*' }] }, 'model_limits.0.match'],
    [{ tag_limits: [{ value: 'x' }] }, 'tag_limits.0.tag'],
    [{ tag_keys: Array.from({ length: 9 }, (_, i) => `k${i}`) }, 'tag_keys'],
    [{ budgets: { requests: { day: 1.5 } } }, 'budgets.requests.day'],
    [{ downgrade: { at_percent: 0, route: 'cheap' } }, 'downgrade.at_percent'],
  ])('refuses %j naming %s', async (body, param) => {
    const tenant = await createTenant('scopes-bad');
    const res = await admin('PATCH', `/tenants/${tenant.id}`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ error: { param } });
  });

  it("accepts a downgrade to its own route or a global one, and refuses one to no route or another tenant's", async () => {
    const tenant = await createTenant('scopes-downgrade');
    const other = await createTenant('scopes-downgrade-other');
    const suffix = crypto.randomUUID().slice(0, 8);
    await route(`own-${suffix}`, tenant.id);
    await route(`global-${suffix}`, null);
    await route(`theirs-${suffix}`, other.id);
    const own = await admin('PATCH', `/tenants/${tenant.id}`, {
      downgrade: { at_percent: 90, route: `own-${suffix}` },
      model_limits: [{ match: 'openai/*', downgrade: { at_percent: 80, route: `global-${suffix}` } }],
    });
    expect(own.status, own.text).toBe(200);
    expect(asTenant(own).downgrade).toEqual({ at_percent: 90, route: `own-${suffix}` });

    const theirs = await admin('PATCH', `/tenants/${tenant.id}`, {
      tag_limits: [
        { tag: 'team', downgrade: { at_percent: 50, route: `global-${suffix}` } },
        { tag: 'feature', downgrade: { at_percent: 50, route: `theirs-${suffix}` } },
      ],
    });
    expect(theirs.status).toBe(400);
    expect(theirs.json).toMatchObject({
      error: { param: 'tag_limits.1.downgrade.route', code: 'unknown_route' },
    });
    const none = await admin('PATCH', `/tenants/${tenant.id}`, {
      end_users: { downgrade: { at_percent: 90, route: 'nowhere' } },
    });
    expect(none.json).toMatchObject({ error: { param: 'end_users.downgrade.route' } });
    const create = await admin('POST', '/tenants', {
      name: 'scopes-create',
      downgrade: { at_percent: 90, route: `own-${suffix}` },
    });
    expect(create.status, 'a new tenant has no routes of its own').toBe(400);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).tag_limits).toEqual([]);
  });

  it("is in its keys' records at once after a change, and the change is audited", async () => {
    const tenant = await createTenant('scopes-records');
    const { key } = await createKey(tenant.id);
    const keys = keyStore();
    const hash = await sha256Hex(key);
    expect((await keys.findByHash(hash))?.tenantScopes).toEqual(DEFAULT_SCOPES);
    const tag_limits = [{ tag: 'team', budgets: { usd: { month: 5 } } }];
    await admin('PATCH', `/tenants/${tenant.id}`, { tag_limits, tag_keys: ['team', 'feature'] });
    expect((await keys.findByHash(hash))?.tenantScopes).toMatchObject({
      tag_limits: [{ tag: 'team', limits: {}, budgets: { usd: { month: 5 } } }],
      tag_keys: ['team', 'feature'],
    });
    const [latest] = await auditOf(tenant.id);
    expect(latest?.operation).toBe('PATCH /admin/tenants/{id}');
    expect(latest?.before.scopes).toEqual({});
    expect(latest?.after.scopes).toEqual({
      tag_limits: [{ tag: 'team', limits: {}, budgets: { usd: { month: 5 } } }],
      tag_keys: ['team', 'feature'],
    });
  });
});

describe('a key', () => {
  it('takes model rules and a downgrade on create and update, in its record at once', async () => {
    const tenant = await createTenant('scopes-key');
    const suffix = crypto.randomUUID().slice(0, 8);
    await route(`cheap-${suffix}`, tenant.id);
    const created = await createKey(tenant.id, {
      model_limits: [{ match: 'anthropic/claude-opus-*', limits: { rpm: 5 } }],
    });
    expect(created).toMatchObject({
      model_limits: [{ match: 'anthropic/claude-opus-*', limits: { rpm: 5 }, budgets: {} }],
      downgrade: null,
    });
    const hash = await sha256Hex(created.key);
    const keys = keyStore();
    expect((await keys.findByHash(hash))?.scopes.model_limits).toHaveLength(1);
    const patched = await admin('PATCH', `/keys/${created.id}`, {
      downgrade: { at_percent: 75, route: `cheap-${suffix}` },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(asKey(patched).model_limits).toHaveLength(1);
    expect((await keys.findByHash(hash))?.scopes.downgrade).toEqual({
      at_percent: 75,
      route: `cheap-${suffix}`,
    });
    const bad = await admin('PATCH', `/keys/${created.id}`, {
      model_limits: [{ match: 'openai/*', downgrade: { at_percent: 75, route: 'nowhere' } }],
    });
    expect(bad.json).toMatchObject({ error: { param: 'model_limits.0.downgrade.route' } });
    const cleared = asKey(await admin('PATCH', `/keys/${created.id}`, { downgrade: null }));
    expect(cleared.downgrade).toBeNull();
    expect((await keys.findByHash(hash))?.scopes.downgrade).toBeNull();
  });
});

describe('an end user of a tenant', () => {
  const user = (tenantId: string, id: string) => `/tenants/${tenantId}/end-users/${encodeURIComponent(id)}`;

  it("follows the tenant's default until an override is set, then the override, until it is removed", async () => {
    const tenant = await createTenant('scopes-end-user', {
      end_users: { budgets: { usd: { day: 1 } } },
    });
    const unseen = await admin('GET', user(tenant.id, 'alice'));
    expect(unseen.status, unseen.text).toBe(200);
    expect(unseen.json).toMatchObject({
      tenant_id: tenant.id,
      user: 'alice',
      metered: true,
      override: null,
      effective: { limits: {}, budgets: { usd: { day: 1 } } },
      usage: {
        scope: 'user',
        id: 'alice',
        status: 'ok',
        budget_usage: { usd: { day: { limit: 1, spent: 0 } } },
      },
    });
    const rule = { limits: { rpm: 5 }, budgets: { usd: { day: 20 }, requests: { day: 100 } } };
    const put = await admin('PUT', user(tenant.id, 'alice'), rule);
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({
      override: rule,
      effective: rule,
      default: { budgets: { usd: { day: 1 } } },
    });
    expect((await admin('GET', user(tenant.id, 'alice'))).json).toMatchObject({
      override: rule,
      usage: { requests: { limit: 5 }, budget_usage: { requests: { day: { limit: 100 } } } },
    });
    const removed = await admin('DELETE', user(tenant.id, 'alice'));
    expect(removed.json).toMatchObject({ override: null, effective: { budgets: { usd: { day: 1 } } } });
    expect((await admin('DELETE', user(tenant.id, 'alice'))).status, 'idempotent').toBe(200);
  });

  it('turns end-user metering on when an override is set on a tenant that has none, in its records at once', async () => {
    const tenant = await createTenant('scopes-end-user-off');
    const { key } = await createKey(tenant.id);
    const keys = keyStore();
    const hash = await sha256Hex(key);
    expect((await keys.findByHash(hash))?.tenantScopes.end_users).toBeNull();
    expect((await admin('GET', user(tenant.id, 'bob'))).json).toMatchObject({
      metered: false,
      effective: null,
    });
    const put = await admin('PUT', user(tenant.id, 'bob'), { budgets: { requests: { day: 3 } } });
    expect(put.json).toMatchObject({ metered: true, default: { limits: {}, budgets: {} } });
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).end_users).toEqual({
      limits: {},
      budgets: {},
    });
    expect((await keys.findByHash(hash))?.tenantScopes.end_users).toEqual({ limits: {}, budgets: {} });
  });

  it('lists every override across the shards, by user id, and audits each change on the tenant', async () => {
    const tenant = await createTenant('scopes-overrides');
    const ids = Array.from({ length: 12 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
    for (const id of ids) {
      const res = await admin('PUT', user(tenant.id, id), { limits: { rpm: 1 + ids.indexOf(id) } });
      expect(res.status, res.text).toBe(200);
    }
    const all = await admin('GET', `/tenants/${tenant.id}/end-users/overrides`);
    expect(all.status, all.text).toBe(200);
    const list = all.json as {
      data: { user: string; rule: { limits: { rpm: number } } }[];
      has_more: boolean;
    };
    expect(list.data.map((o) => o.user)).toEqual(ids);
    expect(list.data[3]?.rule.limits.rpm).toBe(4);
    expect(list.has_more).toBe(false);
    const page = (await admin('GET', `/tenants/${tenant.id}/end-users/overrides?limit=5`))
      .json as typeof list;
    expect(page.data.map((o) => o.user)).toEqual(ids.slice(0, 5));
    expect(page.has_more).toBe(true);

    await admin('DELETE', user(tenant.id, 'user-00'));
    const [removed, set] = await auditOf(tenant.id);
    expect(removed).toMatchObject({
      operation: 'DELETE /admin/tenants/{id}/end-users/{user}',
      before: { 'end_user:user-00': { limits: { rpm: 1 }, budgets: {} } },
      after: { 'end_user:user-00': null },
    });
    expect(set).toMatchObject({
      operation: 'PUT /admin/tenants/{id}/end-users/{user}',
      before: { 'end_user:user-11': null },
    });
  });

  it('refuses a bad rule, a downgrade to no route, a bad id and an unknown tenant', async () => {
    const tenant = await createTenant('scopes-end-user-bad');
    const bad = await admin('PUT', user(tenant.id, 'carol'), { limits: { rpm: -1 } });
    expect(bad.json).toMatchObject({ error: { param: 'limits.rpm' } });
    const noRoute = await admin('PUT', user(tenant.id, 'carol'), {
      downgrade: { at_percent: 90, route: 'nowhere' },
    });
    expect(noRoute.status).toBe(400);
    expect(noRoute.json).toMatchObject({ error: { param: 'downgrade.route' } });
    const control = await admin('GET', user(tenant.id, 'a\u0001b'));
    expect(control.json).toMatchObject({ error: { param: 'user', code: 'invalid_end_user' } });
    expect((await admin('GET', user('ten_nope', 'carol'))).status).toBe(404);
    expect((await admin('GET', user(tenant.id, 'carol'))).json).toMatchObject({ override: null });
  });

  it('takes an id with slashes and spaces as one user', async () => {
    const tenant = await createTenant('scopes-end-user-id');
    const id = 'org/42 user@example.com';
    const put = await admin('PUT', user(tenant.id, id), { limits: { tpm: 10 } });
    expect(put.json).toMatchObject({ user: id });
    expect((await admin('GET', user(tenant.id, id))).json).toMatchObject({
      override: { limits: { tpm: 10 } },
    });
  });
});

describe('the OpenAPI document', () => {
  it('describes the scope fields and the end-user routes', () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const field of ['end_users', 'model_limits', 'tag_limits', 'tag_keys', 'downgrade'])
      expect(doc.components.schemas.TenantUpdate?.properties).toHaveProperty(field);
    for (const field of ['model_limits', 'downgrade']) {
      expect(doc.components.schemas.KeyUpdate?.properties).toHaveProperty(field);
      expect(doc.components.schemas.ApiKey?.properties).toHaveProperty(field);
    }
    expect(Object.keys(doc.paths['/admin/tenants/{id}/end-users/{user}'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    expect(doc.paths).toHaveProperty('/admin/tenants/{id}/end-users/overrides');
    expect(doc.components.schemas.UsageReport?.properties).toHaveProperty('status');
  });
});
