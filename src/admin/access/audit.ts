/**
 * GET /admin/audit: who changed what, when, before → after (secrets removed),
 * newest first. A tenant_admin reads only its tenants' rows (tenant_id is
 * required of it and checked by the guard).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { AuditEntry, readAudit } from '../../storage/audit-log';
import type { Operation } from '../operation';
import { Id, listOf } from '../schemas';
import { readQuery } from '../validate';

const Millis = z.coerce.number().int().nonnegative();

export const AuditQuery = z.strictObject({
  tenant_id: Id.optional().describe("Only changes to this tenant's resources."),
  actor_id: Id.optional().describe('Only changes made by this admin (adm_…, break-glass or system).'),
  resource: AuditEntry.shape.resource.optional(),
  resource_id: Id.optional(),
  from: Millis.optional().describe('From this time (epoch ms), inclusive.'),
  to: Millis.optional().describe('Up to this time (epoch ms), exclusive.'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Page size, 1–200.'),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'not a next_cursor from a previous page')
    .optional()
    .describe('next_cursor from the previous page.'),
});

export const auditOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/audit',
    access: { level: 'read', tenant: 'query' },
    summary: 'The audit log: every admin change, newest first',
    query: AuditQuery,
    status: 200,
    response: { id: 'AuditList', schema: listOf(AuditEntry) },
  },
];

export function auditRouter() {
  const router = new Hono<AppEnv>();
  router.get('/', async (c) => {
    const q = readQuery(c, AuditQuery);
    const page = await readAudit(
      c.var.adminDb,
      {
        tenantId: q.tenant_id,
        actorId: q.actor_id,
        resource: q.resource,
        resourceId: q.resource_id,
        from: q.from,
        to: q.to,
      },
      { limit: q.limit, before: q.cursor ? Number(q.cursor) : null },
    );
    return c.json({
      object: 'list',
      data: page.items,
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor,
    });
  });
  return router;
}
