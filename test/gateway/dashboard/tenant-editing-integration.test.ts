/**
 * Editing a tenant on the dashboard: a rename (refused names shown beside the field), the warning
 * after a create or rename to a name another tenant has, and the confirmation step before disabling
 * (nothing changes until the box is ticked; a viewer is refused as before).
 */
import { describe, expect, it } from 'vitest';
import { admin, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, createAdmin, location } from '../dashboard-helpers';

async function signedIn(token?: string): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

describe('renaming a tenant', () => {
  it('saves the new name, and shows a refused one beside the field', async () => {
    const tenant = await createTenant(`edit-${crypto.randomUUID()}`);
    const b = await signedIn();
    const html = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(html).toMatch(new RegExp(`id="f-rename-name"[^>]*value="${tenant.name}"`));
    const name = `renamed-${crypto.randomUUID()}`;
    const res = await b.post(`/dashboard/tenants/${tenant.id}/name`, { name });
    expect(location(res)).toBe(`/dashboard/tenants/${tenant.id}?notice=tenant-renamed`);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).name).toBe(name);
    const shown = await b.page(location(res));
    expect(shown).toContain('Tenant renamed.');
    expect(shown).not.toContain('id="duplicate-name"');
    const bad = await b.post(`/dashboard/tenants/${tenant.id}/name`, { name: '' });
    expect(bad.status).toBe(400);
    const refused = await bad.text();
    expect(refused).toContain('The tenant was not renamed');
    expect(refused).toMatch(/id="f-rename-name"[^>]*value=""[^>]*aria-invalid="true"/);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).name).toBe(name);
  });

  it('warns after a create or rename to a name another tenant has, linking it', async () => {
    const name = `Dup ${crypto.randomUUID()}`;
    const first = await createTenant(name);
    const b = await signedIn();
    await b.page('/dashboard/tenants');
    const created = await b.post('/dashboard/tenants', { name });
    expect(location(created)).toMatch(/\?notice=tenant-created&same_name=/);
    expect(location(created)).toContain(first.id);
    const page = await b.page(location(created));
    expect(page).toContain('Tenant created.');
    expect(page).toContain('id="duplicate-name"');
    expect(page).toContain(`href="/dashboard/tenants/${first.id}"`);
    const other = await createTenant(`edit-${crypto.randomUUID()}`);
    const renamed = await b.post(`/dashboard/tenants/${other.id}/name`, { name });
    expect(location(renamed)).toContain('same_name=');
    expect(await b.page(location(renamed))).toContain('another tenant is already named');
  });
});

describe('disabling a tenant', () => {
  it('asks first: the button leads to a confirmation that needs its box ticked', async () => {
    const tenant = await createTenant(`edit-${crypto.randomUUID()}`);
    await createKey(tenant.id);
    await createKey(tenant.id);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const asked = await b.post(`/dashboard/tenants/${tenant.id}/disable`, { back: 'tenant' });
    expect(asked.status).toBe(200);
    const confirm = await asked.text();
    expect(confirm).toContain(`Disable tenant ${tenant.name}?`);
    expect(confirm).toContain('its 2 active keys');
    expect(confirm).toMatch(/<input type="checkbox" name="confirm" value="yes" required/);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).status).toBe('active');

    const unticked = await b.post(`/dashboard/tenants/${tenant.id}/disable`, {
      back: 'tenant',
      step: 'confirm',
    });
    expect(unticked.status).toBe(400);
    expect(await unticked.text()).toContain('tick the box to confirm');
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).status).toBe('active');

    const done = await b.post(`/dashboard/tenants/${tenant.id}/disable`, {
      back: 'list',
      step: 'confirm',
      confirm: 'yes',
    });
    expect(location(done)).toBe('/dashboard/tenants?notice=tenant-disabled');
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).status).toBe('disabled');
  });

  it('refuses a viewer as before, without a confirmation page', async () => {
    const tenant = await createTenant(`edit-${crypto.randomUUID()}`);
    const b = await signedIn((await createAdmin('viewer')).token);
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/disable`, {});
    expect(res.status).toBe(403);
  });
});
