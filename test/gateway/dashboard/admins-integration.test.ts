/** The admins page (owners only) and the audit page, through the dashboard's forms. */
import { describe, expect, it } from 'vitest';
import { admin, createTenant } from '../admin-helpers';
import { ADMIN_TOKEN, Browser, changeForms, createAdmin, location, navLabels } from '../dashboard-helpers';

async function owner(token = ADMIN_TOKEN): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

const tokenOf = (html: string) => /id="secret"[^>]*value="(ewadm_[^"]+)"/.exec(html)?.[1] ?? null;

describe('admins page', () => {
  it('creates a tenant_admin, shows its token once, and the token signs in as that admin', async () => {
    const tenant = await createTenant('Scoped Co');
    const b = await owner();
    await b.page('/dashboard/admins');
    const res = await b.post('/dashboard/admins', {
      name: 'Tina',
      role: 'tenant_admin',
      tenant_ids: tenant.id,
    });
    expect(res.status).toBe(303);
    const tokenPage = location(res);
    expect(tokenPage).toMatch(/^\/dashboard\/admins\/adm_[\w-]+\/token$/);

    const first = await b.get(tokenPage);
    expect(first.status).toBe(200);
    const token = tokenOf(await first.text());
    expect(token).not.toBeNull();
    const again = await b.get(tokenPage);
    expect(again.status).toBe(410);
    expect(tokenOf(await again.text())).toBeNull();

    const list = await b.page('/dashboard/admins');
    expect(list).toContain('Tina');
    expect(list).toContain(tenant.id);
    expect(list).not.toContain(token ?? 'none');

    const tina = await owner(token ?? '');
    expect(await tina.page('/dashboard/tenants')).toContain(
      'Signed in as <strong>Tina</strong> (tenant_admin)',
    );
  });

  it("refuses a tenant_admin without tenants in the API's words, keeping the form", async () => {
    const b = await owner();
    await b.page('/dashboard/admins');
    const res = await b.post('/dashboard/admins', { name: 'Nobody', role: 'tenant_admin', tenant_ids: '' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('A tenant_admin needs at least one tenant');
    expect(html).toContain('value="Nobody"');
  });

  it('rotates a token (the old one stops signing in), disables, enables and deletes an admin', async () => {
    const made = await createAdmin('viewer');
    const b = await owner();
    const page = await b.page(`/dashboard/admins/${made.id}`);
    expect(changeForms(page)).toEqual([
      `/dashboard/admins/${made.id}`,
      `/dashboard/admins/${made.id}/disable`,
      `/dashboard/admins/${made.id}/rotate`,
      `/dashboard/admins/${made.id}/delete`,
    ]);

    const rotated = await b.post(`/dashboard/admins/${made.id}/rotate`, {});
    const fresh = tokenOf(await (await b.get(location(rotated))).text());
    expect(fresh).toMatch(/^ewadm_/);
    expect((await new Browser().post('/dashboard/login', { token: made.token }, { csrf: null })).status).toBe(
      401,
    );
    expect(
      (await new Browser().post('/dashboard/login', { token: fresh ?? '' }, { csrf: null })).status,
    ).toBe(303);

    const disabled = await b.post(`/dashboard/admins/${made.id}/disable`, {});
    const after = await b.page(location(disabled));
    expect(after).toContain('Admin disabled');
    expect(after).toContain('<span class="badge disabled">disabled</span>');
    await b.post(`/dashboard/admins/${made.id}/enable`, {});
    const deleted = await b.post(`/dashboard/admins/${made.id}/delete`, {});
    expect(location(deleted)).toBe('/dashboard/admins?notice=admin-deleted');
    expect((await b.get(`/dashboard/admins/${made.id}`)).status).toBe(404);
  });

  it('is in the navigation of owners only, and its token page is refused to an admin', async () => {
    const named = await createAdmin('owner');
    expect(navLabels(await (await owner(named.token)).page('/dashboard/tenants'))).toContain('Admins');
    const admin = await owner((await createAdmin('admin')).token);
    expect(navLabels(await admin.page('/dashboard/tenants'))).not.toContain('Admins');
    expect((await admin.get(`/dashboard/admins/${named.id}/token`)).status).toBe(403);
  });
});

describe('audit page', () => {
  it("lists a change made through the dashboard under the signed-in admin's name, as changed fields", async () => {
    const tenant = await createTenant('Audited');
    const alice = await createAdmin('admin', [], 'Alice');
    const b = await owner(alice.token);
    await b.page(`/dashboard/tenants/${tenant.id}`);
    expect((await b.post(`/dashboard/tenants/${tenant.id}/disable`, { confirm: 'yes' })).status).toBe(303);

    const html = await b.page(`/dashboard/audit?tenant_id=${tenant.id}&resource=tenant`);
    const rows = html.split('<tr>').slice(2);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const newest = rows[0] ?? '';
    expect(newest).toContain('Alice');
    expect(newest).toContain(alice.id);
    expect(newest).toContain('POST /admin/tenants/{id}/disable');
    expect(newest).toMatch(/<code>status<\/code>: <del>active<\/del> → <ins>disabled<\/ins>/);
    expect(newest).not.toContain('<code>name</code>');
    // The older row is the tenant's creation by the break-glass owner.
    expect(rows[1]).toContain('break-glass');
  });

  it("gives a tenant_admin its first tenant's entries, and another tenant's as the API's 403", async () => {
    const mine = await createTenant('Own');
    const other = await createTenant('Foreign');
    const b = await owner((await createAdmin('tenant_admin', [mine.id])).token);
    const html = await b.page('/dashboard/audit');
    expect(html).toContain(`<code>${mine.id}</code>`);
    expect(html).not.toContain('All tenants');
    const foreign = await b.get(`/dashboard/audit?tenant_id=${other.id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('outside its scope');
  });

  it('pages with next_cursor, keeping the filters', async () => {
    const tenant = await createTenant('Busy');
    for (let i = 0; i < 50; i += 1) {
      expect((await admin('PATCH', `/tenants/${tenant.id}`, { name: `Busy ${i}` })).status).toBe(200);
    }
    const b = await owner();
    const first = await b.page(`/dashboard/audit?tenant_id=${tenant.id}&resource=tenant`);
    expect(first).not.toContain('badge create');
    const next = /href="([^"]+)" rel="next"/.exec(first)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(next).toMatch(
      new RegExp(`^/dashboard/audit\\?tenant_id=${tenant.id}&resource=tenant&cursor=\\d+$`),
    );
    const older = await b.page(next);
    expect(older.match(/badge create/g)?.length).toBe(1);
    expect(older).toContain('<ins>Busy</ins>');
  });
});
