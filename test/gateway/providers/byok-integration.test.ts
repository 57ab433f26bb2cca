/**
 * Tenants' own provider keys end to end: a tenant that stored a key for the
 * `byok-mock` row (vitest.config.ts) is served with it, every other tenant with
 * the deployment's key, and a stored key that cannot be opened is a 503 with
 * no upstream call. The mock answers with the SHA-256 of the key it was
 * called with (`x-mock-key-sha256`), which the row names as its request-id
 * header, so the gateway relays it as `x-edgeway-upstream-request-id`.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app';
import { buildRegistry } from '../../../src/providers/registry';
import { sha256Hex } from '../../../src/util/crypto';
import { admin, createKey, createTenant, v1 } from '../admin-helpers';
import { bindings } from '../log-fixtures';

const TENANT_KEY = 'tenant-own-key-0001';
const DEPLOYMENT_KEY = 'deployment-key';
const body = { model: 'byok-mock/echo', messages: [{ role: 'user', content: 'whose key?' }] };

async function tenantWithKey(providerKey: string | null): Promise<{ tenantId: string; key: string }> {
  const tenant = await createTenant();
  if (providerKey !== null) {
    const put = await admin('PUT', `/tenants/${tenant.id}/provider-keys/byok-mock`, { key: providerKey });
    expect(put.status).toBe(201);
  }
  return { tenantId: tenant.id, key: (await createKey(tenant.id)).key };
}

describe('the registry with a tenant key', () => {
  it("sends the tenant's key to the provider instead of the deployment's", async () => {
    const registry = buildRegistry(bindings);
    for (const [key, expected] of [
      [TENANT_KEY, TENANT_KEY],
      [null, DEPLOYMENT_KEY],
    ] as const) {
      const adapter = registry.get('byok-mock', key);
      if (typeof adapter === 'string') throw new Error(adapter);
      const target = adapter.prepare({ endpoint: 'chat', model: 'echo', stream: false, passHeaders: [] });
      if (!target) throw new Error('no target');
      const res = await adapter.send(
        target,
        JSON.stringify({ ...body, model: 'echo' }),
        new AbortController().signal,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mock-key-sha256')).toBe(await sha256Hex(expected));
      await res.arrayBuffer();
    }
  });
});

describe('BYOK through /v1', () => {
  it("calls the upstream with the tenant's own key, and other tenants with the deployment's", async () => {
    const own = await tenantWithKey(TENANT_KEY);
    const other = await tenantWithKey(null);
    const mine = await v1('/chat/completions', own.key, body);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('x-edgeway-upstream-request-id')).toBe(await sha256Hex(TENANT_KEY));
    expect(await mine.text()).not.toContain(TENANT_KEY);
    const theirs = await v1('/chat/completions', other.key, body);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('x-edgeway-upstream-request-id')).toBe(await sha256Hex(DEPLOYMENT_KEY));
    await theirs.arrayBuffer();
  });

  it('uses a rotated key from the very next request, and the deployment key once it is deleted', async () => {
    const own = await tenantWithKey(TENANT_KEY);
    await (await v1('/chat/completions', own.key, body)).arrayBuffer();
    const rotated = await admin('PUT', `/tenants/${own.tenantId}/provider-keys/byok-mock`, {
      key: 'tenant-own-key-0002',
    });
    expect(rotated.status).toBe(200);
    const after = await v1('/chat/completions', own.key, body);
    expect(after.headers.get('x-edgeway-upstream-request-id')).toBe(await sha256Hex('tenant-own-key-0002'));
    await after.arrayBuffer();
    expect((await admin('DELETE', `/tenants/${own.tenantId}/provider-keys/byok-mock`)).status).toBe(204);
    const deleted = await v1('/chat/completions', own.key, body);
    expect(deleted.headers.get('x-edgeway-upstream-request-id')).toBe(await sha256Hex(DEPLOYMENT_KEY));
    await deleted.arrayBuffer();
  });

  it('answers 503 tenant_provider_key_unavailable, and calls no upstream, when the stored key cannot be opened', async () => {
    const own = await tenantWithKey(TENANT_KEY);
    let upstreamCalls = 0;
    const mock = bindings.MOCK_LLM;
    if (!mock) throw new Error('the MOCK_LLM service binding is missing (vitest.config.ts)');
    const counting = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        upstreamCalls++;
        return mock.fetch(input, init);
      },
    } as Fetcher;
    const chat = async (secret: string | undefined): Promise<Response> => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(
        new Request('http://gw.test/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${own.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { ...bindings, PROVIDER_KEYS_SECRET: secret, MOCK_LLM: counting },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    for (const secret of [undefined, 'a-different-provider-keys-secret-0123456789']) {
      const res = await chat(secret);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'tenant_provider_key_unavailable' } });
      expect(text).not.toContain(TENANT_KEY);
    }
    expect(upstreamCalls).toBe(0);
    // The counter does see upstream calls: the right secret reaches the mock, with the tenant's key.
    const served = await chat(bindings.PROVIDER_KEYS_SECRET);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-edgeway-upstream-request-id')).toBe(await sha256Hex(TENANT_KEY));
    await served.arrayBuffer();
    expect(upstreamCalls).toBe(1);
  });

  it("never writes the tenant's key to the console, on admin calls, requests or upstream errors", async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level),
    );
    try {
      const own = await tenantWithKey(TENANT_KEY);
      await (await v1('/chat/completions', own.key, body)).text();
      // The mock echoes the credential it was given into an injected error message ({key}).
      const failing = { ...body, mock: { status: 401, error_message: 'bad key {key}' } };
      const refused = await v1('/chat/completions', own.key, failing);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await refused.text()).not.toContain(TENANT_KEY);
      await admin('GET', `/tenants/${own.tenantId}/provider-keys`);
      await admin('DELETE', `/tenants/${own.tenantId}/provider-keys/byok-mock`);
      const written = spies
        .flatMap((spy) => spy.mock.calls.flat())
        .map((arg) => (typeof arg === 'string' ? arg : (JSON.stringify(arg) ?? String(arg))));
      for (const line of written) expect(line).not.toContain(TENANT_KEY);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
