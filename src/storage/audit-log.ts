/**
 * Reads the audit trail (audit_log, written only by the triggers of migration
 * 0014), newest first, by keyset on its sequence number.
 */
import * as z from 'zod';

export const AuditEntry = z.object({
  id: z.number().describe('Sequence number: later changes have larger ids.'),
  at: z.number(),
  actor: z.object({ id: z.string(), name: z.string() }),
  operation: z.string().nullable(),
  resource: z.enum([
    'tenant',
    'key',
    'route',
    'provider_key',
    'price',
    'admin',
    'mcp_server',
    'mcp_server_token',
  ]),
  resource_id: z.string(),
  tenant_id: z.string().nullable(),
  change: z.enum(['create', 'update', 'delete']),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export interface AuditFilter {
  tenantId?: string;
  actorId?: string;
  resource?: AuditEntry['resource'];
  resourceId?: string;
  from?: number;
  to?: number;
}

interface AuditRow {
  seq: number;
  at: number;
  actor_id: string;
  actor_name: string;
  operation: string | null;
  resource: AuditEntry['resource'];
  resource_id: string;
  tenant_id: string | null;
  change: AuditEntry['change'];
  before: string | null;
  after: string | null;
}

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.seq,
  at: r.at,
  actor: { id: r.actor_id, name: r.actor_name },
  operation: r.operation,
  resource: r.resource,
  resource_id: r.resource_id,
  tenant_id: r.tenant_id,
  change: r.change,
  before: parse(r.before),
  after: parse(r.after),
});

export async function readAudit(
  db: D1Database,
  filter: AuditFilter,
  page: { limit: number; before: number | null },
): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
  const where: string[] = [];
  const binds: (string | number)[] = [];
  const add = (sql: string, value: string | number | undefined | null) => {
    if (value === undefined || value === null) return;
    where.push(sql);
    binds.push(value);
  };
  add('tenant_id = ?', filter.tenantId);
  add('actor_id = ?', filter.actorId);
  add('resource = ?', filter.resource);
  add('resource_id = ?', filter.resourceId);
  add('at >= ?', filter.from);
  add('at < ?', filter.to);
  add('seq < ?', page.before);
  const { results } = await db
    .prepare(
      `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`,
    )
    .bind(...binds, page.limit + 1)
    .all<AuditRow>();
  const more = results.length > page.limit;
  const kept = more ? results.slice(0, page.limit) : results;
  return { items: kept.map(toEntry), nextCursor: more ? String(kept.at(-1)?.seq ?? '') : null };
}
