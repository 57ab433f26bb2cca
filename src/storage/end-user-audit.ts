/**
 * The audit row of an end user's override. Overrides live in the tenant's user-shard Durable Objects,
 * not in D1, so no trigger sees them; the admin API writes their row itself, through the request's
 * audited handle (src/admin/access/audited-db.ts), whose batch names the acting admin in audit_actor:
 * the row reads who and which operation from there, as the triggers do. It is recorded on the tenant
 * (audit_log's resources are fixed), as one field `end_user:<id>` whose before and after are the
 * override (null: none, the tenant's default applies).
 */
import type { ScopeRule } from '../core/settings';

export const overrideField = (user: string) => `end_user:${user}`;

export async function recordOverrideChange(
  db: D1Database,
  tenantId: string,
  user: string,
  before: ScopeRule | null,
  after: ScopeRule | null,
): Promise<void> {
  const field = overrideField(user);
  await db
    .prepare(
      `INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
       SELECT a.at, a.actor_id, a.actor_name, a.operation, 'tenant', ?1, ?1, 'update', ?2, ?3
       FROM audit_actor a WHERE a.one = 1`,
    )
    .bind(tenantId, JSON.stringify({ [field]: before }), JSON.stringify({ [field]: after }))
    .run();
}
