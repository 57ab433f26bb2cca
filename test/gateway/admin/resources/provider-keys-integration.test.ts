import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ProviderKeyInfo, ProviderKeyList } from '../../../../src/admin/schemas';
import { createApp } from '../../../../src/app';
import { getDeps } from '../../../../src/deps';
import { tenantProviderKey } from '../../../../src/providers/tenant-key';
import { kvKey } from '../../../../src/storage/key-store';
import { sha256Hex } from '../../../../src/util/crypto';
import { ADMIN_TOKEN, admin, createKey, createTenant } from '../../admin-helpers';
import { bindings } from '../../log-fixtures';

const OPENAI_KEY = 'sk-proj-tenantOwnKey0123456789abcdefWXYZ';
const path = (tenant: string, provider = '') =>
  `/tenants/${tenant}/provider-keys${provider ? `/${provider}` : ''}`;

/** No answer may carry the key, nor anything of it beyond the hint's 7 characters. */
function expectNoKey(text: string, key: string): void {
  expect(text).not.toContain(key);
  expect(text).not.toContain(key.slice(3, -4));
  expect(text).not.toMatch(/ciphertext|"iv"/);
}

describe('PUT /admin/tenants/:id/provider-keys/:provider', () => {
  it('stores a key (201), rotates it (200), and answers only its hint', async () => {
    const tenant = await createTenant();
    const created = await admin('PUT', path(tenant.id, 'openai'), { key: OPENAI_KEY });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const info = ProviderKeyInfo.parse(created.json);
    expect(info).toMatchObject({ provider: 'openai', hint: 'sk-…WXYZ' });
    expect(info.created_at).toBe(info.updated_at);
    expectNoKey(created.text, OPENAI_KEY);

    const rotated = await admin('PUT', path(tenant.id, 'openai'), {
      key: '  sk-other-key-000000000000abcd\n',
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({ provider: 'openai', hint: 'sk-…abcd', created_at: info.created_at });
    expect(ProviderKeyInfo.parse(rotated.json).updated_at).toBeGreaterThanOrEqual(info.updated_at);
  });

  it('never stores the key in the clear: D1 holds a ciphertext and the hint', async () => {
    const tenant = await createTenant();
    await admin('PUT', path(tenant.id, 'anthropic'), { key: OPENAI_KEY });
    const row = await env.DB.prepare('SELECT * FROM tenant_provider_keys WHERE tenant_id = ?')
      .bind(tenant.id)
      .first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expectNoKey(JSON.stringify({ ...row, ciphertext: undefined, iv: undefined }), OPENAI_KEY);
    expect(atob(String(row?.ciphertext))).not.toContain(OPENAI_KEY);
  });

  it('refuses a provider the gateway does not know, or one that takes no tenant key, naming provider', async () => {
    const tenant = await createTenant();
    const unknown = await admin('PUT', path(tenant.id, 'nope'), { key: OPENAI_KEY });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ error: { param: 'provider', code: 'unknown_provider' } });
    const mock = await admin('PUT', path(tenant.id, 'mock'), { key: OPENAI_KEY });
    expect(mock.status).toBe(400);
    expect(mock.json).toMatchObject({ error: { param: 'provider', code: 'provider_key_not_supported' } });
  });

  it("refuses a key the provider cannot use, in the provider's own form (Bedrock: ID:SECRET)", async () => {
    const tenant = await createTenant();
    const bad = await admin('PUT', path(tenant.id, 'bedrock'), { key: 'not-an-aws-key-pair' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { param: 'key', code: 'invalid_provider_key' } });
    expect(bad.text).not.toContain('not-an-aws-key-pair');
    const good = await admin('PUT', path(tenant.id, 'bedrock'), {
      key: 'AKIDTENANT0000000000:tenantSecretKey0000',
    });
    expect(good.status).toBe(201);
  });

  it('refuses an unknown tenant with 404', async () => {
    const res = await admin('PUT', path('ten_nope', 'openai'), { key: OPENAI_KEY });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: { code: 'tenant_not_found' } });
  });

  it('refuses a malformed key with 400 naming key, without quoting it', async () => {
    const tenant = await createTenant();
    for (const key of [
      'short',
      'sk-with space-inside-0000',
      `sk-${'x'.repeat(4100)}`,
      'sk-tab\there-000',
      12345678,
    ]) {
      const res = await admin('PUT', path(tenant.id, 'openai'), { key });
      expect(res.status, String(key).slice(0, 20)).toBe(400);
      expect(res.json).toMatchObject({ error: { param: 'key', code: 'invalid_request' } });
      if (typeof key === 'string') expect(res.text).not.toContain(key);
    }
    const extra = await admin('PUT', path(tenant.id, 'openai'), { key: OPENAI_KEY, hint: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.json).toMatchObject({ error: { param: 'hint' } });
    expect((await admin('GET', path(tenant.id))).json).toMatchObject({ data: [] });
  });

  it('answers 503 provider_keys_unavailable and stores nothing without PROVIDER_KEYS_SECRET', async () => {
    const tenant = await createTenant();
    for (const secret of [undefined, 'too-short']) {
      const res = await createApp().request(
        `/admin${path(tenant.id, 'openai')}`,
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ key: OPENAI_KEY }),
        },
        { ...env, PROVIDER_KEYS_SECRET: secret },
      );
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'provider_keys_unavailable' } });
      expectNoKey(text, OPENAI_KEY);
    }
    expect((await admin('GET', path(tenant.id))).json).toMatchObject({ data: [] });
  });
});

