/**
 * Stage 7, log: the one LogEvent of a request, built from its exchange once
 * the exchange has closed (pure; prices passed in). The exit hands it to the
 * LogSink inside waitUntil, so nothing on the response path waits for it.
 */
import { costUsd, priceOf } from '../core/cost';
import { CLIENT_DISCONNECTED, type Ending, type Exchange } from '../core/exchange';
import { LOG_MAX_GUARDRAILS, LOG_MAX_TRIES, type LogEvent } from '../core/log-event';
import { payloadForLog } from '../core/payload';
import { GUARDRAIL_BLOCKED } from '../guardrails/blocked';
import type { Price } from '../core/pricing';

export function buildLogEvent(
  x: Exchange,
  ending: Ending,
  priceOverrides: Readonly<Record<string, Price>>,
): LogEvent {
  const { error, answer } = ending;
  const usage = answer?.usage ?? null;
  // Cache hits spend nothing; what the provider would have charged is recorded as saved.
  const hit = x.cache === 'HIT' || x.cache === 'SEMANTIC';
  // The model that answered is what is charged (a route's name has no price of its own).
  const priced = x.target ?? x.model;
  const cost = usage && priced ? costUsd(priceOf(priced, priceOverrides), usage) : 0;
  const lateError = answer?.lateError ?? null;
  return {
    requestId: x.id,
    time: x.receivedAt,
    tenantId: x.principal?.tenantId ?? null,
    keyId: x.principal?.id ?? null,
    endpoint: x.path,
    provider: x.provider,
    model: x.model,
    status: ending.status,
    errorSource: error ? error.source : lateError ? lateErrorSource(lateError) : null,
    errorCode: error ? (error.code ?? error.type) : lateError,
    cache: x.cache,
    stream: x.stream,
    streamCompleted: x.stream && answer?.delivery ? answer.delivery.completed : null,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedTokens: usage?.cachedTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    cacheWrite1hTokens: usage?.cacheWrite1hTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
    costUsd: hit ? 0 : cost,
    savedUsd: hit ? cost : 0,
    latencyMs: ending.latencyMs,
    ttftMs: x.ttftMs,
    attempts: x.attempts,
    metadata: x.metadata,
    endUser: x.endUser,
    tags: x.tags,
    // MCP calls build their own events (src/mcp); a model request is none.
    mcp: null,
    payload: x.payload ? scrubbed(payloadForLog(x.payload, answer?.text ?? null), x.scrubPayload) : null,
    route: x.route,
    tries: x.tries.slice(0, LOG_MAX_TRIES),
    guardrails: x.guardrails.slice(0, LOG_MAX_GUARDRAILS),
  };
}

/** Logged payloads never hold what a guardrail detected, even when its action only logs or flags it. */
function scrubbed(
  payload: NonNullable<LogEvent['payload']>,
  scrub: ((text: string) => string) | null,
): NonNullable<LogEvent['payload']> {
  if (!scrub) return payload;
  return {
    request: payload.request === null ? null : scrub(payload.request),
    response: payload.response === null ? null : scrub(payload.response),
    truncated: payload.truncated,
  };
}

/** Who ended an answer after its status: the client that went away, a guardrail, else the provider. */
function lateErrorSource(code: string): 'client' | 'provider' | 'gateway' {
  if (code === GUARDRAIL_BLOCKED) return 'gateway';
  return code === CLIENT_DISCONNECTED ? 'client' : 'provider';
}
