/**
 * Opens one exchange per request and runs its one exit. Around every route:
 * the request id, overhead and cache headers. For /v1 (src/pipeline/router.ts
 * calls closeExchange): the CORS headers of an allowed origin (src/pipeline/cors.ts), the `x-ratelimit-*`
 * headers a response lacks (from the isolate's last quota, no Durable Object
 * call; src/limits/snapshots.ts), then, inside waitUntil, the exchange is
 * closed — after a stream, when it ends — and its one LogEvent is sent.
 * Nothing on the response path waits for either.
 */
import { uuid7 } from '../util/uuid7';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { CLIENT_CODECS } from '../codecs/index';
import { formatForRequest } from '../core/endpoints';
import { GatewayError, errorResponse } from '../core/errors';
import { Exchange } from '../core/exchange';
import type { Deps, DepsFor } from '../ports';
import { knownHeaders } from '../limits/snapshots';
import { parseTraceParent, type TraceParent } from '../logs/otel/traceparent';
import { emit } from '../logs/produce/sink';
import { guardrailsHeader } from '../guardrails/verdicts';
import type { GatewayCall } from './call';
import { grantCors } from './cors';
import { buildLogEvent } from './log';

/** What an exception that is not a GatewayError is rendered (and logged) as. */
export const INTERNAL_ERROR = (): GatewayError =>
  new GatewayError(500, 'The gateway hit an internal error.', { code: 'internal_error' });

export interface ExchangeScopeOptions {
  /** The adapters for an env (src/deps.ts's getDeps; tests pass their own, counting or failing, around it). */
  readonly deps: DepsFor;
}

/** Opens a request's exchange, on arrival. */
export function openExchange(path: string, ctx: { waitUntil(work: Promise<unknown>): void }): Exchange {
  const receivedAt = Date.now();
  return new Exchange({
    id: uuid7(receivedAt),
    path,
    receivedAt,
    startedAt: performance.now(),
    // A method, not an arrow property: the bundle names arrow properties at run time, on every request.
    waitUntil(work) {
      ctx.waitUntil(work);
    },
  });
}

/** Every answer's request id, overhead and cache headers. */
function stampExchange(x: Exchange, headers: Headers): void {
  headers.set('x-edgeway-request-id', x.id);
  headers.set('cf-aig-log-id', x.id);
  headers.set('x-edgeway-overhead-ms', Math.max(0, x.elapsed() - x.upstreamMs).toFixed(1));
  if (x.cache) {
    headers.set('x-edgeway-cache', x.cache);
    headers.set('cf-aig-cache-status', x.cache);
  }
}

/** An exception as the answer to a request on `path`, in that API's error shape (`headers`: the request's, where they choose it). */
export function renderFailure(err: unknown, path: string, headers: Headers | null = null): Response {
  const envelope = CLIENT_CODECS[formatForRequest(path, headers)].errorBody;
  if (err instanceof GatewayError) return errorResponse(err, envelope);
  console.error('unhandled error', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  return errorResponse(INTERNAL_ERROR(), envelope);
}

/** The exchange around /admin, /dashboard and /healthz: the adapters, and the exchange's headers (no log). */
export function exchangeScope(options: ExchangeScopeOptions) {
  const depsFor = options.deps;
  return createMiddleware<AppEnv>(async function exchangeScope(c, next) {
    // The context's ExecutionContext is read only if work is kept (a test's app.request may have none).
    const x = openExchange(c.req.path, { waitUntil: (work) => c.executionCtx.waitUntil(work) });
    c.set('deps', depsFor(c.env));
    await next();
    stampExchange(x, c.res.headers);
  });
}

/**
 * The exit of a /v1 exchange, however its handler ended (`error`: what it threw, undefined if it answered):
 * the exchange's headers, the CORS headers of an allowed origin, what the guardrails did, the quota headers
 * the response lacks, then the exchange is closed and logged inside waitUntil.
 */
export function closeExchange(call: GatewayCall, response: Response, error: unknown): Response {
  const { exchange: x, request } = call;
  // Every /v1 handler builds its own response, so its headers can be written.
  const headers = response.headers;
  stampExchange(x, headers);
  grantCors(x.principal, request.headers, headers);
  // What the guardrails did before the response left (a stream's later verdicts are in its log).
  const fired = guardrailsHeader(x.guardrails);
  if (fired) headers.set('x-edgeway-guardrails', fired);
  // Known quotas first (isolate memory): a key without limits has none, and then no header is looked at.
  const known = x.principal ? Object.entries(knownHeaders(x.principal, Date.now())) : [];
  if (
    known.length > 0 &&
    !headers.has('x-ratelimit-limit-requests') &&
    !headers.has('x-ratelimit-limit-tokens')
  ) {
    for (const [name, value] of known) headers.set(name, value);
  }
  const failure = error === undefined ? null : error instanceof GatewayError ? error : INTERNAL_ERROR();
  // The caller's trace, if it sent one: the request's exported span joins it.
  const trace = parseTraceParent(request.headers.get('traceparent'));
  call.ctx.waitUntil(closeAndLog(x, response.status, failure, call.deps, trace));
  return response;
}

async function closeAndLog(
  x: Exchange,
  status: number,
  error: GatewayError | null,
  deps: Deps,
  trace: TraceParent | null,
): Promise<void> {
  const ending = await x.close(status, error);
  const event = buildLogEvent(x, ending, await deps.prices.overrides());
  await emit(deps.logs, trace ? { ...event, ...trace } : event);
}
