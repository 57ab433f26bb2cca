/**
 * /admin/admins and /admin/me: named admins authenticate with their own token
 * (shown once, stored hashed), rotate and disable end it at once, wrong tokens
 * are throttled per client like the break-glass token, and every bad input is a
 * 4xx in the API's error shape.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Admin } from '../../../../src/storage/admin-store';
import { admin, createTenant } from '../../admin-helpers';

async function makeAdmin(body: Record<string, unknown>) {
  const res = await admin('POST', '/admins', body);
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.json as Admin & { token: string };
}

describe('named admins', () => {
  it('a created admin signs in with its own token, shown once and stored only as a hash', async () => {
    const made = await makeAdmin({ name: 'alice', role: 'admin' });
    expect(made.token).toMatch(/^ewadm_[A-Za-z0-9_-]{43}$/);
    expect(made.token_hint).toBe(`ewadm_…${made.token.slice(-4)}`);
    const me = await admin('GET', '/me', undefined, made.token);
    expect(me.json).toEqual({ id: made.id, name: 'alice', role: 'admin', tenant_ids: [] });
    const got = await admin('GET', `/admins/${made.id}`);
    expect(got.text).not.toContain(made.token);
    Admin.parse(got.json);
    const row = await env.DB.prepare('SELECT * FROM admins WHERE id = ?').bind(made.id).first();
    expect(JSON.stringify(row)).not.toContain(made.token);
    const list = await admin('GET', '/admins?limit=100');
    expect(list.text).not.toContain(made.token);
    expect((list.json as { data: Admin[] }).data.some((a) => a.id === made.id)).toBe(true);
  });

  it('rotation ends the old token at once; disabling and deleting end the admin', async () => {
    const made = await makeAdmin({ name: 'bob', role: 'viewer' });
    const rotated = await admin('POST', `/admins/${made.id}/rotate`);
    expect(rotated.status).toBe(200);
    const fresh = (rotated.json as { token: string }).token;
    expect((await admin('GET', '/me', undefined, made.token)).status).toBe(401);
    expect((await admin('GET', '/me', undefined, fresh)).status).toBe(200);
    expect((await admin('PATCH', `/admins/${made.id}`, { status: 'disabled' })).status).toBe(200);
    expect((await admin('GET', '/me', undefined, fresh)).status).toBe(401);
    expect((await admin('PATCH', `/admins/${made.id}`, { status: 'active' })).status).toBe(200);
    expect((await admin('GET', '/me', undefined, fresh)).status).toBe(200);
    expect((await admin('DELETE', `/admins/${made.id}`)).status).toBe(200);
    expect((await admin('GET', '/me', undefined, fresh)).status).toBe(401);
    expect((await admin('GET', `/admins/${made.id}`)).status).toBe(404);
  });

  it('a role change applies to the very next call', async () => {
    const made = await makeAdmin({ name: 'carol', role: 'admin' });
    expect((await admin('POST', '/tenants', { name: 'by-carol' }, made.token)).status).toBe(201);
    await admin('PATCH', `/admins/${made.id}`, { role: 'viewer' });
    expect((await admin('POST', '/tenants', { name: 'by-carol-2' }, made.token)).status).toBe(403);
  });

  it('a tenant_admin needs existing tenants; other roles take none', async () => {
    const tenant = await createTenant('adm-scope');
    const none = await admin('POST', '/admins', { name: 'ta0', role: 'tenant_admin' });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ error: { param: 'tenant_ids' } });
    const missing = await admin('POST', '/admins', {
      name: 'ta1',
      role: 'tenant_admin',
      tenant_ids: ['ten_nope'],
    });
    expect(missing.status).toBe(404);
    const viewer = await admin('POST', '/admins', { name: 'v1', role: 'viewer', tenant_ids: [tenant.id] });
    expect(viewer.status).toBe(400);
    const ok = await makeAdmin({ name: 'ta2', role: 'tenant_admin', tenant_ids: [tenant.id, tenant.id] });
    expect(ok.tenant_ids).toEqual([tenant.id]);
    const promoted = await admin('PATCH', `/admins/${ok.id}`, { role: 'admin' });
    expect(promoted.json).toMatchObject({ role: 'admin', tenant_ids: [] });
  });

  it('bad input is a 4xx in the error shape', async () => {
    await makeAdmin({ name: 'dave', role: 'viewer' });
    const dup = await admin('POST', '/admins', { name: 'dave', role: 'admin' });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ error: { code: 'admin_name_taken', param: 'name' } });
    expect((await admin('POST', '/admins', { name: 'x', role: 'root' })).status).toBe(400);
    expect((await admin('POST', '/admins', { name: 'x', role: 'viewer', token: 'mine' })).status).toBe(400);
    expect((await admin('PATCH', '/admins/adm_nope', { name: 'y' })).status).toBe(404);
    expect((await admin('PATCH', '/admins/adm_nope', {})).status).toBe(400);
  });

  it('a wrong admin token is a 401, and a client that keeps guessing is blocked', async () => {
    const guess = (n: number) =>
      fetchAs('198.51.100.77', `ewadm_${'x'.repeat(42)}${n}`).then((r) => r.status);
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) statuses.push(await guess(n));
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

function fetchAs(ip: string, token: string) {
  return import('cloudflare:test').then(({ SELF }) =>
    SELF.fetch('http://gw.test/admin/me', {
      headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': ip },
    }),
  );
}
