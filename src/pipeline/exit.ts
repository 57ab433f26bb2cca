/**
 * Opens one exchange per request and runs its one exit. Around every route:
 * the request id, overhead and cache headers. For /v1: the CORS headers of an
 * allowed origin (src/pipeline/cors.ts), the `x-ratelimit-*`
 * headers a response lacks (from the isolate's last quota, no Durable Object
 * call; src/limits/snapshots.ts), then, inside waitUntil, the exchange is
 * closed — after a stream, when it ends — and its one LogEvent is sent.
 * Nothing on the response path waits for either.
 */
import { uuid7 } from '../util/uuid7';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { GatewayError } from '../core/errors';
import { Exchange } from '../core/exchange';
import { getDeps, type Deps } from '../deps';
import type { Bindings } from '../env';
import { knownHeaders } from '../limits/snapshots';
import { parseTraceParent, type TraceParent } from '../logs/otel-traceparent';
import { emit } from '../logs/sink';
import { guardrailsHeader } from '../guardrails/verdicts';
import { grantCors } from './cors';
import { buildLogEvent } from './log';

/** What an exception that is not a GatewayError is rendered (and logged) as. */
export const INTERNAL_ERROR = (): GatewayError =>
  new GatewayError(500, 'The gateway hit an internal error.', { code: 'internal_error' });

export interface ExchangeScopeOptions {
  /** The adapters for an env; tests pass their own (counting, failing) around the real ones. */
  readonly deps?: (env: Bindings) => Deps;
}

export function exchangeScope(options: ExchangeScopeOptions = {}) {
  const depsFor = options.deps ?? getDeps;
  return createMiddleware<AppEnv>(async function exchangeScope(c, next) {
    const deps = depsFor(c.env);
    const receivedAt = Date.now();
    const x = new Exchange({
      id: uuid7(receivedAt),
      path: c.req.path,
      receivedAt,
      startedAt: performance.now(),
      // A method, not an arrow property: the bundle names arrow properties at run time, on every request.
      waitUntil(work) {
        c.executionCtx.waitUntil(work);
      },
    });
    c.set('deps', deps);
    c.set('exchange', x);
    await next();

    const headers = c.res.headers;
    headers.set('x-edgeway-request-id', x.id);
    headers.set('cf-aig-log-id', x.id);
    headers.set('x-edgeway-overhead-ms', Math.max(0, x.elapsed() - x.upstreamMs).toFixed(1));
    if (x.cache) {
      headers.set('x-edgeway-cache', x.cache);
      headers.set('cf-aig-cache-status', x.cache);
    }
    if (!x.path.startsWith('/v1/')) return;
    grantCors(x.principal, c.req.raw.headers, headers);
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
    const error = c.error === undefined ? null : c.error instanceof GatewayError ? c.error : INTERNAL_ERROR();
    // The caller's trace, if it sent one: the request's exported span joins it.
    const trace = parseTraceParent(c.req.raw.headers.get('traceparent'));
    c.executionCtx.waitUntil(closeAndLog(x, c.res.status, error, deps, trace));
  });
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
