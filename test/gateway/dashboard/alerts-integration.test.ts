/** The tenant's budget alerts page: fired alerts listed from the Limiter, linked from the tenant page. */
import { describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../admin-helpers';
import { Browser } from '../dashboard-helpers';
import { limiterOf } from '../limits-helpers';

describe('budget alerts in the dashboard', () => {
  it('lists each fired threshold with its key, budget and amounts', async () => {
    const tenant = await createTenant(`alerts-dash-${crypto.randomUUID()}`, {
      alert_webhook: 'https://hooks.example.com/edgeway',
    });
    const thresholds = { thresholds: [50, 80] };
    const key = await createKey(tenant.id, { budgets: { tokens: { day: 200 } }, alerts: thresholds });
    expect((await admin('PATCH', `/tenants/${tenant.id}`, { alerts: { thresholds: [25] } })).status).toBe(
      200,
    );
    const stub = limiterOf(tenant.id);
    const r = await stub.reserve({
      keyId: key.id,
      tenantId: tenant.id,
      key: { limits: {}, budgets: { tokens: { day: 200 } }, alerts: thresholds },
      tenant: { limits: {}, budgets: {} },
      cost: { tokens: 120, nanos: 0 },
      ttlMs: 60_000,
    });
    expect(r.ok && (await stub.settle(r.id, { tokens: 120, nanos: 0 }))).toBe(true);

    const b = new Browser();
    await b.signIn();
    expect(await b.page(`/dashboard/tenants/${tenant.id}`)).toContain(
      `/dashboard/tenants/${tenant.id}/alerts`,
    );
    const html = await b.page(`/dashboard/tenants/${tenant.id}/alerts`);
    expect(html).toContain('<h1>Budget alerts</h1>');
    expect(html).toContain('Tenant thresholds: 25 %');
    expect(html).toContain('https://hooks.example.com/edgeway');
    expect(html).toContain(`href="/dashboard/keys/${key.id}"`);
    expect(html).toContain('<th scope="row">50 %</th>');
    expect(html).not.toContain('<th scope="row">80 %</th>');
    expect(html).toMatch(/120\s*\/\s*200/);
  });

  it('says so when nothing has fired', async () => {
    const tenant = await createTenant(`alerts-dash-${crypto.randomUUID()}`);
    const b = new Browser();
    await b.signIn();
    const html = await b.page(`/dashboard/tenants/${tenant.id}/alerts`);
    expect(html).toContain('No alert has fired.');
    expect(html).toContain('Tenant thresholds: none');
  });
});
