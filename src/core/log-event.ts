/**
 * The LogEvent, one per /v1 request and one per upstream-reaching /mcp call: its schema (the queue message, validated
 * again by the consumer), the size of each text field, and the LogSink port
 * the pipeline hands it to. src/logs/produce/normalise.ts makes any event fit this
 * schema before it is sent.
 */
import * as z from 'zod';
import { GUARDRAILS } from './guardrail-policy';

/** Longest value kept per text field, in UTF-16 units; longer values are cut and end in TRUNCATED_MARK. */
export const LOG_FIELD_MAX = {
  requestId: 200,
  tenantId: 200,
  keyId: 200,
  endpoint: 512,
  provider: 200,
  model: 512,
  errorCode: 256,
  metadataKey: 128,
  metadataValue: 1024,
  endUser: 256,
  /** A tag's value (as a tag rule's `value`); cut, it still groups, under its cut text. */
  tagValue: 256,
  route: 64,
  toolCallId: 64,
  /** An MCP server's id (`mcp.server`). */
  mcpServer: 64,
  /** An MCP server's namespace (src/core/mcp-server.ts McpNamespace: at most 32). */
  mcpNamespace: 32,
  /** The upstream tool or prompt name, or the resource URI, of an MCP call (`mcp.name`). */
  mcpName: 512,
} as const;

/** The endpoint of MCP calls' events; their rows are rolled up apart from model requests (src/logs/rollups.ts). */
export const MCP_ENDPOINT = '/mcp';

/** The MCP methods that reach an upstream server, and so are logged (one event each). */
export const MCP_LOGGED_METHODS = ['tools/call', 'resources/read', 'prompts/get'] as const;
export type McpLoggedMethod = (typeof MCP_LOGGED_METHODS)[number];

/**
 * What an /mcp call was, beside the event's generic fields (endpoint `/mcp`, provider `mcp:<namespace>`,
 * model `<namespace>__<tool>`, `<namespace>__<prompt>` or `<namespace>+<uri>`): sizes, never the texts.
 */
const logMcp = () =>
  z.object({
    method: z.enum(MCP_LOGGED_METHODS),
    /** The MCP server's id (mcp_servers.id). */
    server: z.string().max(LOG_FIELD_MAX.mcpServer),
    namespace: z.string().max(LOG_FIELD_MAX.mcpNamespace),
    /** The upstream tool or prompt name, or the resource URI, as the server knows it. */
    name: z.string().max(LOG_FIELD_MAX.mcpName),
    /** The UTF-8 size of the call's arguments as JSON (0 for none). */
    argsBytes: z.number().int().nonnegative(),
    /** The UTF-8 size of the result as JSON (0 when none came back). */
    resultBytes: z.number().int().nonnegative(),
    /** The tool result's `isError`: the call reached the tool and the tool reported a failure. */
    isError: z.boolean(),
  });
export type LogMcp = z.infer<ReturnType<typeof logMcp>>;

/** Most upstream calls recorded per request (a route's max_calls is at most 20). */
export const LOG_MAX_TRIES = 20;

/** One upstream call of a request: which target, how it ended, how long until its first byte. */
const logTry = () =>
  z.object({
    /** The `provider/model` called. */
    target: z.string().max(LOG_FIELD_MAX.model),
    /** The provider's HTTP status, or 0 when none arrived (timeout, reset, unreachable). */
    status: z.number().int().nonnegative(),
    /** Time to the first byte (or to the failure), ms. */
    ttfbMs: z.number().nonnegative(),
    /** The gateway's error code for a failed call (`upstream_timeout`, `rate_limit_error` …); null when it answered. */
    error: z.string().max(LOG_FIELD_MAX.errorCode).nullable(),
  });
export type LogTry = z.infer<ReturnType<typeof logTry>>;

/** Most tool results listed in one verdict (its count says how many fired). */
export const LOG_MAX_TOOL_RESULTS = 32;

/** One tool result a guardrail fired on: where it was and how it scored, never its text. */
const logToolResult = () =>
  z.object({
    /** Its position among the request's tool results, 0-based. */
    index: z.number().int().nonnegative(),
    /** The tool call id the client gave it (chat `tool_call_id`, Anthropic `tool_use_id`, Responses `call_id`). */
    id: z.string().max(LOG_FIELD_MAX.toolCallId).nullable(),
    score: z.number().min(0).max(1),
  });
export type LogToolResult = z.infer<ReturnType<typeof logToolResult>>;

/**
 * What one guardrail found in one direction of a request, and what it did: counts and kinds, never values.
 * Direction `tool` is the injection guardrail's judgement of the request's tool results.
 */
const logGuardrail = () =>
  z.object({
    guardrail: z.enum(GUARDRAILS),
    direction: z.enum(['request', 'response', 'tool']),
    /** The action taken (`off` never fires). */
    action: z.enum(['log', 'flag', 'redact', 'quarantine', 'block']),
    /** Values found (spans), tool results fired on, or 1 for a guardrail that judges a whole text. */
    count: z.number().int().nonnegative(),
    /** Found values per kind (`email`, `card`, `deny` …), or the classifier's hazard codes; never the values. */
    kinds: z.record(z.string().max(32), z.number().int().nonnegative()).default({}),
    /** The injection score (for tool results, the highest), or null for guardrails without one. */
    score: z.number().min(0).max(1).nullable().default(null),
    /** Why a guardrail could not judge (`unavailable`): it then let the request through. */
    error: z.string().max(64).nullable().default(null),
    /** Direction `tool`: the results that fired, by index (the first LOG_MAX_TOOL_RESULTS). */
    results: z.array(logToolResult()).max(LOG_MAX_TOOL_RESULTS).optional(),
  });
