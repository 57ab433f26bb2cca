/**
 * Role and scope on every admin route, table-driven over the OpenAPI document's
 * operations (so a new route is covered the day it is added): a tenant_admin of
 * A is refused everything of B (403), yet reaches A's own resources; a viewer is
 * refused every change; an admin is refused the admins routes; an unknown or
 * foreign resource is refused like a forbidden one.
 */
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../../src/admin/openapi';
import type { Operation } from '../../../../src/admin/operation';
import { admin, createKey, createTenant } from '../../admin-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../../log-fixtures';

interface World {
  tenant: string;
  key: string;
  log: string;
  route: string;
}

async function world(name: string): Promise<World> {
  const tenant = (await createTenant(`scope-${name}`)).id;
  const key = (await createKey(tenant)).id;
  const log = `scope-log-${name}-${crypto.randomUUID()}`;
  await deliver(LOG_QUEUE, [logEvent({ requestId: log, tenantId: tenant, keyId: key })]);
  const route = await admin('POST', '/routes', {
    name: `scope-${name}`,
    tenant_id: tenant,
    spec: { strategy: 'fallback', targets: [{ model: 'mock/echo' }] },
  });
  expect(route.status).toBe(201);
  const put = await admin('PUT', `/tenants/${tenant}/provider-keys/openai`, { key: 'sk-scope-test-1234' });
  expect([200, 201]).toContain(put.status);
  return { tenant, key, log, route: (route.json as { id: string }).id };
}

let a: World;
let b: World;
let adminId: string;
const tokens: Record<string, string> = {};

async function makeAdmin(name: string, role: string, tenant_ids?: string[]): Promise<string> {
  const res = await admin('POST', '/admins', { name, role, ...(tenant_ids ? { tenant_ids } : {}) });
  expect(res.status).toBe(201);
  const made = res.json as { id: string; token: string };
  adminId = made.id;
  return made.token;
}

beforeAll(async () => {
  a = await world('a');
  b = await world('b');
  tokens.tenantAdmin = await makeAdmin('scope-tenant-admin', 'tenant_admin', [a.tenant]);
  tokens.viewer = await makeAdmin('scope-viewer', 'viewer');
  tokens.admin = await makeAdmin('scope-admin', 'admin');
});

/** The operation's concrete request against one world's resources. */
function requestFor(op: Operation, w: World): { method: string; path: string; body?: unknown } {
  const keyish = /^\/admin\/(keys|limits\/keys)\//.test(op.path);
  const path = op.path
    .replace('{request_id}', w.log)
    .replace('{provider}', 'openai')
    .replace('{model}', 'openai/gpt-4o')
    .replace('{id}', () => {
      if (keyish) return w.key;
      if (op.path.startsWith('/admin/routes/')) return w.route;
      if (op.path.startsWith('/admin/admins/')) return adminId;
      return w.tenant;
    })
    .replace(/^\/admin/, '');
  const query = op.query && 'tenant_id' in op.query.shape ? `?tenant_id=${w.tenant}` : '';
  const body = op.body ? { tenant_id: w.tenant } : undefined;
  return { method: op.method.toUpperCase(), path: path + query, body };
}

const name = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;
const openToAll = (op: Operation) => op.access.tenant === 'any' || op.access.tenant === 'list';

describe('a tenant_admin of A', () => {
  it.each(OPERATIONS.filter((op) => !openToAll(op)).map((op) => [name(op), op] as const))(
    'is refused %s on B',
    async (_, op) => {
      const r = requestFor(op, b);
      const res = await admin(r.method, r.path, r.body, tokens.tenantAdmin);
      expect(res.status, res.text).toBe(403);
      expect(res.json).toMatchObject({ error: { code: 'forbidden', type: 'permission_error' } });
      expect(res.text).not.toContain(b.key);
    },
  );

  it.each(OPERATIONS.filter((op) => op.access.tenant && !openToAll(op)).map((op) => [name(op), op] as const))(
    'may call %s on A',
    async (_, op) => {
      const r = requestFor(op, a);
      const res = await admin(r.method, r.path, r.body, tokens.tenantAdmin);
      expect(res.status, res.text).not.toBe(403);
      expect(res.status, res.text).not.toBe(401);
    },
  );

  it('lists only its own tenants, and /admin/me names its scope', async () => {
    const list = await admin('GET', '/tenants?limit=100', undefined, tokens.tenantAdmin);
    expect(list.status).toBe(200);
    const ids = (list.json as { data: { id: string }[] }).data.map((t) => t.id);
    expect(ids).toEqual([a.tenant]);
    const me = await admin('GET', '/me', undefined, tokens.tenantAdmin);
    expect(me.json).toMatchObject({
      name: 'scope-tenant-admin',
      role: 'tenant_admin',
      tenant_ids: [a.tenant],
    });
  });

  it('is refused a key route when the key does not exist, as if it were foreign', async () => {
    const res = await admin('GET', '/keys/key_doesnotexist', undefined, tokens.tenantAdmin);
    expect(res.status).toBe(403);
  });

  it('must name its tenant on listings', async () => {
    const res = await admin('GET', '/keys', undefined, tokens.tenantAdmin);
    expect(res.status).toBe(403);
    expect(res.text).toContain('pass tenant_id');
  });
});

describe('roles', () => {
  const writes = OPERATIONS.filter((op) => op.method !== 'get' || op.access.level !== 'read');
  it.each(writes.map((op) => [name(op), op] as const))('a viewer is refused %s', async (_, op) => {
    const r = requestFor(op, a);
    const res = await admin(r.method, r.path, r.body, tokens.viewer);
    expect(res.status, res.text).toBe(403);
  });

  const ownerOnly = OPERATIONS.filter((op) => op.access.level === 'owner');
  it.each(ownerOnly.map((op) => [name(op), op] as const))('an admin is refused %s', async (_, op) => {
    const r = requestFor(op, a);
    const res = await admin(r.method, r.path, r.body, tokens.admin);
    expect(res.status, res.text).toBe(403);
  });

  it('a viewer reads, an admin changes', async () => {
    expect((await admin('GET', `/tenants/${a.tenant}`, undefined, tokens.viewer)).status).toBe(200);
    expect((await admin('GET', '/pricing', undefined, tokens.viewer)).status).toBe(200);
    const patched = await admin('PATCH', `/tenants/${a.tenant}`, { name: 'scope-a2' }, tokens.admin);
    expect(patched.status).toBe(200);
  });

  it('the admins routes are the only ones owners alone may call', () => {
    expect(ownerOnly.map(name).every((n) => n.includes('/admin/admins'))).toBe(true);
  });

  it('an undocumented /admin path is refused to non-owners and a 404 to owners', async () => {
    expect((await admin('GET', '/nothing-here', undefined, tokens.admin)).status).toBe(403);
    expect((await admin('GET', '/nothing-here')).status).toBe(404);
  });

  it('the guard sees the same request the router does', async () => {
    // A key id in the path that spans a slash must not slip past the matcher as another operation.
    const res = await SELF.fetch(`http://gw.test/admin/keys/${b.key}%2Frotate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.tenantAdmin}` },
    });
    expect(res.status).toBe(403);
  });
});
