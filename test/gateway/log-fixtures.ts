/** Log pipeline test fixtures: LogEvents, queue batches through the worker's own handlers, D1 reads. */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import type { Bindings } from '../../src/env';
import worker from '../../src/index';
import type { LogEvent } from '../../src/core/log-event';

/** The test env as the Worker's handlers type it (one object, so per-env caches behave as in production). */
export const bindings: Bindings = { ...env };

/** The same env without the R2 archive: D1 then keeps whole rows, as before the archive existed. */
export const bindingsWithoutArchive = { ...env, LOG_ARCHIVE: undefined } as unknown as Bindings;

export const LOG_QUEUE = 'edgeway-logs';
export const DLQ = 'edgeway-logs-dlq';

let seq = 0;

export function logEvent(overrides: Partial<LogEvent> = {}): LogEvent {
  seq += 1;
  return {
    requestId: `req-${seq}-${crypto.randomUUID()}`,
    time: Date.UTC(2026, 4, 1, 12, 0, 0) + seq,
    tenantId: 'ten_a',
    keyId: 'key_a',
    endpoint: '/v1/chat/completions',
    provider: 'mock',
    model: 'mock/echo',
    status: 200,
    errorSource: null,
    errorCode: null,
    cache: 'MISS',
    stream: false,
    streamCompleted: null,
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
    costUsd: 0.001,
    latencyMs: 12.5,
    ttftMs: null,
    attempts: 1,
    metadata: null,
    endUser: null,
    tags: null,
    mcp: null,
    savedUsd: 0,
    payload: null,
    route: null,
    tries: [],
    guardrails: [],
    ...overrides,
  };
}

export interface Delivery {
  id?: string;
  body: unknown;
  attempts?: number;
}

/** Delivers one batch to the worker's queue handler, as the queue would; returns the ack/retry outcome. */
export async function deliver(queue: string, messages: (Delivery | LogEvent)[], over: Bindings = bindings) {
  const batch = createMessageBatch(
    queue,
    messages.map((m, i) => {
      const d: Delivery = 'requestId' in m ? { body: m } : m;
      return {
        id: d.id ?? `msg-${i}-${crypto.randomUUID()}`,
        timestamp: new Date(),
        attempts: d.attempts ?? 1,
        body: d.body,
      };
    }),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, over);
  return getQueueResult(batch, ctx);
}

export interface UsageRow {
  tenant_id: string;
  day: string;
  key_id: string;
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  cache_hits: number;
  saved_tokens: number;
  saved_usd: number;
  errors: number;
}

export async function usageRows(): Promise<UsageRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT * FROM usage_daily ORDER BY tenant_id, day, key_id, model',
  ).all<UsageRow>();
  return results;
}

export async function logCount(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM request_logs').first<{ n: number }>();
  return row?.n ?? 0;
}

/** Every object in the log archive, keys sorted. */
export async function archiveKeys(prefix = 'logs/'): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.LOG_ARCHIVE.list({ prefix, cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

/** The decompressed NDJSON of every archived object under `prefix`, joined. */
export async function archiveText(prefix = 'logs/'): Promise<string> {
  const texts: string[] = [];
  for (const key of await archiveKeys(prefix)) {
    const object = await env.LOG_ARCHIVE.get(key);
    if (!object) continue;
    texts.push(await new Response(object.body.pipeThrough(new DecompressionStream('gzip'))).text());
  }
  return texts.join('');
}

export async function clearLogs(): Promise<void> {
  const keys = await archiveKeys();
  for (let i = 0; i < keys.length; i += 1000) await env.LOG_ARCHIVE.delete(keys.slice(i, i + 1000));
  await env.DB.batch(
    [
      'request_logs',
      'usage_daily',
      'usage_end_users_daily',
      'usage_tags_daily',
      'usage_mcp_daily',
      'usage_hourly',
      'usage_minutely',
      'usage_totals',
      'lookup_failures_daily',
      'guardrail_daily',
      'dead_letters',
      'log_ingest',
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
}

export interface LogRowRead {
  id: string;
  tenant_id: string | null;
  key_id: string | null;
  model: string | null;
  provider: string | null;
  endpoint: string;
  status: number;
  error_source: string | null;
  error_code: string | null;
  cache: string | null;
  stream: number;
  stream_completed: number | null;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  saved_usd: number;
  attempts: number;
  metadata: string | null;
  request_payload: string | null;
  response_payload: string | null;
  payload_truncated: number;
  payload_archived: number;
  archive_key: string | null;
  route: string | null;
  tries: string | null;
  end_user: string | null;
  tags: string | null;
  mcp: string | null;
}

/**
 * Waits (bounded) for the queue to deliver the logs of these request ids to the
 * consumer; returns the rows in the order of `ids`. Fails with what is missing.
 */
export async function waitForLogs(ids: string[], timeoutMs = 15_000): Promise<LogRowRead[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { results } = await env.DB.prepare(
      'SELECT * FROM request_logs WHERE id IN (SELECT value FROM json_each(?))',
    )
      .bind(JSON.stringify(ids))
      .all<LogRowRead>();
    if (results.length >= new Set(ids).size) {
      const byId = new Map(results.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)!);
    }
    if (Date.now() > deadline) {
      const found = new Set(results.map((r) => r.id));
      throw new Error(
        `logs not delivered within ${timeoutMs} ms: ${ids.filter((id) => !found.has(id)).join(', ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** USD at mock/echo's price in src/providers/pricing.json: $1 per 1M input tokens, $2 per 1M output. */
export function echoCost(input: number, output: number): number {
  return (input * 1 + output * 2) / 1_000_000;
}
