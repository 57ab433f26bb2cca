/**
 * Budget-alert settings from the dashboard: the tenant's thresholds and webhook and a key's thresholds are
 * PATCHed through the admin API and read back from it; the API's refusals are shown next to the field with
 * nothing changed; the forms and the signing-secret button follow the admin's role.
 */
import { describe, expect, it } from 'vitest';
import { admin, asKey, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, changeForms, createAdmin, location } from '../dashboard-helpers';

async function signedIn(token?: string): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

const tenantNamed = () => createTenant(`alert-settings-${crypto.randomUUID()}`);
const readTenant = async (id: string) => asTenant(await admin('GET', `/tenants/${id}`));
const readKey = async (id: string) => asKey(await admin('GET', `/keys/${id}`));
const secretOf = (html: string) => /id="secret"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? null;

describe('tenant alert settings', () => {
  it('saves thresholds and webhook, shows them back, and clears them when emptied', async () => {
    const tenant = await tenantNamed();
    const b = await signedIn();
    const path = `/dashboard/tenants/${tenant.id}`;
    expect(changeForms(await b.page(path))).toContain(`${path}/alert-settings`);

    const saved = await b.post(`${path}/alert-settings`, {
      'alerts.thresholds': '50, 80 %, 100',
      alert_webhook: ' https://hooks.example.com/edgeway ',
    });
    expect(saved.status).toBe(303);
    expect(location(saved)).toBe(`${path}?notice=alerts-saved`);
    const stored = await readTenant(tenant.id);
    expect(stored.alerts.thresholds).toEqual([50, 80, 100]);
    expect(stored.alert_webhook).toBe('https://hooks.example.com/edgeway');

    const html = await b.page(location(saved));
    expect(html).toContain('Alert settings saved');
    expect(html).toContain('name="alerts.thresholds" type="text" value="50, 80, 100"');
    expect(html).toContain('value="https://hooks.example.com/edgeway"');

    const cleared = await b.post(`${path}/alert-settings`, { 'alerts.thresholds': ' ', alert_webhook: '' });
    expect(cleared.status).toBe(303);
    const after = await readTenant(tenant.id);
    expect(after.alerts.thresholds).toEqual([]);
    expect(after.alert_webhook).toBeNull();
  });

  it.each([
    ['a threshold over 100', '50, 150', 'https://hooks.example.com/x', 'alerts.thresholds.1'],
    ['a word for a threshold', 'abc', 'https://hooks.example.com/x', 'alerts.thresholds.0'],
    ['a repeated threshold', '80, 80', 'https://hooks.example.com/x', 'alerts.thresholds'],
    ['a plain-http webhook', '90', 'http://hooks.example.com/x', 'alert_webhook'],
  ])('refuses %s with a 400 next to the field and changes nothing', async (_, thresholds, webhook, param) => {
    const tenant = await createTenant(`alert-settings-${crypto.randomUUID()}`, {
      alerts: { thresholds: [25] },
      alert_webhook: 'https://hooks.example.com/before',
    });
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/alert-settings`, {
      'alerts.thresholds': thresholds,
      alert_webhook: webhook,
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The alert settings were not changed');
    expect(html).toContain(`(field <code>${param}</code>)`);
    const field = param === 'alert_webhook' ? 'alert_webhook' : 'alerts.thresholds';
    expect(html).toMatch(new RegExp(`name="${field}"[^>]*aria-invalid="true"`));
    // What was typed stays in the form, for correcting.
    expect(html).toContain(`value="${thresholds}"`);
    const stored = await readTenant(tenant.id);
    expect(stored.alerts.thresholds).toEqual([25]);
    expect(stored.alert_webhook).toBe('https://hooks.example.com/before');
  });

  it('shows the signing secret on the page answering the POST, uncached, equal to the API’s', async () => {
    const tenant = await tenantNamed();
    const b = await signedIn((await createAdmin('admin')).token);
    const path = `/dashboard/tenants/${tenant.id}`;
    expect(changeForms(await b.page(path))).toContain(`${path}/alert-secret`);
    const res = await b.post(`${path}/alert-secret`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const shown = secretOf(await res.text());
    const api = await admin('GET', `/tenants/${tenant.id}/alert-secret`);
    expect(shown).toBe((api.json as { secret: string }).secret);
    // Without the session's CSRF token the secret is not shown.
    expect((await b.post(`${path}/alert-secret`, {}, { csrf: 'forged' })).status).toBe(403);
  });
});

describe('key alert thresholds', () => {
  it("saves the key's thresholds and leaves its other settings alone", async () => {
    const tenant = await tenantNamed();
    const key = await createKey(tenant.id, { name: 'kept', budgets: { tokens: { day: 500 } } });
    const b = await signedIn();
    const path = `/dashboard/keys/${key.id}`;
    expect(changeForms(await b.page(path))).toContain(`${path}/alerts`);
    const res = await b.post(`${path}/alerts`, { 'alerts.thresholds': '75 25' });
    expect(res.status).toBe(303);
    expect(location(res)).toBe(`${path}?notice=alerts-saved`);
    const stored = await readKey(key.id);
    expect(stored.alerts.thresholds).toEqual([75, 25]);
    expect(stored.name).toBe('kept');
    expect(stored.budgets).toEqual({ tokens: { day: 500 } });
    expect(await b.page(location(res))).toContain('value="75, 25"');
  });

  it('refuses a bad threshold with a 400 on the key page and changes nothing', async () => {
    const tenant = await tenantNamed();
    const key = await createKey(tenant.id, { alerts: { thresholds: [60] } });
    const b = await signedIn();
    await b.page(`/dashboard/keys/${key.id}`);
    const res = await b.post(`/dashboard/keys/${key.id}/alerts`, { 'alerts.thresholds': '0' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The alert settings were not changed');
    expect(html).toContain('(field <code>alerts.thresholds.0</code>)');
    expect((await readKey(key.id)).alerts.thresholds).toEqual([60]);
  });
});

describe('alert settings by role', () => {
  it('a viewer sees the settings but no form and no secret button, and its posts change nothing', async () => {
    const tenant = await createTenant(`alert-settings-${crypto.randomUUID()}`, {
      alerts: { thresholds: [40] },
    });
    const key = await createKey(tenant.id, { alerts: { thresholds: [70] } });
    const b = await signedIn((await createAdmin('viewer')).token);
    const tenantHtml = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(tenantHtml).toContain('Thresholds: 40 %');
    expect(changeForms(tenantHtml)).toEqual([]);
    const keyHtml = await b.page(`/dashboard/keys/${key.id}`);
    expect(keyHtml).toContain('Thresholds: 70 %');
    expect(changeForms(keyHtml)).toEqual([]);

    const posts = [
      b.post(`/dashboard/tenants/${tenant.id}/alert-settings`, { 'alerts.thresholds': '90' }),
      b.post(`/dashboard/keys/${key.id}/alerts`, { 'alerts.thresholds': '90' }),
      b.post(`/dashboard/tenants/${tenant.id}/alert-secret`, {}),
    ];
    for (const res of await Promise.all(posts)) {
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain('whsec_');
    }
    expect((await readTenant(tenant.id)).alerts.thresholds).toEqual([40]);
    expect((await readKey(key.id)).alerts.thresholds).toEqual([70]);
  });

  it("a tenant admin sets its keys' thresholds but not the tenant's, nor sees the secret", async () => {
    const tenant = await tenantNamed();
    const key = await createKey(tenant.id);
    const b = await signedIn((await createAdmin('tenant_admin', [tenant.id])).token);
    const forms = changeForms(await b.page(`/dashboard/tenants/${tenant.id}`));
    expect(forms).not.toContain(`/dashboard/tenants/${tenant.id}/alert-settings`);
    expect(forms).not.toContain(`/dashboard/tenants/${tenant.id}/alert-secret`);
    expect(changeForms(await b.page(`/dashboard/keys/${key.id}`))).toContain(
      `/dashboard/keys/${key.id}/alerts`,
    );
    const res = await b.post(`/dashboard/keys/${key.id}/alerts`, { 'alerts.thresholds': '100' });
    expect(res.status).toBe(303);
    expect((await readKey(key.id)).alerts.thresholds).toEqual([100]);
  });
});
