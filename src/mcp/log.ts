/**
 * The LogEvent of one MCP call that reached (or was refused before) an upstream server: tools/call,
 * resources/read, prompts/get (pure). It reads like a /v1 request's: endpoint `/mcp`, provider
 * `mcp:<namespace>`, model the gateway's name of the tool, prompt or resource, no tokens and no cost;
 * `mcp` holds the method, server, upstream name and sizes. Arguments and results are kept only for keys
 * that log payloads, and never with a value a guardrail can detect (src/guardrails/log-scrub.ts).
 */
import type { LogEvent, LogGuardrail } from '../core/log-event';
import type { Principal } from '../core/principal';
import { truncateUtf8 } from '../core/payload';
import { logScrubber } from '../guardrails/log-scrub';
import { policyOf } from '../guardrails/scanners';
import type { McpFailure } from './failure';

export type McpMethod = 'tools/call' | 'resources/read' | 'prompts/get';

export interface McpCallRecord {
  readonly requestId: string;
  readonly time: number;
  readonly principal: Principal;
  readonly endUser: string | null;
  readonly method: McpMethod;
  readonly serverId: string | null;
  readonly namespace: string;
  /** The upstream's own name of the tool or prompt, or the resource's URI. */
  readonly name: string;
  /** The name the client used (`ns__tool`, `ns+uri`). */
  readonly gatewayName: string;
  readonly args: unknown;
  readonly result: unknown;
  readonly isError: boolean;
  readonly failure: McpFailure | null;
  readonly latencyMs: number;
  /** Upstream calls made (0 when refused before one). */
  readonly attempts: number;
  readonly guardrails: readonly LogGuardrail[];
  readonly payloadMaxBytes: number;
}

const encoder = new TextEncoder();
/** A value's JSON, once: its size is logged, and it is the payload when the key logs payloads. */
const jsonOf = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const bytes = (json: string | null) => (json === null ? 0 : encoder.encode(json).length);

export function mcpLogEvent(r: McpCallRecord): LogEvent {
  const failure = r.failure;
  const args = jsonOf(r.args);
  const result = jsonOf(r.result);
  return {
    requestId: r.requestId,
    time: r.time,
    tenantId: r.principal.tenantId,
    keyId: r.principal.id,
    endpoint: '/mcp',
    provider: `mcp:${r.namespace}`,
    model: r.gatewayName,
    status: failure ? failure.status : 200,
    errorSource: failure ? sourceOf(failure.reason) : null,
    errorCode: failure ? failure.reason : null,
    cache: null,
    stream: false,
    streamCompleted: null,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    savedUsd: 0,
    latencyMs: r.latencyMs,
    ttftMs: null,
    attempts: r.attempts,
    metadata: null,
    endUser: r.endUser,
    tags: null,
    payload: r.principal.logPayload ? payloadOf(r, args, result) : null,
    route: null,
    tries: [],
    guardrails: [...r.guardrails],
    mcp: {
      method: r.method,
      server: r.serverId ?? '',
      namespace: r.namespace,
      name: r.name,
      argsBytes: bytes(args),
      resultBytes: bytes(result),
      isError: r.isError,
    },
  };
}

function payloadOf(
  r: McpCallRecord,
  args: string | null,
  result: string | null,
): NonNullable<LogEvent['payload']> {
  const scrub = logScrubber(policyOf(r.principal)) ?? ((t: string) => t);
  const request = truncateUtf8(scrub(args ?? 'null'), r.payloadMaxBytes);
  const response = result === null ? null : truncateUtf8(scrub(result), r.payloadMaxBytes);
  return {
    request: request.text,
    response: response?.text ?? null,
    truncated: request.truncated || (response?.truncated ?? false),
  };
}

/** Who a failed call's error belongs to. */
function sourceOf(reason: string): 'gateway' | 'provider' | 'client' {
  if (reason === 'client_disconnected') return 'client';
  return reason.startsWith('mcp_upstream') ? 'provider' : 'gateway';
}
