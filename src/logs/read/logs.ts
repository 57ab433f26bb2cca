/**
 * Reads request logs back for the admin API: filtered, newest first, keyset
 * pagination over (time, id) so a page is one indexed range read however deep
 * it is. Rows are validated on the way out (metadata and tries are JSON from
 * D1); tries that do not validate read as [] so one bad cell never hides its row.
 */
import * as z from 'zod';
import { encodeCursor, type Cursor, type Page } from '../../storage/page';
import { MCP_ENDPOINT } from '../../core/log-event';

export type StatusFilter = { exact: number } | { class: number } | 'error' | 'ok';

export interface LogFilters {
  tenantId?: string | undefined;
  keyId?: string | undefined;
  /** One request, by its id (x-edgeway-request-id). */
  requestId?: string | undefined;
  model?: string | undefined;
  /** Models starting with this text (case-insensitive for ASCII, as SQL LIKE); `%` and `_` match themselves. */
  modelPrefix?: string | undefined;
  /** The error code, exactly (rate_limited, upstream_timeout …). */
  errorCode?: string | undefined;
  /** cf-aig-metadata entries the request carried, all of them (key, value as text). */
  meta?: [string, string][] | undefined;
  /** The named route called. */
  route?: string | undefined;
  /** The tenant's end user the request was for. */
  endUser?: string | undefined;
  /** The endpoint called (`/mcp` for MCP calls). */
  endpoint?: string | undefined;
  /** MCP calls to the server of this namespace (provider `mcp:<namespace>`). */
  server?: string | undefined;
  status?: StatusFilter | undefined;
  cache?: 'HIT' | 'SEMANTIC' | 'MISS' | 'BYPASS' | 'NONE' | undefined;
  /** Inclusive, epoch ms. */
  from?: number | undefined;
  /** Exclusive, epoch ms. */
  to?: number | undefined;
}

const Metadata = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const Tags = z.record(z.string(), z.string());

/** One upstream call as the admin API shows it (and as request_logs.tries stores it, src/logs/rows.ts). */
export const LogTryEntry = z.object({
  target: z.string().describe('The provider/model called.'),
  status: z.number().describe("The provider's HTTP status; 0 when none arrived (timeout, reset)."),
  ttfb_ms: z.number().describe('Time to the first byte, or to the failure, in ms.'),
  error: z
    .string()
    .nullable()
    .describe('Why the call failed (e.g. upstream_timeout); null for the one that answered.'),
});
export type LogTryEntry = z.output<typeof LogTryEntry>;

/** One tool result a verdict fired on: its position and the client's tool call id, never its text. */
export const LogToolResultEntry = z.object({
  index: z.number().describe("The result's position among the request's tool results, 0-based."),
  id: z
    .string()
    .nullable()
    .describe('The tool call id the client gave it (tool_call_id, tool_use_id or call_id); null when none.'),
  score: z.number().describe('The tool-result detector’s score.'),
});
export type LogToolResultEntry = z.output<typeof LogToolResultEntry>;

/** What one guardrail found and did in one direction (request_logs.guardrails); never the values found. */
export const LogGuardrailEntry = z.object({
  guardrail: z.string(),
  direction: z
    .enum(['request', 'response', 'tool'])
    .describe("Where it judged: the request's user turns, the answer, or the request's tool results."),
  action: z.enum(['log', 'flag', 'redact', 'quarantine', 'block']),
  count: z
    .number()
    .describe('Values found, tool results fired on, or 1 for a guardrail that judges a whole text.'),
  kinds: z.record(z.string(), z.number()).describe('Values found per kind (email, card, deny …).'),
  score: z
    .number()
    .nullable()
    .describe('The injection score, for the injection guardrail (on tool results, the highest).'),
  error: z.string().nullable().describe('Why a guardrail could not judge (it then let the request through).'),
  results: z
    .array(LogToolResultEntry)
    .optional()
    .describe('Direction tool: the results fired on (at most 32), by index, id and score.'),
});
export type LogGuardrailEntry = z.output<typeof LogGuardrailEntry>;

/** An MCP call as the admin API shows it (and as request_logs.mcp stores it, src/logs/rows.ts). */
export const LogMcpEntry = z.object({
  method: z.enum(['tools/call', 'resources/read', 'prompts/get']),
  server: z.string().describe("The MCP server's id."),
  namespace: z.string().describe("The server's namespace: its tools are listed as <namespace>__<tool>."),
  name: z.string().describe('The tool or prompt name, or the resource URI, as the upstream server knows it.'),
  args_bytes: z.number().describe("The size of the call's arguments as JSON, in bytes."),
  result_bytes: z.number().describe('The size of the result as JSON, in bytes; 0 when none came back.'),
  is_error: z.boolean().describe("The tool result's isError: the tool ran and reported a failure."),
});
export type LogMcpEntry = z.output<typeof LogMcpEntry>;

