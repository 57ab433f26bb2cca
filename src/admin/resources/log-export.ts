/**
 * GET /admin/logs/export?tenant_id=&from=&to=: a tenant's raw logs for a time
 * range, streamed from the archive as NDJSON (one log per line, payloads
 * included when they were logged), oldest hour first. The response is a
 * stream: objects are read one at a time as the client takes the data, so
 * any range is served in flat memory. Needs the LOG_ARCHIVE bucket.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { GatewayError, badRequest } from '../../core/errors';
import { exportArchived } from '../../logs/archive/reader';
import { TimeParam } from './logs';
import type { Operation } from '../operation';
import { Id } from '../schemas';
import { readQuery } from '../validate';

/** The longest range one export may cover: a year and a bit (each hour is one listing). */
const MAX_RANGE_MS = 400 * 86_400_000;

export const LogExportQuery = z.strictObject({
  tenant_id: Id,
  from: TimeParam.describe('Inclusive start of the range.'),
  to: TimeParam.optional().describe('Exclusive end of the range; default now.'),
});

export const logExportOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/logs/export',
    access: { level: 'read', tenant: 'query' },
    summary: "Stream a tenant's raw logs for a time range from the archive, as NDJSON",
    query: LogExportQuery,
    status: 200,
    streams: { mediaType: 'application/x-ndjson', description: 'One log per line, in the LogDetail shape' },
  },
];

export function logExportRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();
  router.get('/export', (c) => {
    const q = readQuery(c, LogExportQuery);
    const to = q.to ?? now();
    if (!(q.from < to)) throw badRequest('from must be before to.', 'from', 'invalid_range');
    if (to - q.from > MAX_RANGE_MS)
      throw badRequest('The range is longer than 400 days.', 'to', 'invalid_range');
    const archive = c.env.LOG_ARCHIVE;
    if (!archive) {
      throw new GatewayError(501, 'Export reads the log archive: bind the LOG_ARCHIVE R2 bucket.', {
        code: 'archive_not_configured',
      });
    }
    return new Response(exportArchived(archive, q.tenant_id, q.from, to), {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="logs-${q.tenant_id}.ndjson"`,
      },
    });
  });
  return router;
}
