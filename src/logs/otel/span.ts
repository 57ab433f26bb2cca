/**
 * One LogEvent as one OTLP span (pure), following the OpenTelemetry GenAI
 * semantic conventions (`gen_ai.*`, `error.type`, `http.response.status_code`)
 * plus the gateway's own `edgeway.*` attributes. The span covers the request
 * from arrival to the last byte of its answer; its kind is SERVER, since it is
 * the gateway's handling of its caller's request (a caller's `traceparent`
 * makes it a child of the caller's span). Its status is ERROR for a 5xx and
 * for a provider failure (a stream cut after its status line included); a
 * request the gateway refused (4xx) or a client that went away is not an
 * error of the span, but still has its `error.type`.
 *
 * What it never holds: keys or any header (the event has none), and payload
 * text unless the key logs payloads, and then the scrubbed text the log row
 * holds.
 *
 * An MCP call (endpoint /mcp) carries the MCP conventions' attributes instead of the model ones
 * (src/logs/otel/mcp.ts), and its span is also an error when the tool reported one (`tool_error`).
 */
import { type LogEvent, MCP_ENDPOINT } from '../../core/log-event';
import { doubleValue, type KeyValue, keyValues, type Plain } from './attributes';
import { genAiModel } from './gen-ai';
import { spanIds } from './ids';
import { mcpSpanParts } from './mcp';

export const SPAN_KIND_SERVER = 2;
export const STATUS_UNSET = 0;
export const STATUS_ERROR = 2;

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly KeyValue[];
  readonly status: { readonly code: number; readonly message?: string };
}

export function toSpan(event: LogEvent): OtlpSpan {
  const ids = spanIds(event);
  const start = BigInt(Math.round(event.time * 1000)) * 1000n;
  const end = start + BigInt(Math.round(event.latencyMs * 1e6));
  const mcp = event.endpoint === MCP_ENDPOINT ? mcpSpanParts(event) : null;
  const model = mcp ? null : modelParts(event);
  const errorType = mcp ? mcp.errorType : event.errorCode;
  const failed =
    event.status >= 500 ||
    (event.errorSource === 'provider' && event.errorCode !== null) ||
    (mcp !== null && errorType !== null && event.errorCode === null);
  const attributes = [
    ...keyValues({
      ...(mcp ? mcp.attributes : model?.attributes),
      'error.type': errorType,
      'http.response.status_code': event.status,
      'url.path': event.endpoint,
      'edgeway.request_id': event.requestId,
      'edgeway.tenant_id': event.tenantId,
      'edgeway.key_id': event.keyId,
      'edgeway.route': event.route,
      'edgeway.end_user': event.endUser,
      'edgeway.cache': event.cache,
      'edgeway.attempts': event.attempts,
      'edgeway.stream': event.stream,
      'edgeway.stream_completed': event.streamCompleted,
      'edgeway.ttft_ms': event.ttftMs,
      'edgeway.error_source': event.errorSource,
      'edgeway.tries': event.tries.length > 0 ? event.tries.map(tryText) : null,
      'edgeway.guardrails': event.guardrails.length > 0 ? event.guardrails.map(verdictText) : null,
      ...metadata(event.metadata),
      ...tags(event.tags),
      ...payload(event.payload),
    }),
    doubleValue('edgeway.cost_usd', event.costUsd),
    doubleValue('edgeway.saved_usd', event.savedUsd),
    doubleValue('edgeway.latency_ms', event.latencyMs),
  ];
  return {
    ...ids,
    name: mcp?.name ?? model?.name ?? '',
    kind: SPAN_KIND_SERVER,
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: end.toString(),
    attributes,
    status: failed ? { code: STATUS_ERROR, message: errorType ?? `HTTP ${event.status}` } : { code: 0 },
  };
}

/** The GenAI model attributes of a model request, and its span name (`{operation} {model}`). */
function modelParts(event: LogEvent): { name: string; attributes: Record<string, Plain> } {
  const m = genAiModel(event);
  return {
    name: m.requestModel ? `${m.operation} ${m.requestModel}` : m.operation,
    attributes: {
      'gen_ai.operation.name': m.operation,
      'gen_ai.provider.name': m.provider,
      // The older name of the same attribute, still read by many trace stores.
      'gen_ai.system': m.provider,
      'gen_ai.request.model': m.requestModel,
      'gen_ai.response.model': m.responseModel,
      'gen_ai.usage.input_tokens': event.inputTokens,
      'gen_ai.usage.output_tokens': event.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': event.cachedTokens > 0 ? event.cachedTokens : null,
      'gen_ai.usage.cache_creation.input_tokens': event.cacheWriteTokens > 0 ? event.cacheWriteTokens : null,
      'gen_ai.usage.reasoning.output_tokens': event.reasoningTokens > 0 ? event.reasoningTokens : null,
    },
  };
}

/** `openai/gpt-4o 503 120ms upstream_timeout`: one upstream call. */
function tryText(t: LogEvent['tries'][number]): string {
  return `${t.target} ${t.status} ${Math.round(t.ttfbMs)}ms${t.error ? ` ${t.error}` : ''}`;
}

/**
 * `pii request redact 2 email=1,phone=1`: names and counts, never the values found; tool results by the
 * client's call id, position and score (`results=call_a#2:0.9731`), never their text.
 */
function verdictText(g: LogEvent['guardrails'][number]): string {
  const kinds = Object.entries(g.kinds)
    .map(([k, n]) => `${k}=${n}`)
    .join(',');
  const score = g.score === null ? '' : ` score=${g.score}`;
  const error = g.error === null ? '' : ` error=${g.error}`;
  const results = g.results?.length
    ? ` results=${g.results.map((r) => `${r.id ?? ''}#${r.index}:${r.score}`).join(',')}`
    : '';
  return `${g.guardrail} ${g.direction} ${g.action} ${g.count}${kinds ? ` ${kinds}` : ''}${score}${error}${results}`;
}

function metadata(m: LogEvent['metadata']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(m ?? {})) out[`edgeway.metadata.${key}`] = value;
  return out;
}

/** `edgeway.tag.team = search`: the values usage is rolled up by, as the metadata's are sent. */
function tags(t: LogEvent['tags']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(t ?? {})) out[`edgeway.tag.${key}`] = value;
  return out;
}

function payload(p: LogEvent['payload']): Record<string, string | boolean | null> {
  if (!p) return {};
  return {
    'edgeway.payload.request': p.request,
    'edgeway.payload.response': p.response,
    'edgeway.payload.truncated': p.truncated,
  };
}
