/**
 * What the signed-in admin may do, for showing only the forms and pages its
 * role allows. It asks the admin API's own policy (`permits`) about the admin
 * API's own operations (OPERATIONS, by `METHOD /admin/path`), so a form is
 * shown exactly when the call behind it would be allowed; the API still
 * judges every call itself.
 */
import { OPERATIONS } from '../admin/openapi';
import { type Access, type AdminPrincipal, permits } from '../core/admin-principal';

const ACCESS = new Map<string, Access>(
  OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op.access]),
);

function accessOf(operation: string): Access {
  const access = ACCESS.get(operation);
  if (!access) throw new Error(`dashboard asks about an undocumented admin operation: ${operation}`);
  return access;
}

/** Whether `who` may call `operation` (e.g. `PATCH /admin/tenants/{id}`) on `tenantId`. */
export function can(who: AdminPrincipal, operation: string, tenantId: string | null = null): boolean {
  return permits(who, accessOf(operation), tenantId);
}

/** Whether `who` may call `operation` on some tenant at least (for navigation, before a tenant is picked). */
export function canSome(who: AdminPrincipal, operation: string): boolean {
  const access = accessOf(operation);
  return permits(who, access, null) || who.tenantIds.some((id) => permits(who, access, id));
}