/** A request_logs row as the admin API returns it (list view: no payload bodies). */
export const LogEntry = z.object({
  id: z.string().describe('The request id (x-edgeway-request-id).'),
  time: z.number().describe('Epoch milliseconds when the request reached the gateway.'),
  tenant_id: z.string().nullable(),
  key_id: z.string().nullable(),
  endpoint: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: z.number(),
  error_source: z.enum(['gateway', 'provider', 'client']).nullable(),
  error_code: z.string().nullable(),
  cache: z.enum(['HIT', 'SEMANTIC', 'MISS', 'BYPASS']).nullable(),
  stream: z.boolean(),
  stream_completed: z.boolean().nullable(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number().describe('Prompt-cache reads, part of input_tokens.'),
  // Added by migration 0016: archive lines written before it have none and read 0.
  cache_write_tokens: z.number().default(0).describe('Prompt-cache writes (any TTL), part of input_tokens.'),
  cache_write_1h_tokens: z
    .number()
    .default(0)
    .describe('The part of cache_write_tokens written with a 1-hour TTL.'),
  reasoning_tokens: z.number().default(0).describe('Reasoning (thinking) tokens, part of output_tokens.'),
  cost_usd: z.number().describe('0 for gateway cache hits.'),
  saved_usd: z.number().describe('What a gateway cache hit would have cost.'),
  latency_ms: z.number(),
  ttft_ms: z.number().nullable(),
  attempts: z.number(),
  route: z.string().nullable().describe('The named route the client called (model then holds its name).'),
  tries: z
    .array(LogTryEntry)
    .describe('Every upstream call, in order (retries and fallbacks); empty when none was made.'),
  guardrails: z
    .array(LogGuardrailEntry)
    .describe('What each guardrail found and did; empty when none fired.'),
  metadata: Metadata.nullable().describe('The cf-aig-metadata header.'),
  // Added by migration 0020: rows and archive lines written before it read null.
  end_user: z
    .string()
    .nullable()
    .default(null)
    .describe('The end user the request was for (x-edgeway-user, or the body’s user field); null when none.'),
  tags: Tags.nullable()
    .default(null)
    .describe("The cf-aig-metadata values of the tenant's tag keys, which usage is rolled up by."),
  // Added by migration 0022: rows and archive lines written before it read null.
  mcp: LogMcpEntry.nullable()
    .default(null)
    .describe(
      'For an /mcp call: its method, server, upstream name, sizes and isError; null for any other request.',
    ),
  has_payload: z.boolean(),
  payload_truncated: z.boolean(),
});
export type LogEntry = z.output<typeof LogEntry>;

export const LogDetail = LogEntry.extend({
  request_payload: z.string().nullable().describe('The request body, only for keys with log_payload.'),
  response_payload: z.string().nullable().describe('The response body (streams: the delivered text).'),
});
export type LogDetail = z.output<typeof LogDetail>;

/** How D1 hands the same rows back: 0/1 for booleans, metadata and tries as JSON text. */
const bit = z.union([z.literal(0), z.literal(1)]).transform((b) => b === 1);
const MetadataText = z.string().transform((s, ctx) => {
  try {
    return Metadata.parse(JSON.parse(s));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'metadata is not a flat JSON object' });
    return z.NEVER;
  }
});
/** Never fails, like TriesText: NULL (no tags, or an older row) and anything unreadable are null. */
const TagsText = z.unknown().transform((s): Record<string, string> | null => {
  if (typeof s !== 'string') return null;
  try {
    const parsed = Tags.safeParse(JSON.parse(s));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
});
/** Never fails, like TriesText: NULL (not an MCP call, or an older row) and anything unreadable are null. */
const McpText = z.unknown().transform((s): LogMcpEntry | null => {
  if (typeof s !== 'string') return null;
  try {
    const parsed = LogMcpEntry.safeParse(JSON.parse(s));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
});
/** Never fails: NULL (no call, or a row older than migration 0010) and anything unreadable are []. */
const TriesText = z.unknown().transform((s): LogTryEntry[] => {
  if (typeof s !== 'string') return [];
  try {
    const parsed = z.array(LogTryEntry).safeParse(JSON.parse(s));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
});
/** Never fails, like TriesText: NULL (none fired, or an older row) and anything unreadable are []. */
const GuardrailsText = z.unknown().transform((s): LogGuardrailEntry[] => {
  if (typeof s !== 'string') return [];
  try {
    const parsed = z.array(LogGuardrailEntry).safeParse(JSON.parse(s));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
});
const stored = {
  stream: bit,
  stream_completed: bit.nullable(),
  has_payload: bit,
  payload_truncated: bit,
  metadata: MetadataText.nullable(),
  tries: TriesText,
  guardrails: GuardrailsText,
  tags: TagsText,
  mcp: McpText,
};
const StoredEntry = LogEntry.extend(stored);
const StoredDetail = LogDetail.extend(stored);

/** A row as the consumer makes it (src/logs/rows.ts), in the admin API's shape: what an archive line holds. */
export function detailOfRow(row: Record<string, unknown>): LogDetail {
  const payload = row.request_payload != null || row.response_payload != null;
  return StoredDetail.parse({ ...row, has_payload: payload ? 1 : 0 });
}

const LIST_COLUMNS = `id, time, tenant_id, key_id, endpoint, provider, model, status, error_source, error_code, cache, stream,
  stream_completed, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens, cost_usd, saved_usd, latency_ms, ttft_ms, attempts, metadata,
  end_user, tags, mcp, route, tries, guardrails,
  (request_payload IS NOT NULL OR response_payload IS NOT NULL OR payload_archived = 1) AS has_payload, payload_truncated`;

/** `text` as a LIKE pattern that matches itself only: `\`, `%` and `_` escaped with `\` (pure). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The JSON path of a top-level metadata key; keys holding `"` or `\` are refused at the API (pure). */
export function metaPath(key: string): string {
  return `$."${key}"`;
}

/** The WHERE clause for a set of filters (pure). */
export function whereClause(
  f: LogFilters,
  cursor: Cursor | null,
): { sql: string; binds: (string | number)[] } {
  const parts: string[] = [];
  const binds: (string | number)[] = [];
  const add = (sql: string, ...values: (string | number)[]) => {
    parts.push(sql);
    binds.push(...values);
  };
  if (f.tenantId !== undefined) add('tenant_id = ?', f.tenantId);
  if (f.keyId !== undefined) add('key_id = ?', f.keyId);
  if (f.requestId !== undefined) add('id = ?', f.requestId);
  if (f.model !== undefined) add('model = ?', f.model);
  if (f.modelPrefix !== undefined) add("model LIKE ? ESCAPE '\\'", `${escapeLike(f.modelPrefix)}%`);
  if (f.errorCode !== undefined) add('error_code = ?', f.errorCode);
  // The value matches a string equal to it, or a number or boolean written as it (`n=5`, `beta=true`).
  for (const [key, value] of f.meta ?? [])
    add('metadata -> ? IN (json_quote(?), ?)', metaPath(key), value, value);
  if (f.route !== undefined) add('route = ?', f.route);
  if (f.endUser !== undefined) add('end_user = ?', f.endUser);
  // '/mcp' as a literal, not a parameter: SQLite uses the partial index request_logs_mcp (migration 0022)
  // only when the query's own text implies its WHERE.
  if (f.endpoint !== undefined && f.endpoint !== MCP_ENDPOINT) add('endpoint = ?', f.endpoint);
  if (f.endpoint === MCP_ENDPOINT || f.server !== undefined) add(`endpoint = '${MCP_ENDPOINT}'`);
  if (f.server !== undefined) add('provider = ?', `mcp:${f.server}`);
  if (f.status === 'error') add('(status >= 400 OR error_code IS NOT NULL)');
  else if (f.status === 'ok') add('(status < 400 AND error_code IS NULL)');
  else if (f.status && 'exact' in f.status) add('status = ?', f.status.exact);
  else if (f.status) add('status >= ? AND status < ?', f.status.class * 100, f.status.class * 100 + 100);
  if (f.cache === 'NONE') add('cache IS NULL');
  else if (f.cache !== undefined) add('cache = ?', f.cache);
  if (f.from !== undefined) add('time >= ?', f.from);
  if (f.to !== undefined) add('time < ?', f.to);
  if (cursor) add('(time < ? OR (time = ? AND id < ?))', cursor.createdAt, cursor.createdAt, cursor.id);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', binds };
}

export class LogReader {
  constructor(private readonly db: D1Database) {}

  async list(filters: LogFilters, page: { limit: number; cursor: Cursor | null }): Promise<Page<LogEntry>> {
    const where = whereClause(filters, page.cursor);
    const { results } = await this.db
      .prepare(`SELECT ${LIST_COLUMNS} FROM request_logs ${where.sql} ORDER BY time DESC, id DESC LIMIT ?`)
      .bind(...where.binds, page.limit + 1)
      .all();
    const rows: LogEntry[] = results.map((r) => StoredEntry.parse(r));
    const more = rows.length > page.limit;
    const items = more ? rows.slice(0, page.limit) : rows;
    const last = items.at(-1);
    return { items, nextCursor: more && last ? encodeCursor({ createdAt: last.time, id: last.id }) : null };
  }

  async get(id: string): Promise<LogDetail | null> {
    return (await this.getIndexed(id))?.detail ?? null;
  }

  /** The row with where its archived copy is: the R2 object's key, and whether the payload is only there. */
  async getIndexed(
    id: string,
  ): Promise<{ detail: LogDetail; archiveKey: string | null; payloadArchived: boolean } | null> {
    const row = await this.db
      .prepare(
        `SELECT ${LIST_COLUMNS}, request_payload, response_payload, archive_key, payload_archived
         FROM request_logs WHERE id = ?`,
      )
      .bind(id)
      .first<Record<string, unknown>>();
    if (!row) return null;
    return {
      detail: StoredDetail.parse(row),
      archiveKey: typeof row.archive_key === 'string' ? row.archive_key : null,
      payloadArchived: row.payload_archived === 1,
    };
  }
}
