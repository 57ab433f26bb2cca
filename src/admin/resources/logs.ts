/**
 * /admin/logs: request logs, newest first, filtered by tenant, key, model, named
 * route, end user, endpoint (`/mcp` for MCP calls), MCP server, status, cache status and time range, with cursor pagination; and one log by
 * its request id (the x-edgeway-request-id header), payload included.
 * `tenant_id` scopes either route: another tenant's log is a 404. A log older
 * than the recent index is found in the archive (src/logs/read/lookup.ts), given
 * its tenant_id. And the reconciliation of requests answered against events
 * stored (src/logs/read/reconcile.ts). The export is in log-export.ts.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { McpNamespace } from '../../core/mcp-server';
import { RouteName } from '../../core/route-spec';
import { LogDetail, LogEntry, LogReader, type StatusFilter } from '../../logs/read/logs';
import { lookupLog } from '../../logs/read/lookup';
import { Reconciliation, reconcile } from '../../logs/read/reconcile';
import type { Operation } from '../operation';
import { listBody } from '../pagination';
import { Cursor } from '../schemas';
import { readQuery } from '../validate';

const Id = z.string().min(1).max(64);
/** The largest time a JS Date can hold. */
const MAX_DATE_MS = 8.64e15;

/** Epoch milliseconds or an ISO 8601 date / date-time. */
export const TimeParam = z
  .string()
  .transform((raw, ctx) => {
    const t = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
    if (Number.isFinite(t) && Math.abs(t) <= MAX_DATE_MS) return t;
    ctx.addIssue({ code: 'custom', message: 'expected epoch milliseconds or an ISO 8601 date' });
    return z.NEVER;
  })
  .describe('Epoch milliseconds or ISO 8601 (e.g. 2026-05-01 or 2026-05-01T12:00:00Z).');

const Status = z
  .string()
  .regex(/^([1-5]\d\d|[1-5]xx|error|ok)$/i, 'expected a status (429), a class (5xx), "error" or "ok"')
  .transform((raw): StatusFilter => {
    const s = raw.toLowerCase();
    if (s === 'error' || s === 'ok') return s;
    return s.endsWith('xx') ? { class: Number(s[0]) } : { exact: Number(s) };
  })
  .describe('An exact status (429), a class (4xx), "error" (status ≥ 400 or a stream that failed) or "ok".');

const Cache = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['HIT', 'SEMANTIC', 'MISS', 'BYPASS', 'NONE']))
  .describe('Cache status; NONE for requests that never reached the cache.');

export const LogListQuery = z.strictObject({
  tenant_id: Id.optional(),
  key_id: Id.optional(),
  model: z.string().min(1).max(200).optional(),
  route: RouteName.optional().describe('Only requests that called this named route.'),
  end_user: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe('Only requests for this end user (exact id, as logged in end_user).'),
  endpoint: z
    .string()
    .regex(/^\/[\x21-\x7e]{0,511}$/, 'expected a path, e.g. /v1/chat/completions or /mcp')
    .optional()
    .describe('Only requests to this endpoint (exact path): /mcp for MCP calls.'),
  server: McpNamespace.optional().describe(
    'Only MCP calls to the server of this namespace (provider mcp:<namespace>); model=<namespace>__<tool> picks one tool.',
  ),
  status: Status.optional(),
  cache: Cache.optional(),
  from: TimeParam.optional().describe('Inclusive lower bound on the request time.'),
  to: TimeParam.optional().describe('Exclusive upper bound on the request time.'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1–100.'),
  cursor: Cursor.optional().describe('next_cursor from the previous page.'),
});

export const LogScopeQuery = z.strictObject({ tenant_id: Id.optional() });

export const LogList = z.object({
  object: z.literal('list'),
  data: z.array(LogEntry),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const logOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/logs',

    access: { level: 'read', tenant: 'query' },
    summary: 'Request logs, newest first, filtered and paginated',
    query: LogListQuery,
    status: 200,
    response: { id: 'LogList', schema: LogList },
  },
  {
    method: 'get',
    path: '/admin/logs/reconcile',

    access: { level: 'read' },
    summary: "Events sent per the producers' counts versus stored, dead-lettered and missing",
    status: 200,
    response: { id: 'LogReconciliation', schema: Reconciliation },
  },
  {
    method: 'get',
    path: '/admin/logs/{request_id}',

    access: { level: 'read', tenant: 'log' },
    summary: 'One request log by its x-edgeway-request-id, payload included',
    query: LogScopeQuery,
    status: 200,
    response: { id: 'LogDetail', schema: LogDetail },
  },
];

export function logsRouter() {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const q = readQuery(c, LogListQuery);
    const filters = {
      tenantId: q.tenant_id,
      keyId: q.key_id,
      model: q.model,
      route: q.route,
      endUser: q.end_user,
      endpoint: q.endpoint,
      server: q.server,
      status: q.status,
      cache: q.cache,
      from: q.from,
      to: q.to,
    };
    const page = await new LogReader(c.env.DB).list(filters, { limit: q.limit, cursor: q.cursor ?? null });
    return c.json(listBody(page));
  });

  router.get('/reconcile', async (c) => c.json(await reconcile(c.env.DB)));

  router.get('/:request_id', async (c) => {
    const { tenant_id } = readQuery(c, LogScopeQuery);
    const id = c.req.param('request_id');
    const result = await lookupLog(c.env.DB, c.env.LOG_ARCHIVE ?? null, id, tenant_id);
    if ('found' in result) return c.json(result.found);
    if (result.missing === 'tenant_needed') {
      throw new GatewayError(
        404,
        `No log for request '${id}' in the recent index; pass tenant_id to look for it in the archive.`,
        { code: 'log_not_found', param: 'tenant_id' },
      );
    }
    throw new GatewayError(
      404,
      `No log for request '${id}'. Logs are written a few seconds after the request ends.`,
      { code: 'log_not_found' },
    );
  });

  return router;
}
