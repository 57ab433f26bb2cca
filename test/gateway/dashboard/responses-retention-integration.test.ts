/**
 * A tenant's stored-response retention from the dashboard: PATCHed through the admin API and read back from
 * it, blank meaning the deployment's default; the API's refusal shown next to the field with nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { admin, asTenant, createTenant } from '../admin-helpers';
import { Browser, changeForms, location } from '../dashboard-helpers';

const readTenant = async (id: string) => asTenant(await admin('GET', `/tenants/${id}`));

describe('tenant stored-response retention', () => {
  it('saves days, shows them back, and goes back to the default when emptied', async () => {
    const tenant = await createTenant(`retention-${crypto.randomUUID()}`);
    const b = new Browser();
    await b.signIn();
    const path = `/dashboard/tenants/${tenant.id}`;
    const before = await b.page(path);
    expect(changeForms(before)).toContain(`${path}/responses-retention`);
    expect(before).toMatch(/Kept: the deployment(&#39;|')s default/);

    const saved = await b.post(`${path}/responses-retention`, { responses_retention_days: ' 7 ' });
    expect(saved.status).toBe(303);
    expect(location(saved)).toBe(`${path}?notice=retention-saved`);
    expect((await readTenant(tenant.id)).responses_retention_days).toBe(7);
    const html = await b.page(location(saved));
    expect(html).toContain('Retention saved');
    expect(html).toContain('name="responses_retention_days" type="text" value="7"');
    expect(html).toContain('Kept: 7 days.');

    const none = await b.post(`${path}/responses-retention`, { responses_retention_days: '0' });
    expect(none.status).toBe(303);
    expect((await readTenant(tenant.id)).responses_retention_days).toBe(0);

    const cleared = await b.post(`${path}/responses-retention`, { responses_retention_days: '' });
    expect(cleared.status).toBe(303);
    expect((await readTenant(tenant.id)).responses_retention_days).toBeNull();
  });

  it('refuses a negative number of days next to the field, and changes nothing', async () => {
    const tenant = await createTenant(`retention-${crypto.randomUUID()}`, { responses_retention_days: 5 });
    const b = new Browser();
    await b.signIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/responses-retention`, {
      responses_retention_days: '-3',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The retention was not changed');
    expect(html).toContain('(field <code>responses_retention_days</code>)');
    expect(html).toMatch(/name="responses_retention_days"[^>]*value="-3"[^>]*aria-invalid="true"/);
    expect((await readTenant(tenant.id)).responses_retention_days).toBe(5);
  });
});
