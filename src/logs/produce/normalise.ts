/**
 * Makes any LogEvent sendable (pure): what the exit builds can hold values
 * the wire cannot carry. JSON turns NaN and ±Infinity into null, which the
 * consumer's schema then refuses, and a queue message holds at most 128 KB.
 * So, before an event is sent:
 *   - counts become non-negative safe integers, amounts non-negative finite
 *     numbers (anything else 0; a bad ttft becomes null);
 *   - a non-finite metadata number is kept as its text ("Infinity");
 *   - tags (like metadata, at most LOG_METADATA_MAX_KEYS) are text; the end user is cut like any text field;
 *   - an MCP call's server, namespace and name are cut like text fields, its sizes are counts;
 *   - text fields longer than LOG_FIELD_MAX are cut and end in TRUNCATED_MARK
 *     (a try's target as a model, its error as an error code);
 *   - at most LOG_MAX_TRIES tries are kept, the first ones; one verdict at most lists tool results, at
 *     most LOG_MAX_TOOL_RESULTS, their ids cut like text fields;
 *   - payloads are cut until the event fits MAX_EVENT_BYTES (payload.truncated),
 *     then, only for hostile sizes, tries between the first and last are dropped.
 * The result always passes the LogEvent schema and fits one queue message
 * with room for the batch envelope (src/core/log-batch.ts).
 */
import {
  LOG_FIELD_MAX,
  LOG_MAX_TRIES,
  LOG_MAX_GUARDRAILS,
  LOG_MAX_TOOL_RESULTS,
  LOG_METADATA_MAX_KEYS,
  type LogEvent,
  type LogGuardrail,
  type LogMcp,
  type LogTry,
  TRUNCATED_MARK,
} from '../../core/log-event';
import { jsonBytesBound } from './json-bound';

/** Below the Queue's 128 KB message limit, with room for the batch envelope. */
export const MAX_MESSAGE_BYTES = 120_000;
/** Largest single event: one always fits in a message next to its envelope. */
export const MAX_EVENT_BYTES = MAX_MESSAGE_BYTES - 2_000;
/** The largest time a JS Date can hold. */
const MAX_DATE_MS = 8.64e15;

const encoder = new TextEncoder();
/** Any unit past ASCII (surrogates included); without one, each UTF-16 unit is one UTF-8 byte. */
const NON_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 size of `value` as JSON; run once per logged event, so ASCII (the usual event) is not copied. */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  return NON_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

export function normaliseEvent(event: LogEvent, now: number): LogEvent {
  const e: LogEvent = {
    requestId: cut(event.requestId, LOG_FIELD_MAX.requestId),
    time: Number.isFinite(event.time) && Math.abs(event.time) <= MAX_DATE_MS ? event.time : now,
    tenantId: cutOrNull(event.tenantId, LOG_FIELD_MAX.tenantId),
    keyId: cutOrNull(event.keyId, LOG_FIELD_MAX.keyId),
    endpoint: cut(event.endpoint, LOG_FIELD_MAX.endpoint),
    provider: cutOrNull(event.provider, LOG_FIELD_MAX.provider),
    model: cutOrNull(event.model, LOG_FIELD_MAX.model),
    status: Number.isFinite(event.status) ? Math.trunc(event.status) : 0,
    errorSource: event.errorSource,
    errorCode: cutOrNull(event.errorCode, LOG_FIELD_MAX.errorCode),
    cache: event.cache,
    stream: event.stream,
    streamCompleted: event.streamCompleted,
    inputTokens: count(event.inputTokens),
    outputTokens: count(event.outputTokens),
    cachedTokens: count(event.cachedTokens),
    cacheWriteTokens: count(event.cacheWriteTokens),
    cacheWrite1hTokens: count(event.cacheWrite1hTokens),
    reasoningTokens: count(event.reasoningTokens),
    costUsd: amount(event.costUsd),
    latencyMs: amount(event.latencyMs),
    ttftMs:
      event.ttftMs === null || !(event.ttftMs >= 0) || !Number.isFinite(event.ttftMs) ? null : event.ttftMs,
    attempts: count(event.attempts),
    metadata: event.metadata === null ? null : metadata(event.metadata),
    endUser: cutOrNull(event.endUser ?? null, LOG_FIELD_MAX.endUser),
    tags: event.tags ? tags(event.tags) : null,
    mcp: event.mcp ? mcp(event.mcp) : null,
    savedUsd: amount(event.savedUsd),
    payload: event.payload,
    route: cutOrNull(event.route, LOG_FIELD_MAX.route),
    tries: event.tries.slice(0, LOG_MAX_TRIES).map(logTry),
    // Built by the pipeline from fixed names and counts (src/guardrails/verdicts.ts); only the tool call ids
    // a client chose can be long.
    guardrails: guardrails(event.guardrails ?? []),
    // Validated W3C ids (src/logs/otel/traceparent.ts), or absent.
    ...(event.traceId ? { traceId: event.traceId, parentSpanId: event.parentSpanId ?? null } : {}),
  };
  return fitMessage(e);
}

