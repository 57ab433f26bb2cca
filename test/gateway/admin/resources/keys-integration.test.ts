import { SELF } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { KeyList } from '../../../../src/admin/schemas';
import { sha256Hex } from '../../../../src/util/crypto';
import { admin, asKey, createKey, createTenant, v1 } from '../../admin-helpers';

/** Fails when a response body carries the secret or a hash of it. */
async function expectNoSecret(text: string, secret: string): Promise<void> {
  expect(text).not.toContain(secret);
  expect(text).not.toContain(secret.slice(3));
  expect(text).not.toContain(await sha256Hex(secret));
  expect(text).not.toMatch(/key_hash|previous_hash/);
}

describe('POST /admin/keys', () => {
  it('returns the secret once, with a prefix, a hint and no-store', async () => {
    const tenant = await createTenant();
    const res = await admin('POST', '/keys', {
      tenant_id: tenant.id,
      name: 'ci',
      models: ['mock/echo', 'openai/*'],
      expires_at: Date.now() + 86_400_000,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toMatchObject({
      tenant_id: tenant.id,
      name: 'ci',
      status: 'active',
      models: ['mock/echo', 'openai/*'],
      log_payload: false,
      revoked_at: null,
      grace_expires_at: null,
    });
    const { key, hint, id } = res.json as { key: string; hint: string; id: string };
    expect(key).toMatch(/^ew_[A-Za-z0-9_-]{43}$/);
    expect(hint).toBe(`ew_…${key.slice(-4)}`);
    expect(id).toMatch(/^key_/);
    expect(res.text).not.toMatch(/key_hash/);
  });

  it('stores every setting given and defaults the rest', async () => {
    const tenant = await createTenant();
    const settings = {
      limits: { rpm: 60, concurrent: 2 },
      budgets: { tokens: { day: 10_000 } },
      cache: { ttl_seconds: 300, semantic: true },
      log_payload: true,
      metadata: { owner: 'ana' },
    };
    const created = await createKey(tenant.id, settings);
    expect(created).toMatchObject({ ...settings, models: null, expires_at: null, name: '' });
    expect(asKey(await admin('GET', `/keys/${created.id}`))).toMatchObject(settings);
  });

  it('refuses keys for unknown (404) and disabled (409) tenants', async () => {
    const unknown = await admin('POST', '/keys', { tenant_id: 'ten_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { code: 'tenant_not_found', param: 'tenant_id' } });
    const tenant = await createTenant();
    await admin('POST', `/tenants/${tenant.id}/disable`);
    const disabled = await admin('POST', '/keys', { tenant_id: tenant.id });
    expect(disabled.status).toBe(409);
    expect(disabled.json).toMatchObject({ error: { code: 'tenant_disabled' } });
  });

  it.each([
    ['no tenant_id', { tenant_id: undefined }, 'tenant_id'],
    ['a bad model pattern', { models: ['gpt 4o'] }, 'models.0'],
    ['a wildcard in the middle', { models: ['openai/gpt-*'] }, 'models.0'],
    ['models not an array', { models: 'mock/echo' }, 'models'],
    ['an unknown cache setting', { cache: { ttl: 5 } }, 'cache.ttl'],
    ['a cache ttl below KV minimum', { cache: { ttl_seconds: 10 } }, 'cache.ttl_seconds'],
    ['a non-boolean log_payload', { log_payload: 'yes' }, 'log_payload'],
    ['an expiry in the past (seconds, not ms)', { expires_at: 1_767_225_600 }, 'expires_at'],
    ['a fractional expiry', { expires_at: Date.now() + 1.5 }, 'expires_at'],
    ['the secret itself', { key: 'ew_mine' }, 'key'],
  ])('refuses a body with %s', async (_label, body, param) => {
    const tenant = await createTenant();
    const res = await admin('POST', '/keys', { tenant_id: tenant.id, ...body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { param } });
  });
});

describe('reading and changing keys', () => {
  it('never returns the secret or its hash after creation', async () => {
    const tenant = await createTenant();
    const { id, key: secret } = await createKey(tenant.id, { name: 'leak-check' });
    const bodies = [
      await admin('GET', `/keys/${id}`),
      await admin('GET', `/keys?tenant_id=${tenant.id}`),
      await admin('PATCH', `/keys/${id}`, { name: 'renamed' }),
      await admin('DELETE', `/keys/${id}`),
      await admin('POST', `/keys/${id}/rotate`),
    ];
    for (const res of bodies) await expectNoSecret(res.text, secret);
  });

  it('never writes a secret to the console, on admin calls or on /v1', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level),
    );
    try {
      const tenant = await createTenant();
      const { id, key: secret } = await createKey(tenant.id, { models: ['mock/echo'] });
      const { key: rotated } = (await admin('POST', `/keys/${id}/rotate`, { grace_seconds: 60 })).json as {
        key: string;
      };
      for (const key of [secret, rotated]) {
        await (
          await v1('/chat/completions', key, {
            model: 'mock/echo',
            messages: [{ role: 'user', content: 'hi' }],
          })
        ).text();
        await (await v1('/chat/completions', key, { model: 'mock/mock-large', messages: [] })).text();
      }
      await admin('DELETE', `/keys/${id}`);
      await (await v1('/models', rotated)).text();
      const written = spies
        .flatMap((spy) => spy.mock.calls.flat())
        .map((arg) => (typeof arg === 'string' ? arg : (JSON.stringify(arg) ?? String(arg))));
      for (const s of [secret, rotated]) for (const line of written) expect(line).not.toContain(s.slice(3));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('answers 404 for unknown keys on every single-key route', async () => {
    for (const [method, path, body] of [
      ['GET', '/keys/key_nope'],
      ['PATCH', '/keys/key_nope', { name: 'x' }],
      ['POST', '/keys/key_nope/rotate'],
      ['DELETE', '/keys/key_nope'],
    ] as const) {
      const res = await admin(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toMatchObject({ error: { code: 'key_not_found', type: 'not_found_error' } });
    }
  });

  it('updates the given fields and clears models with null', async () => {
    const tenant = await createTenant();
    const { id } = await createKey(tenant.id, {
      models: ['mock/echo'],
      limits: { rpm: 5 },
      metadata: { a: 1 },
    });
    const res = await admin('PATCH', `/keys/${id}`, {
      models: null,
      limits: {},
      log_payload: true,
      expires_at: Date.now() + 60_000,
    });
    expect(res.status).toBe(200);
    expect(asKey(res)).toMatchObject({ models: null, limits: {}, log_payload: true, metadata: { a: 1 } });
    expect(asKey(await admin('PATCH', `/keys/${id}`, { expires_at: null })).expires_at).toBeNull();
  });

  it.each([
    ['an empty body', {}],
    ['a tenant move', { tenant_id: 'ten_other' }],
    ['a status change', { status: 'active' }],
    ['a past expiry', { expires_at: 1000 }],
  ])('refuses an update with %s', async (_label, body) => {
    const tenant = await createTenant();
    const { id } = await createKey(tenant.id);
    expect((await admin('PATCH', `/keys/${id}`, body)).status).toBe(400);
  });

  it('revokes idempotently, keeping the first revocation time', async () => {
    const tenant = await createTenant();
    const { id } = await createKey(tenant.id);
    const first = asKey(await admin('DELETE', `/keys/${id}`));
    expect(first.status).toBe('revoked');
    expect(first.revoked_at).toEqual(expect.any(Number));
    const second = asKey(await admin('DELETE', `/keys/${id}`));
    expect(second.revoked_at).toBe(first.revoked_at);
  });

  it('rotates to a new secret, reporting the grace period of the old one', async () => {
    const tenant = await createTenant();
    const created = await createKey(tenant.id);
    const before = Date.now();
    const res = await admin('POST', `/keys/${created.id}/rotate`, { grace_seconds: 3600 });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rotated = res.json as { key: string; hint: string; grace_expires_at: number };
    expect(rotated.key).toMatch(/^ew_/);
    expect(rotated.key).not.toBe(created.key);
    expect(rotated.hint).toBe(`ew_…${rotated.key.slice(-4)}`);
    expect(rotated.grace_expires_at).toBeGreaterThanOrEqual(before + 3_600_000);
    const noGrace = await admin('POST', `/keys/${created.id}/rotate`);
    expect(noGrace.json).toMatchObject({ grace_expires_at: null });
  });

  it('refuses to rotate a revoked key and bad grace periods', async () => {
    const tenant = await createTenant();
    const { id } = await createKey(tenant.id);
    expect((await admin('POST', `/keys/${id}/rotate`, { grace_seconds: -1 })).json).toMatchObject({
      error: { param: 'grace_seconds' },
    });
    expect((await admin('POST', `/keys/${id}/rotate`, { grace_seconds: 8 * 86_400 })).status).toBe(400);
    expect((await admin('POST', `/keys/${id}/rotate`, { grace: 5 })).status).toBe(400);
    await admin('DELETE', `/keys/${id}`);
    const res = await admin('POST', `/keys/${id}/rotate`);
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: { code: 'key_revoked' } });
  });
});

describe('tenant scoping', () => {
  it("never lists one tenant's keys under another", async () => {
    const a = await createTenant('a');
    const b = await createTenant('b');
    const keyA = await createKey(a.id, { name: 'a-key' });
    const keyB = await createKey(b.id, { name: 'b-key' });
    const listB = KeyList.parse((await admin('GET', `/keys?tenant_id=${b.id}&limit=100`)).json);
    expect(listB.data.map((k) => k.id)).toEqual([keyB.id]);
    expect(listB.data.every((k) => k.tenant_id === b.id)).toBe(true);
    const listA = KeyList.parse((await admin('GET', `/keys?tenant_id=${a.id}`)).json);
    expect(listA.data.map((k) => k.id)).toEqual([keyA.id]);
  });

  it("treats another tenant's key as not found on scoped single-key routes, and changes nothing", async () => {
    const a = await createTenant('a');
    const b = await createTenant('b');
    const keyA = await createKey(a.id, { name: 'a-key' });
    const scoped = `/keys/${keyA.id}?tenant_id=${b.id}`;
    for (const [method, path, body] of [
      ['GET', scoped],
      ['PATCH', scoped, { name: 'hijacked' }],
      ['POST', `/keys/${keyA.id}/rotate?tenant_id=${b.id}`],
      ['DELETE', scoped],
    ] as const) {
      expect((await admin(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const after = asKey(await admin('GET', `/keys/${keyA.id}?tenant_id=${a.id}`));
    expect(after).toMatchObject({ name: 'a-key', status: 'active', hint: keyA.hint });
  });

  it('requires tenant_id on the key list, and 404s an unknown tenant', async () => {
    expect((await admin('GET', '/keys')).json).toMatchObject({ error: { param: 'tenant_id' } });
    expect((await admin('GET', '/keys?tenant_id=ten_nope')).status).toBe(404);
  });

  it("pages through a tenant's keys and filters by status", async () => {
    const tenant = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createKey(tenant.id, { name: `k${i}` })).id);
    await admin('DELETE', `/keys/${ids[0]}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = KeyList.parse(
        (await admin('GET', `/keys?tenant_id=${tenant.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json,
      );
      seen.push(...page.data.map((k) => k.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect([...seen].sort()).toEqual([...ids].sort());
    const revoked = KeyList.parse((await admin('GET', `/keys?tenant_id=${tenant.id}&status=revoked`)).json);
    expect(revoked.data.map((k) => k.id)).toEqual([ids[0]]);
  });
});

describe('GET /admin/openapi.json', () => {
  it('is an OpenAPI 3.1 document with a path for every admin operation', async () => {
    const res = await SELF.fetch('http://gw.test/admin/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/admin/admins',
      '/admin/admins/{id}',
      '/admin/admins/{id}/rotate',
      '/admin/analytics',
      '/admin/analytics/export.csv',
      '/admin/audit',
      '/admin/keys',
      '/admin/keys/{id}',
      '/admin/keys/{id}/rotate',
      '/admin/limits/keys/{id}',
      '/admin/limits/tenants/{id}',
      '/admin/logs',
      '/admin/logs/export',
      '/admin/logs/reconcile',
      '/admin/logs/{request_id}',
      '/admin/mcp-servers',
      '/admin/mcp-servers/{server}',
      '/admin/me',
      '/admin/metrics',
      '/admin/pricing',
      '/admin/pricing/{model}',
      '/admin/providers',
      '/admin/routes',
      '/admin/routes/{id}',
      '/admin/routes/{id}/health',
      '/admin/tenants',
      '/admin/tenants/{id}',
      '/admin/tenants/{id}/alert-secret',
      '/admin/tenants/{id}/alerts',
      '/admin/tenants/{id}/disable',
      '/admin/tenants/{id}/enable',
      '/admin/tenants/{id}/end-users/overrides',
      '/admin/tenants/{id}/end-users/{user}',
      '/admin/tenants/{id}/mcp-servers',
      '/admin/tenants/{id}/mcp-servers/{server}',
      '/admin/tenants/{id}/mcp-servers/{server}/token',
      '/admin/tenants/{id}/provider-keys',
      '/admin/tenants/{id}/provider-keys/{provider}',
      '/admin/usage',
    ]);
    expect(doc.components.schemas).toHaveProperty('KeyCreate');
    expect(JSON.stringify(doc.components.schemas.ApiKey)).not.toMatch(/key_hash|"key"/);
    expect(JSON.stringify(doc.components.schemas.ApiKeyWithSecret)).toMatch(/"key"/);
  });
});
