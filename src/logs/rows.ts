/**
 * LogEvent → request_logs row (pure). The column list is written once here and
 * drives both the insert (src/logs/store.ts) and the admin read-back.
 */
import type { LogEvent, LogMcp, LogTry } from '../core/log-event';
import type { LogMcpEntry, LogTryEntry } from './read/logs';

/** Every column the consumer writes, in table order; ingest_batch and ingested_at are bound separately. */
export const LOG_COLUMNS = [
  'id',
  'time',
  'day',
  'tenant_id',
  'key_id',
  'endpoint',
  'provider',
  'model',
  'status',
  'error_source',
  'error_code',
  'cache',
  'stream',
  'stream_completed',
  'input_tokens',
  'output_tokens',
  'cached_tokens',
  'cost_usd',
  'saved_usd',
  'latency_ms',
  'ttft_ms',
  'attempts',
  'metadata',
  'request_payload',
  'response_payload',
  'payload_truncated',
  'route',
  'tries',
  'guardrails',
  'archive_key',
  'payload_archived',
  'cache_write_tokens',
  'cache_write_1h_tokens',
  'reasoning_tokens',
  'end_user',
  'tags',
  'mcp',
] as const;

export type LogColumn = (typeof LOG_COLUMNS)[number];
export type LogRow = Record<LogColumn, string | number | null>;

/** UTC calendar day, 'YYYY-MM-DD'. */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

const bit = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);

export function toRow(e: LogEvent): LogRow {
  return {
    id: e.requestId,
    time: Math.trunc(e.time),
    day: utcDay(e.time),
    tenant_id: e.tenantId,
    key_id: e.keyId,
    endpoint: e.endpoint,
    provider: e.provider,
    model: e.model,
    status: e.status,
    error_source: e.errorSource,
    error_code: e.errorCode,
    cache: e.cache,
    stream: bit(e.stream),
    stream_completed: bit(e.streamCompleted),
    input_tokens: e.inputTokens,
    output_tokens: e.outputTokens,
    cached_tokens: e.cachedTokens,
    cost_usd: e.costUsd,
    saved_usd: e.savedUsd,
    latency_ms: e.latencyMs,
    ttft_ms: e.ttftMs,
    attempts: e.attempts,
    metadata: e.metadata === null ? null : JSON.stringify(e.metadata),
    request_payload: e.payload?.request ?? null,
    response_payload: e.payload?.response ?? null,
    payload_truncated: bit(e.payload?.truncated ?? false),
    route: e.route,
    tries: triesColumn(e.tries),
    guardrails: e.guardrails.length === 0 ? null : JSON.stringify(e.guardrails),
    // Set where the row's producer batch is known (consume/messages.ts) and kept only when an archive is bound (store.ts).
    archive_key: null,
    payload_archived: 0,
    cache_write_tokens: e.cacheWriteTokens,
    cache_write_1h_tokens: e.cacheWrite1hTokens,
    reasoning_tokens: e.reasoningTokens,
    end_user: e.endUser,
    tags: e.tags === null || Object.keys(e.tags).length === 0 ? null : JSON.stringify(e.tags),
    mcp: e.mcp ? mcpColumn(e.mcp) : null,
  };
}

/** An MCP call as the admin API shows it (snake_case), as JSON: what the tool-call rollup reads (rollups.ts). */
function mcpColumn(m: LogMcp): string {
  const entry: LogMcpEntry = {
    method: m.method,
    server: m.server,
    namespace: m.namespace,
    name: m.name,
    args_bytes: m.argsBytes,
    result_bytes: m.resultBytes,
    is_error: m.isError,
  };
  return JSON.stringify(entry);
}

/** The tries as the admin API shows them (snake_case), as JSON; NULL when no upstream was called. */
function triesColumn(tries: readonly LogTry[]): string | null {
  if (tries.length === 0) return null;
  const entries: LogTryEntry[] = tries.map((t) => ({
    target: t.target,
    status: t.status,
    ttfb_ms: t.ttfbMs,
    error: t.error,
  }));
  return JSON.stringify(entries);
}
