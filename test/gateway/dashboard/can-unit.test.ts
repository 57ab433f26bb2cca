/** The dashboard's permission questions: the admin API's own policy over its own documented operations. */
import { describe, expect, it } from 'vitest';
import { type AdminPrincipal, BREAK_GLASS } from '../../../src/core/admin-principal';
import { can, canSome } from '../../../src/dashboard/can';

const as = (role: AdminPrincipal['role'], tenantIds: string[] = []): AdminPrincipal => ({
  id: `adm_${role}`,
  name: role,
  role,
  tenantIds,
});

describe('can', () => {
  it('answers per role as the admin API does', () => {
    expect(can(BREAK_GLASS, 'POST /admin/admins')).toBe(true);
    expect(can(as('admin'), 'POST /admin/admins')).toBe(false);
    expect(can(as('admin'), 'PATCH /admin/tenants/{id}', 'ten_a')).toBe(true);
    expect(can(as('viewer'), 'PATCH /admin/tenants/{id}', 'ten_a')).toBe(false);
    expect(can(as('viewer'), 'GET /admin/tenants/{id}', 'ten_a')).toBe(true);
  });

  it("lets a tenant_admin change its own tenants' keys only, and never the tenant itself", () => {
    const ta = as('tenant_admin', ['ten_a']);
    expect(can(ta, 'PATCH /admin/keys/{id}', 'ten_a')).toBe(true);
    expect(can(ta, 'PATCH /admin/keys/{id}', 'ten_b')).toBe(false);
    expect(can(ta, 'PATCH /admin/keys/{id}', null)).toBe(false);
    expect(can(ta, 'PATCH /admin/tenants/{id}', 'ten_a')).toBe(false);
    expect(can(ta, 'GET /admin/tenants')).toBe(true);
  });

  it('canSome: a tenant-scoped read is open to a tenant_admin on one of its tenants, not to one with none', () => {
    expect(canSome(as('tenant_admin', ['ten_a']), 'GET /admin/usage')).toBe(true);
    expect(canSome(as('tenant_admin', []), 'GET /admin/usage')).toBe(false);
    expect(canSome(as('tenant_admin', ['ten_a']), 'GET /admin/routes')).toBe(false);
  });

  it('refuses to answer about an operation the admin API does not document', () => {
    expect(() => can(BREAK_GLASS, 'PATCH /admin/nothing')).toThrow(/undocumented admin operation/);
  });
});
