/**
 * A tenant's `responses_retention_days` through the admin API: set on create and update, validated (whole
 * days 0–3650, or null for the deployment's default), described in the OpenAPI document, and carried in its
 * keys' records, whose cached lookups a change invalidates.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import { d1KeyLoader } from '../../../../src/storage/d1-keys';
import { TieredKeyStore } from '../../../../src/storage/key-store';
import { sha256Hex } from '../../../../src/util/crypto';
import { admin, asTenant, createKey, createTenant } from '../../admin-helpers';

describe('responses_retention_days', () => {
  it('is null (the deployment default) unless set, and is set on create and on update', async () => {
    expect((await createTenant('retention-default')).responses_retention_days).toBeNull();
    const tenant = await createTenant('retention-7', { responses_retention_days: 7 });
    expect(tenant.responses_retention_days).toBe(7);
    const none = await admin('PATCH', `/tenants/${tenant.id}`, { responses_retention_days: 0 });
    expect(none.status).toBe(200);
    expect(asTenant(none).responses_retention_days).toBe(0);
    const reset = await admin('PATCH', `/tenants/${tenant.id}`, { responses_retention_days: null });
    expect(asTenant(reset).responses_retention_days).toBeNull();
    const read = await admin('GET', `/tenants/${tenant.id}`);
    expect(asTenant(read).responses_retention_days).toBeNull();
  });

  it('refuses anything but whole days from 0 to 3650, naming the field', async () => {
    const tenant = await createTenant('retention-bad');
    for (const bad of [-1, 3651, 1.5, '7']) {
      const res = await admin('PATCH', `/tenants/${tenant.id}`, { responses_retention_days: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json).toMatchObject({ error: { param: 'responses_retention_days' } });
    }
    const created = await admin('POST', '/tenants', { name: 'x', responses_retention_days: 4000 });
    expect(created.status).toBe(400);
  });

  it('is described in the OpenAPI document', () => {
    const text = JSON.stringify(openApiDocument());
    expect(text).toContain('responses_retention_days');
  });

  it("rides in the tenant's key records, and a change reaches a key already looked up", async () => {
    const tenant = await createTenant('retention-keys', { responses_retention_days: 3 });
    const key = await createKey(tenant.id);
    const hash = await sha256Hex(key.key);
    const keys = new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB));
    expect((await keys.findByHash(hash))?.tenantResponsesRetentionDays).toBe(3);
    expect((await admin('PATCH', `/tenants/${tenant.id}`, { responses_retention_days: 0 })).status).toBe(200);
    expect((await keys.findByHash(hash))?.tenantResponsesRetentionDays).toBe(0);
  });
});
