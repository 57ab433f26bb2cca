/** Named admins in the dashboard: sign-in with an admin's own token, pages and forms by role, sessions that follow the admin's state. */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createKey, createTenant } from '../admin-helpers';
import {
  ADMIN_TOKEN,
  Browser,
  changeForms,
  createAdmin,
  location,
  navLabels,
  ORIGIN,
} from '../dashboard-helpers';

async function signedIn(token: string): Promise<Browser> {
  const b = new Browser();
  const res = await b.post('/dashboard/login', { token }, { csrf: null });
  expect(res.status).toBe(303);
  expect(location(res)).toBe('/dashboard/tenants');
  return b;
}

async function patchAdmin(id: string, body: unknown): Promise<void> {
  const res = await SELF.fetch(`${ORIGIN}/admin/admins/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe('sign-in with a named admin token', () => {
  it('signs in and names the admin and role in the header', async () => {
    const viewer = await createAdmin('viewer', [], 'Vera');
    const b = await signedIn(viewer.token);
    const html = await b.page('/dashboard/tenants');
    expect(html).toContain('Signed in as <strong>Vera</strong> (viewer)');
  });

  it('the break-glass ADMIN_TOKEN signs in as the owner', async () => {
    const html = await (await signedIn(ADMIN_TOKEN)).page('/dashboard/tenants');
    expect(html).toContain('Signed in as <strong>break-glass (ADMIN_TOKEN)</strong> (owner)');
    expect(navLabels(html)).toContain('Admins');
  });

  it("refuses a disabled admin's token with the same 401 as a wrong one", async () => {
    const gone = await createAdmin('admin');
    await patchAdmin(gone.id, { status: 'disabled' });
    const b = new Browser();
    const res = await b.post('/dashboard/login', { token: gone.token }, { csrf: null });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('That is not an admin token');
    expect(b.jar.size).toBe(0);
  });
});

describe('pages and forms by role', () => {
  it('a viewer sees every read page but no change form, and its posts are refused by the API', async () => {
    const tenant = await createTenant('Viewed');
    const key = await createKey(tenant.id);
    const b = await signedIn((await createAdmin('viewer')).token);
    const list = await b.page('/dashboard/tenants');
    expect(navLabels(list)).toEqual([
      'Tenants &amp; keys',
      'Routes',
      'Providers',
      'Pricing',
      'MCP servers',
      'Usage',
      'Analytics',
      'Logs',
      'Audit',
    ]);
    expect(list).toContain('Viewed');
    for (const path of [
      '/dashboard/tenants',
      `/dashboard/tenants/${tenant.id}`,
      `/dashboard/keys/${key.id}`,
      '/dashboard/routes',
    ]) {
      const res = await b.get(path);
      expect(res.status, path).toBe(200);
      expect(changeForms(await res.text()), path).toEqual([]);
    }
    const res = await b.post(`/dashboard/tenants/${tenant.id}/disable`, {});
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('does not allow it');
    expect((await b.get('/dashboard/admins')).status).toBe(403);
  });

  it('an admin sees the change forms but not the admins page', async () => {
    const tenant = await createTenant('Run');
    const b = await signedIn((await createAdmin('admin')).token);
    const html = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(changeForms(html)).toEqual(
      expect.arrayContaining([
        `/dashboard/tenants/${tenant.id}/disable`,
        `/dashboard/tenants/${tenant.id}/keys`,
        `/dashboard/tenants/${tenant.id}/provider-keys`,
        `/dashboard/tenants/${tenant.id}/guardrails`,
      ]),
    );
    expect(navLabels(html)).not.toContain('Admins');
  });

  it("a tenant_admin sees only its tenants and key forms; another tenant's page is the API's 403", async () => {
    const mine = await createTenant('Mine');
    const other = await createTenant('Other');
    const key = await createKey(mine.id);
    const b = await signedIn((await createAdmin('tenant_admin', [mine.id])).token);

    const list = await b.page('/dashboard/tenants');
    expect(list).toContain('Mine');
    expect(list).not.toContain('Other');
    expect(changeForms(list)).toEqual([]);
    expect(navLabels(list)).toEqual([
      'Tenants &amp; keys',
      'MCP servers',
      'Usage',
      'Analytics',
      'Logs',
      'Audit',
    ]);

    const page = await b.get(`/dashboard/tenants/${mine.id}`);
    expect(page.status).toBe(200);
    expect(changeForms(await page.text())).toEqual([`/dashboard/tenants/${mine.id}/keys`]);

    const keyPage = await b.page(`/dashboard/keys/${key.id}`);
    expect(changeForms(keyPage)).toEqual([
      `/dashboard/keys/${key.id}`,
      `/dashboard/keys/${key.id}/model-rules`,
      `/dashboard/keys/${key.id}/guardrails`,
      `/dashboard/keys/${key.id}/cache`,
      `/dashboard/keys/${key.id}/alerts`,
      `/dashboard/keys/${key.id}/rotate`,
    ]);

    const foreign = await b.get(`/dashboard/tenants/${other.id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toMatch(
      new RegExp(`tenant (&#39;|')${other.id}(&#39;|') is outside its scope`),
    );
    expect((await b.get('/dashboard/routes')).status).toBe(403);
    // Its reads must name one of its tenants: with none picked, the pages read its first.
    for (const path of ['/dashboard/usage', '/dashboard/logs', '/dashboard/audit']) {
      const res = await b.get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toMatch(new RegExp(`<option value="${mine.id}" selected`));
    }
  });
});

describe('sessions follow the admin', () => {
  it('disabling or deleting an admin voids their session on the next page', async () => {
    for (const end of ['disable', 'delete'] as const) {
      const who = await createAdmin('admin');
      const b = await signedIn(who.token);
      expect((await b.get('/dashboard/tenants')).status).toBe(200);
      if (end === 'disable') await patchAdmin(who.id, { status: 'disabled' });
      else
        await SELF.fetch(`${ORIGIN}/admin/admins/${who.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
      const res = await b.get('/dashboard/tenants');
      expect(res.status, end).toBe(303);
      expect(location(res)).toMatch(/^\/dashboard\/login\?next=/);
      // Sign-in does not bounce back to the page with the void session: it shows the form.
      expect((await b.get('/dashboard/login')).status, end).toBe(200);
    }
  });

  it("a role change applies on the admin's next page", async () => {
    const tenant = await createTenant('Demoted');
    const who = await createAdmin('admin');
    const b = await signedIn(who.token);
    expect(changeForms(await b.page(`/dashboard/tenants/${tenant.id}`))).not.toEqual([]);
    await patchAdmin(who.id, { role: 'viewer' });
    const html = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(html).toContain('(viewer)');
    expect(changeForms(html)).toEqual([]);
  });
});
