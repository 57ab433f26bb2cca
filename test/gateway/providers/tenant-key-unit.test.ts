import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import { KeyRecord } from '../../../src/core/key-record';
import { tenantProviderKey } from '../../../src/providers/tenant-key';
import { sealProviderKey } from '../../../src/util/provider-key-crypto';

const SECRET = 'unit-test-provider-keys-secret-0123456789';

async function principal(tenantId: string, keys: Record<string, string>, sealedFor = tenantId) {
  const providerKeys: Record<string, { ciphertext: string; iv: string }> = {};
  for (const [provider, key] of Object.entries(keys)) {
    providerKeys[provider] = await sealProviderKey(SECRET, sealedFor, provider, key);
  }
  return KeyRecord.parse({
    id: 'key_1',
    tenantId,
    status: 'active',
    models: null,
    expiresAt: null,
    providerKeys,
  });
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

afterEach(() => vi.restoreAllMocks());

describe('tenantProviderKey', () => {
  it('is null when the tenant stored no key for the provider, whatever the secret', async () => {
    const p = await principal('ten_a', { openai: 'sk-tenant-a-000000000' });
    expect(await tenantProviderKey(p, 'anthropic', SECRET)).toBeNull();
    expect(await tenantProviderKey(p, 'anthropic', undefined)).toBeNull();
    const legacy = KeyRecord.parse({
      id: 'key_1',
      tenantId: 'ten_a',
      status: 'active',
      models: null,
      expiresAt: null,
    });
    expect(await tenantProviderKey(legacy, 'openai', SECRET)).toBeNull();
  });

  it("opens the tenant's key, once per isolate per ciphertext", async () => {
    const p = await principal('ten_once', { openai: 'sk-tenant-once-0000001' });
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    expect(await tenantProviderKey(p, 'openai', SECRET)).toBe('sk-tenant-once-0000001');
    expect(await tenantProviderKey(p, 'openai', SECRET)).toBe('sk-tenant-once-0000001');
    expect(decrypt).toHaveBeenCalledTimes(1);
    const rotated = await principal('ten_once', { openai: 'sk-tenant-once-0000002' });
    expect(await tenantProviderKey(rotated, 'openai', SECRET)).toBe('sk-tenant-once-0000002');
    expect(decrypt).toHaveBeenCalledTimes(2);
  });

  it('refuses with 503 tenant_provider_key_unavailable when the secret is missing or another one', async () => {
    const p = await principal('ten_b', { openai: 'sk-tenant-b-000000000' });
    for (const secret of [undefined, '', `${SECRET}-rotated`]) {
      const err = await refusal(tenantProviderKey(p, 'openai', secret));
      expect(err).toMatchObject({ status: 503, code: 'tenant_provider_key_unavailable', source: 'gateway' });
      expect(err.message).not.toContain('sk-tenant-b');
    }
  });

  it('does not open a ciphertext sealed for another tenant, even after that tenant opened it here', async () => {
    const owner = await principal('ten_owner', { openai: 'sk-owner-0000000000' });
    expect(await tenantProviderKey(owner, 'openai', SECRET)).toBe('sk-owner-0000000000');
    const thief = KeyRecord.parse({ ...owner, tenantId: 'ten_thief' });
    const err = await refusal(tenantProviderKey(thief, 'openai', SECRET));
    expect(err.code).toBe('tenant_provider_key_unavailable');
  });
});