export type LogGuardrail = z.infer<ReturnType<typeof logGuardrail>>;

/** At most one verdict per guardrail and direction. */
export const LOG_MAX_GUARDRAILS = 10;

/** What a cut text field ends with, so a reader knows it saw a prefix. */
export const TRUNCATED_MARK = '…[truncated]';

/** The boundary accepts 5 metadata keys; the log keeps at most this many (bounds an event without payload). */
export const LOG_METADATA_MAX_KEYS = 8;

/** W3C Trace Context ids: a trace id is 16 bytes, a span id 8, as lowercase hex, never all zeros. */
export const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
export const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

const text = (max: number) => z.string().max(max);

/** The queue message's schema. */
function logEvent() {
  /** zod 4's number() refuses NaN and ±Infinity, which JSON would turn into null. */
  const finite = z.number();
  return z.object({
    requestId: text(LOG_FIELD_MAX.requestId),
    time: finite,
    tenantId: text(LOG_FIELD_MAX.tenantId).nullable(),
    keyId: text(LOG_FIELD_MAX.keyId).nullable(),
    endpoint: text(LOG_FIELD_MAX.endpoint),
    provider: text(LOG_FIELD_MAX.provider).nullable(),
    model: text(LOG_FIELD_MAX.model).nullable(),
    status: z.number().int(),
    errorSource: z.enum(['gateway', 'provider', 'client']).nullable(),
    errorCode: text(LOG_FIELD_MAX.errorCode).nullable(),
    cache: z.enum(['HIT', 'SEMANTIC', 'MISS', 'BYPASS']).nullable(),
    stream: z.boolean(),
    streamCompleted: z.boolean().nullable(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cachedTokens: z.number().int().nonnegative(),
    costUsd: finite.nonnegative(),
    latencyMs: finite.nonnegative(),
    ttftMs: finite.nonnegative().nullable(),
    attempts: z.number().int().nonnegative(),
    metadata: z
      .record(
        text(LOG_FIELD_MAX.metadataKey),
        z.union([text(LOG_FIELD_MAX.metadataValue), finite, z.boolean()]),
      )
      .nullable(),
    // Fields added after the first release default, so messages already queued still parse.
    /** What a gateway cache hit would have cost (costUsd is 0 for hits). */
    savedUsd: finite.nonnegative().default(0),
    /** Prompt and completion, only for keys that opt in; each cut to LOG_PAYLOAD_MAX_BYTES. */
    payload: z
      .object({ request: z.string().nullable(), response: z.string().nullable(), truncated: z.boolean() })
      .nullable()
      .default(null),
    /** The named route the client called (`model` then holds its name), or null for a `provider/model`. */
    route: text(LOG_FIELD_MAX.route).nullable().default(null),
    /** Every upstream call made, in order (retries and fallbacks); empty for answers that needed none. */
    tries: z.array(logTry()).max(LOG_MAX_TRIES).default([]),
    /** What each guardrail found and did; empty when none fired. */
    guardrails: z.array(logGuardrail()).max(LOG_MAX_GUARDRAILS).default([]),
    /** Prompt-cache writes, any TTL (part of inputTokens, like cachedTokens). */
    cacheWriteTokens: z.number().int().nonnegative().default(0),
    /** The part of cacheWriteTokens written with a 1-hour TTL. */
    cacheWrite1hTokens: z.number().int().nonnegative().default(0),
    /** Reasoning (thinking) tokens, part of outputTokens. */
    reasoningTokens: z.number().int().nonnegative().default(0),
    /** The tenant's end user the request was for (header `x-edgeway-user` or the body's user field); null when none. */
    endUser: text(LOG_FIELD_MAX.endUser).nullable().default(null),
    /**
     * The cf-aig-metadata values of the tenant's tag keys, as text: what usage is rolled up by
     * (usage_tags_daily); null when the request carried none of them.
     */
    tags: z.record(text(LOG_FIELD_MAX.metadataKey), text(LOG_FIELD_MAX.tagValue)).nullable().default(null),
    /** What an /mcp call was (method, server, upstream name, sizes, isError); null for every other request. */
    mcp: logMcp().nullable().default(null),
    /** The W3C trace the request came in with (`traceparent`), 32 lowercase hex; absent when none. */
    traceId: z.string().regex(TRACE_ID).nullable().optional(),
    /** The caller's span in that trace, 16 lowercase hex; the request's span is its child. */
    parentSpanId: z.string().regex(SPAN_ID).nullable().optional(),
  });
}
export type LogEvent = z.infer<ReturnType<typeof logEvent>>;

let built: ReturnType<typeof logEvent> | null = null;
function schema() {
  built ??= logEvent();
  return built;
}

/**
 * The LogEvent schema, built on its first parse (the consumer's, or a test's), not at module load: the
 * request that emits an event never parses it, and building zod schemas is start-up CPU every new
 * isolate would pay (DESIGN.md §5, cold start).
 */
export const LogEvent = {
  parse: (value: unknown): LogEvent => schema().parse(value),
  safeParse: (value: unknown) => schema().safeParse(value),
};

export interface LogSink {
  send(event: LogEvent): Promise<void>;
}
