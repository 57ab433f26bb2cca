/**
 * Who is calling the admin API, and what each role may do (pure). The policy
 * is one function over an operation's declared access, so the admin API's
 * guard and the dashboard's forms ask the same question and get the same answer.
 *
 * - owner: everything, including managing admins;
 * - admin: tenants, keys, routes, limits, pricing, provider keys (not admins);
 * - viewer: reads only (no secrets, no admins);
 * - tenant_admin: only the operations that name a tenant in its scope (its
 *   tenants' keys, limits, usage, logs and audit rows), never another tenant's.
 */

export const ADMIN_ROLES = ['owner', 'admin', 'viewer', 'tenant_admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export interface AdminPrincipal {
  /** adm_… for a named admin, BREAK_GLASS_ID for the deployment's ADMIN_TOKEN. */
  readonly id: string;
  readonly name: string;
  readonly role: AdminRole;
  /** A tenant_admin's tenants; empty for every other role. */
  readonly tenantIds: readonly string[];
}

export const BREAK_GLASS_ID = 'break-glass';

/** The deployment's ADMIN_TOKEN: an owner outside the admins table, for first setup and emergencies. */
export const BREAK_GLASS: AdminPrincipal = Object.freeze({
  id: BREAK_GLASS_ID,
  name: 'break-glass (ADMIN_TOKEN)',
  role: 'owner',
  tenantIds: Object.freeze([]) as readonly string[],
});

/**
 * Where a tenant_admin's call names the tenant it touches:
 * - path: the `{id}` path parameter is the tenant's id;
 * - query: the `tenant_id` query parameter (required of a tenant_admin);
 * - body: the JSON body's `tenant_id`;
 * - key: the `{id}` path parameter is a gateway key, whose tenant is looked up;
 * - log: the `{request_id}` path parameter is a logged request, whose tenant is looked up;
 * - list: a listing the handler narrows to the admin's own tenants;
 * - any: about the caller itself, open to every role.
 */
export type TenantLocator = 'path' | 'query' | 'body' | 'key' | 'log' | 'list' | 'any';

export interface Access {
  /** read: every role (a tenant_admin only with `tenant`); write: owner and admin; owner: owner only. */
  level: 'read' | 'write' | 'owner';
  /** Where a tenant_admin finds the tenant; absent, a tenant_admin may not call the operation at all. */
  tenant?: TenantLocator;
}

/**
 * Whether `who` may call an operation with this access, on `tenantId` (the
 * tenant the call touches, as located; null when it names none or none exists).
 */
export function permits(who: AdminPrincipal, access: Access, tenantId: string | null): boolean {
  switch (who.role) {
    case 'owner':
      return true;
    case 'admin':
      return access.level !== 'owner';
    case 'viewer':
      return access.level === 'read';
    case 'tenant_admin': {
      const where = access.tenant;
      if (!where || access.level === 'owner') return false;
      if (where === 'any' || where === 'list') return true;
      return tenantId !== null && who.tenantIds.includes(tenantId);
    }
  }
}

/** Whether a tenant_admin needs the call's tenant located before `permits` can answer. */
export function needsTenant(who: AdminPrincipal, access: Access): boolean {
  return (
    who.role === 'tenant_admin' &&
    access.tenant !== undefined &&
    access.tenant !== 'any' &&
    access.tenant !== 'list'
  );
}