describe('GET and DELETE /admin/tenants/:id/provider-keys', () => {
  it("lists a tenant's keys by provider with hints only, and nothing of another tenant's", async () => {
    const [a, b] = [await createTenant('a'), await createTenant('b')];
    await admin('PUT', path(a.id, 'openai'), { key: OPENAI_KEY });
    await admin('PUT', path(a.id, 'anthropic'), { key: 'sk-ant-api03-0000000000zzzz' });
    await admin('PUT', path(b.id, 'groq'), { key: 'gsk_0000000000000000yyyy' });
    const list = await admin('GET', path(a.id));
    expect(list.status).toBe(200);
    const body = ProviderKeyList.parse(list.json);
    expect(body.data.map((k) => [k.provider, k.hint])).toEqual([
      ['anthropic', 'sk-…zzzz'],
      ['openai', 'sk-…WXYZ'],
    ]);
    expect(body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expectNoKey(list.text, OPENAI_KEY);
    expect((await admin('GET', path('ten_nope'))).status).toBe(404);
  });

  it('deletes a key (204), then 404 provider_key_not_found', async () => {
    const tenant = await createTenant();
    await admin('PUT', path(tenant.id, 'openai'), { key: OPENAI_KEY });
    const gone = await admin('DELETE', path(tenant.id, 'openai'));
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await admin('GET', path(tenant.id))).json).toMatchObject({ data: [] });
    const again = await admin('DELETE', path(tenant.id, 'openai'));
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ error: { code: 'provider_key_not_found', param: 'provider' } });
    expect((await admin('DELETE', path('ten_nope', 'openai'))).status).toBe(404);
  });

  it('is behind the admin guard', async () => {
    for (const [method, p] of [
      ['GET', path('ten_x')],
      ['PUT', path('ten_x', 'openai')],
      ['DELETE', path('ten_x', 'openai')],
    ] as const) {
      const res = await admin(method, p, method === 'PUT' ? { key: OPENAI_KEY } : undefined, null);
      expect(res.status, `${method} ${p}`).toBe(401);
    }
  });
});

describe("the tenant's key records", () => {
  /** One admin call through the app in this module instance, so its invalidation reaches the isolate cache read below. */
  async function call(method: string, p: string, body?: unknown): Promise<number> {
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request(`http://gw.test/admin${p}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      bindings,
      ctx,
    );
    await res.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return res.status;
  }

  it('carry the sealed key from the next lookup on, through create, rotate and delete', async () => {
    const tenant = await createTenant();
    const [first, second] = [await createKey(tenant.id), await createKey(tenant.id)];
    const { keys } = getDeps(bindings);
    const hashes = [await sha256Hex(first.key), await sha256Hex(second.key)];
    const secret = bindings.PROVIDER_KEYS_SECRET;
    // Warm every cache tier with the records as they are before the write.
    for (const hash of hashes) expect((await keys.findByHash(hash))?.providerKeys).toEqual({});
    expect(await env.KV_KEYS.get(kvKey(hashes[0]!))).not.toBeNull();

    expect(await call('PUT', path(tenant.id, 'byok-mock'), { key: 'tenant-key-one-0001' })).toBe(201);
    for (const hash of hashes) {
      const record = await keys.findByHash(hash);
      expect(Object.keys(record?.providerKeys ?? {})).toEqual(['byok-mock']);
      expect(JSON.stringify(record)).not.toContain('tenant-key-one');
      expect(await tenantProviderKey(record!, 'byok-mock', secret)).toBe('tenant-key-one-0001');
      expect(await tenantProviderKey(record!, 'openai', secret)).toBeNull();
    }
    const cached = await env.KV_KEYS.get(kvKey(hashes[0]!));
    expect(cached).not.toContain('tenant-key-one');

    expect(await call('PUT', path(tenant.id, 'byok-mock'), { key: 'tenant-key-two-0002' })).toBe(200);
    const rotated = await keys.findByHash(hashes[1]!);
    expect(await tenantProviderKey(rotated!, 'byok-mock', secret)).toBe('tenant-key-two-0002');

    expect(await call('DELETE', path(tenant.id, 'byok-mock'))).toBe(204);
    const deleted = await keys.findByHash(hashes[0]!);
    expect(deleted?.providerKeys).toEqual({});
    expect(await tenantProviderKey(deleted!, 'byok-mock', secret)).toBeNull();
  });
});
