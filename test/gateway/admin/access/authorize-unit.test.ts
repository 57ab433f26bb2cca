/** The role policy and the operation matcher, pure. */
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../../src/admin/openapi';
import { operationMatcher } from '../../../../src/admin/access/authorize';
import { ADMIN_ROLES, type Access, type AdminPrincipal, permits } from '../../../../src/core/admin-principal';

const who = (role: AdminPrincipal['role'], tenantIds: string[] = []): AdminPrincipal => ({
  id: 'adm_x',
  name: 'x',
  role,
  tenantIds,
});

describe('permits', () => {
  const levels: Access['level'][] = ['read', 'write', 'owner'];
  const expected: Record<string, Access['level'][]> = {
    owner: ['read', 'write', 'owner'],
    admin: ['read', 'write'],
    viewer: ['read'],
    tenant_admin: [],
  };
  it.each(ADMIN_ROLES)('%s without a tenant locator', (role) => {
    const allowed = levels.filter((level) => permits(who(role), { level }, null));
    expect(allowed).toEqual(expected[role]);
  });

  it('a tenant_admin only on its tenants, never on owner operations', () => {
    const ta = who('tenant_admin', ['ten_a']);
    expect(permits(ta, { level: 'write', tenant: 'key' }, 'ten_a')).toBe(true);
    expect(permits(ta, { level: 'write', tenant: 'key' }, 'ten_b')).toBe(false);
    expect(permits(ta, { level: 'write', tenant: 'key' }, null)).toBe(false);
    expect(permits(ta, { level: 'owner', tenant: 'any' }, 'ten_a')).toBe(false);
    expect(permits(ta, { level: 'read', tenant: 'any' }, null)).toBe(true);
    expect(permits(who('viewer'), { level: 'write', tenant: 'key' }, 'ten_a')).toBe(false);
  });
});

describe('operationMatcher', () => {
  const match = operationMatcher(OPERATIONS);
  const name = (method: string, path: string) => {
    const m = match(method, path);
    return m ? `${m.op.method} ${m.op.path} ${JSON.stringify(m.params)}` : null;
  };

  it('prefers static segments over parameters', () => {
    expect(name('GET', '/admin/logs/reconcile')).toBe('get /admin/logs/reconcile {}');
    expect(name('GET', '/admin/logs/req_1')).toBe('get /admin/logs/{request_id} {"request_id":"req_1"}');
  });

  it('lets a model id span slashes, decoded', () => {
    expect(name('PUT', '/admin/pricing/openai/gpt-4o')).toBe(
      'put /admin/pricing/{model} {"model":"openai/gpt-4o"}',
    );
    expect(name('GET', '/admin/pricing/%40cf%2Fmeta')).toBe(
      'get /admin/pricing/{model} {"model":"@cf/meta"}',
    );
  });

  it('matches by method and whole path only', () => {
    expect(name('POST', '/admin/keys/key_1/rotate')).toBe('post /admin/keys/{id}/rotate {"id":"key_1"}');
    expect(name('PUT', '/admin/keys/key_1')).toBeNull();
    expect(name('GET', '/admin/keysx')).toBeNull();
    expect(name('GET', '/admin/tenants/ten_1/')).toBe('get /admin/tenants/{id} {"id":"ten_1"}');
  });

  it('finds every documented operation from its own path', () => {
    for (const op of OPERATIONS) {
      const path = op.path.replace(/\{(\w+)\}/g, 'p1');
      expect(match(op.method, path)?.op, `${op.method} ${op.path}`).toBe(op);
    }
  });
});