/**
 * At most LOG_MAX_GUARDRAILS verdicts. Tool results are listed by one verdict only (the injection
 * guardrail's on the request's tool results): the first that lists any keeps at most LOG_MAX_TOOL_RESULTS,
 * ids cut like text fields, and any other loses its list, so the lists stay within a fixed size.
 */
function guardrails(verdicts: readonly LogGuardrail[]): LogGuardrail[] {
  let listed = false;
  return verdicts.slice(0, LOG_MAX_GUARDRAILS).map((g) => {
    if (!g.results) return g;
    const { results, ...rest } = g;
    if (listed) return rest;
    listed = true;
    return {
      ...rest,
      results: results.slice(0, LOG_MAX_TOOL_RESULTS).map((r) => ({
        index: count(r.index),
        id: cutOrNull(r.id, LOG_FIELD_MAX.toolCallId),
        score: r.score,
      })),
    };
  });
}

function logTry(t: LogTry): LogTry {
  return {
    target: cut(t.target, LOG_FIELD_MAX.model),
    status: count(t.status),
    ttfbMs: amount(t.ttfbMs),
    error: cutOrNull(t.error, LOG_FIELD_MAX.errorCode),
  };
}

/** A count: a non-negative safe integer (NaN and negatives are 0, ∞ the largest safe integer). */
export function count(n: number): number {
  if (Number.isNaN(n) || n <= 0) return 0;
  return Math.min(Math.round(n), Number.MAX_SAFE_INTEGER);
}

/** An amount (USD, milliseconds): non-negative and finite, else 0. */
export function amount(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function metadata(m: Readonly<Record<string, unknown>>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(m).slice(0, LOG_METADATA_MAX_KEYS)) {
    out[cut(key, LOG_FIELD_MAX.metadataKey)] =
      typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
        ? value
        : cut(String(value), LOG_FIELD_MAX.metadataValue);
  }
  return out;
}

/** Tags as text, at most LOG_METADATA_MAX_KEYS of them, keys cut like metadata's, values to LOG_FIELD_MAX.tagValue. */
function tags(t: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(t).slice(0, LOG_METADATA_MAX_KEYS))
    out[cut(key, LOG_FIELD_MAX.metadataKey)] = cut(String(value), LOG_FIELD_MAX.tagValue);
  return out;
}

function mcp(m: LogMcp): LogMcp {
  return {
    method: m.method,
    server: cut(m.server, LOG_FIELD_MAX.mcpServer),
    namespace: cut(m.namespace, LOG_FIELD_MAX.mcpNamespace),
    name: cut(m.name, LOG_FIELD_MAX.mcpName),
    argsBytes: count(m.argsBytes),
    resultBytes: count(m.resultBytes),
    isError: m.isError === true,
  };
}

/** `text` cut to at most `max` UTF-16 units, ending in TRUNCATED_MARK when cut (never inside a pair). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return sliceWhole(text, max - TRUNCATED_MARK.length) + TRUNCATED_MARK;
}

function cutOrNull(text: string | null, max: number): string | null {
  return text === null ? null : cut(text, max);
}

function sliceWhole(text: string, end: number): string {
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

/**
 * Payloads are already cut to LOG_PAYLOAD_MAX_BYTES (≤ 64 KiB each), but JSON
 * escaping can grow them; if the event would not fit, the longer payload side
 * is halved until it does (and marked truncated), so the log row is never lost
 * to its payload. Without a payload, an event with one try always fits: the
 * other fields are bounded by LOG_FIELD_MAX (a test checks the worst case).
 * Twenty tries with hostile 512-character targets in 6-byte escapes could
 * still pass it, so then tries are dropped from just before the last one (the
 * one that answered, or the final failure) until it fits; the first and last
 * stay, and `attempts` still counts every call.
 */
export function fitMessage(event: LogEvent): LogEvent {
  let e = event;
  while (e.payload && tooLarge(e)) {
    const { request, response } = e.payload;
    const cutRequest = (request?.length ?? 0) >= (response?.length ?? 0);
    e = {
      ...e,
      payload: {
        request: cutRequest ? halve(request) : request,
        response: cutRequest ? response : halve(response),
        truncated: true,
      },
    };
    if (!e.payload?.request && !e.payload?.response) e = { ...e, payload: null };
  }
  while (e.tries.length > 1 && tooLarge(e)) {
    e = { ...e, tries: [...e.tries.slice(0, -2), ...e.tries.slice(-1)] };
  }
  return e;
}

/** Serialises only an event whose bound (src/logs/produce/json-bound.ts) cannot clear the cap. */
function tooLarge(e: LogEvent): boolean {
  return jsonBytesBound(e) > MAX_EVENT_BYTES && jsonBytes(e) > MAX_EVENT_BYTES;
}

function halve(text: string | null): string | null {
  if (!text) return null;
  return sliceWhole(text, Math.floor(text.length / 2));
}
