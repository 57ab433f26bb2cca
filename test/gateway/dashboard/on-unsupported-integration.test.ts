/**
 * on_unsupported on the dashboard: the key form's select and the tenant page's form save through the
 * admin API and show what is in force (a tenant's refuse over its key's drop); a bad value is refused
 * in words beside the field; the route page says what its spec does.
 */
import { describe, expect, it } from 'vitest';
import { admin, asKey, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, location } from '../dashboard-helpers';
import { post } from '../helpers';

const request = {
  model: 'gpt-only/echo',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hi' }],
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
};
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };

async function signedIn(): Promise<Browser> {
  const b = new Browser();
  await b.signIn();
  return b;
}

describe('the key form', () => {
  it('shows the stored setting, saves a change, and the key refuses from the next request', async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const { id, key } = await createKey(tenant.id);
    const b = await signedIn();
    const before = await b.page(`/dashboard/keys/${id}`);
    expect(before).toMatch(/<option value="drop" selected="">/);
    expect(before).toContain('dropped and named in x-edgeway-dropped');

    const res = await b.post(`/dashboard/keys/${id}`, { name: 'strict', on_unsupported: 'refuse' });
    expect(location(res)).toBe(`/dashboard/keys/${id}?notice=key-updated`);
    expect(asKey(await admin('GET', `/keys/${id}`)).on_unsupported).toBe('refuse');
    const after = await b.page(location(res));
    expect(after).toMatch(/<option value="refuse" selected="">/);
    expect(after).toContain('refused (400 unsupported_field)');
    expect((await post('/v1/messages', request, key, ANTHROPIC)).status).toBe(400);
  });

  it("creates a key with the setting from the tenant page's form", async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/keys`, {
      name: 'new',
      on_unsupported: 'refuse',
    });
    expect(res.status).toBe(303);
    const list = (await admin('GET', `/keys?tenant_id=${tenant.id}`)).json as {
      data: { on_unsupported: string }[];
    };
    expect(list.data.map((k) => k.on_unsupported)).toEqual(['refuse']);
  });

  it("shows the API's refusal of a value other than drop or refuse beside the field", async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const { id } = await createKey(tenant.id);
    const b = await signedIn();
    await b.page(`/dashboard/keys/${id}`);
    const res = await b.post(`/dashboard/keys/${id}`, { name: 'x', on_unsupported: 'sometimes' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('<code>on_unsupported</code>');
    expect(html).toMatch(/name="on_unsupported"[^>]*aria-invalid="true"/);
    expect(asKey(await admin('GET', `/keys/${id}`)).on_unsupported).toBe('drop');
  });
});

describe("the tenant page's translation form", () => {
  it("saves the tenant's setting, which its keys then follow", async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const { id, key } = await createKey(tenant.id);
    const b = await signedIn();
    expect(await b.page(`/dashboard/tenants/${tenant.id}`)).toContain(
      'Now: dropped and named in x-edgeway-dropped',
    );
    const res = await b.post(`/dashboard/tenants/${tenant.id}/translation`, { on_unsupported: 'refuse' });
    expect(location(res)).toBe(`/dashboard/tenants/${tenant.id}?notice=translation-saved`);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).on_unsupported).toBe('refuse');
    expect(await b.page(location(res))).toContain('Now: refused (400 unsupported_field)');
    const keyPage = await b.page(`/dashboard/keys/${id}`);
    expect(keyPage).toContain('refused (400 unsupported_field) (the tenant refuses)');
    expect(keyPage).toContain('The tenant refuses, so every key of it does.');
    expect((await post('/v1/messages', request, key, ANTHROPIC)).status).toBe(400);
  });

  it('refuses a bad value in words, keeping the stored setting', async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/translation`, { on_unsupported: 'never' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The setting was not saved');
    expect(html).toMatch(/name="on_unsupported"[^>]*aria-invalid="true"/);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).on_unsupported).toBe('drop');
  });
});

describe('the route page', () => {
  it("says what the route's spec does with fields a translation cannot carry", async () => {
    const tenant = await createTenant(`ou-dash-${crypto.randomUUID()}`);
    const created = await admin('POST', '/routes', {
      name: 'ou-dash-strict',
      tenant_id: tenant.id,
      spec: { strategy: 'fallback', on_unsupported: 'refuse', targets: [{ model: 'mock/echo' }] },
    });
    expect(created.status).toBe(201);
    const b = await signedIn();
    const html = await b.page(`/dashboard/routes/${(created.json as { id: string }).id}`);
    expect(html).toContain('refused: targets that would drop them are skipped');
    expect(html).toContain('&quot;on_unsupported&quot;: &quot;refuse&quot;');
  });
});
