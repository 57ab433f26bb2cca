/**
 * /admin/logs: request logs, newest first, with their tenants' and keys' names, filtered by tenant, key,
 * request id, model (or a model prefix: `gpt-4*`), error code, metadata key=value, named route, end user,
 * endpoint (`/mcp` for MCP calls), MCP server, status, cache status and time range, with cursor
 * pagination; and one log by its request id (the x-edgeway-request-id header), payload included.
 * `tenant_id` scopes either route: another tenant's log is a 404. A log older
 * than the recent index is found in the archive (src/logs/read/lookup.ts), given
 * its tenant_id. And the reconciliation of requests answered against events
 * stored (src/logs/read/reconcile.ts). The export is in log-export.ts.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { badRequest, GatewayError } from '../../core/errors';
import { McpNamespace } from '../../core/mcp-server';
import { RouteName } from '../../core/route-spec';
import { LogDetail, LogEntry, LogReader, type StatusFilter } from '../../logs/read/logs';
import { lookupLog } from '../../logs/read/lookup';
import { OwnerNames, withNames } from '../../logs/read/names';
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

/** `key=value`: one cf-aig-metadata entry a request carried (the value compared as text). */
const MetaPair = z
  .string()
  .regex(/^[^"\\=\p{Cc}]{1,64}=\P{Cc}{0,256}$/u, 'expected key=value (a key without " or \\)')
  .transform((raw): [string, string] => {
    const at = raw.indexOf('=');
    return [raw.slice(0, at), raw.slice(at + 1)];
  });
/** Up to four metadata entries, all required: `meta` repeated. */
export const MetaPairs = z.array(MetaPair).max(4, 'at most 4 meta filters');

export const LogListQuery = z.strictObject({
  tenant_id: Id.optional(),
  key_id: Id.optional(),
  request_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('Only this request (its x-edgeway-request-id), exactly.'),
  model: z
    .string()
    .regex(/^[^*]+\*?$/, 'expected a model id, or a prefix ending in * (gpt-4*)')
    .max(512)
    .optional()
    .describe(
      'Only this model (exact), or models starting with a prefix when it ends in * (gpt-4*; case-insensitive, % and _ match themselves).',
    ),
  error_code: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('Only requests that failed with this error code (exact, e.g. rate_limited).'),
  meta: MetaPair.optional().describe(
    'Only requests whose cf-aig-metadata has key=value (value as text: strings, numbers, true/false). Repeat for up to 4, all required.',
  ),
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

/** A log as listed or shown: its tenant's and key's names beside their ids. */
export const NamedEntry = LogEntry.extend(OwnerNames.shape);
export type NamedEntry = z.output<typeof NamedEntry>;
export const NamedDetail = LogDetail.extend(OwnerNames.shape);
export type NamedDetail = z.output<typeof NamedDetail>;

export const LogList = z.object({
  object: z.literal('list'),
  data: z.array(NamedEntry),
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
    response: { id: 'LogDetail', schema: NamedDetail },
  },
];

export function logsRouter() {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const q = readQuery(c, LogListQuery);
    const meta = MetaPairs.safeParse(c.req.queries('meta') ?? []);
    if (!meta.success) throw badRequest(`Invalid query. meta: ${meta.error.issues[0]?.message}`, 'meta');
    const prefix = q.model?.endsWith('*') ? q.model.slice(0, -1) : undefined;
    const filters = {
      tenantId: q.tenant_id,
      keyId: q.key_id,
      requestId: q.request_id,
      model: prefix === undefined ? q.model : undefined,
      modelPrefix: prefix,
      errorCode: q.error_code,
      meta: meta.data,
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
    return c.json(listBody({ ...page, items: await withNames(c.env.DB, page.items) }));
  });

  router.get('/reconcile', async (c) => c.json(await reconcile(c.env.DB)));

  router.get('/:request_id', async (c) => {
    const { tenant_id } = readQuery(c, LogScopeQuery);
    const id = c.req.param('request_id');
    const result = await lookupLog(c.env.DB, c.env.LOG_ARCHIVE ?? null, id, tenant_id);
    if ('found' in result) {
      const [named] = await withNames(c.env.DB, [result.found]);
      return c.json(named ?? result.found);
    }
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
