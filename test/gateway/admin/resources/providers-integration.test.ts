/** /admin/providers: every provider known, which are configured, which take tenants' own keys and how many do. */
import { describe, expect, it } from 'vitest';
import { admin, createTenant } from '../../admin-helpers';

interface Info {
  id: string;
  configured: boolean;
  keyless: boolean;
  accepts_tenant_keys: boolean;
  tenants_with_own_key: number;
  models: string[];
}

describe('GET /admin/providers', () => {
  it('lists configured and unconfigured providers, never a key or the name of its secret', async () => {
    const res = await admin('GET', '/providers');
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/_API_KEY|PROVIDER_KEY_|test-gemini-key|deployment-key|secret/i);
    const { data } = res.json as { data: Info[] };
    const byId = new Map(data.map((p) => [p.id, p]));
    expect(byId.get('mock')).toMatchObject({ configured: true, accepts_tenant_keys: false });
    expect(byId.get('openai')).toMatchObject({ configured: false, accepts_tenant_keys: true });
    expect(byId.get('gemini')).toMatchObject({ configured: true, accepts_tenant_keys: true });
    expect(byId.get('gpt-only')).toMatchObject({
      configured: true,
      keyless: true,
      accepts_tenant_keys: false,
    });
    expect(byId.get('workers-ai')).toMatchObject({ configured: false });
    expect(byId.get('workers-ai')?.models).toContain('workers-ai/@cf/meta/llama-3.1-8b-instruct');
  });

  it('counts the tenants that brought their own key', async () => {
    const tenant = await createTenant('providers-count');
    const before = ((await admin('GET', '/providers')).json as { data: Info[] }).data;
    const count = (list: Info[]) => list.find((p) => p.id === 'openai')?.tenants_with_own_key ?? -1;
    const put = await admin('PUT', `/tenants/${tenant.id}/provider-keys/openai`, {
      key: 'sk-tenant-own-0123456789',
    });
    expect(put.status).toBe(201);
    const after = ((await admin('GET', '/providers')).json as { data: Info[] }).data;
    expect(count(after)).toBe(count(before) + 1);
  });

  it('is behind the admin guard', async () => {
    expect((await admin('GET', '/providers', undefined, null)).status).toBe(401);
  });
});
