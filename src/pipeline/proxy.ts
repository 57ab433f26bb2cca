/**
 * The request pipeline, in order, written once for every proxied endpoint:
 * (auth ran as middleware) → policy → limits → cache → route → stream → (log in app.ts).
 */
import type { Context } from 'hono';
import { ENDPOINTS, type Endpoint } from '../api/endpoints';
import { readJsonBody } from '../api/read-body';
import { parseProxyRequest } from '../api/request';
import { upstreamBody } from '../api/upstream-body';
import { usageFromJson } from '../api/usage';
import type { AppEnv } from '../context';
import { GatewayError, badRequest } from '../errors';
import { anthropicObserver, openAiObserver } from '../sse/observer';
import { checkPolicy } from './policy';
import { dispatch, resolveRoute } from './route';
import { relay } from './stream';
import { requestTimeout, maxAttempts } from './request-headers';

export function proxy(endpoint: Endpoint) {
  const spec = ENDPOINTS[endpoint];
  return async function proxyRequest(c: Context<AppEnv>): Promise<Response> {
    const { deps, principal, record } = c.var;
    const request = parseProxyRequest(endpoint, await readJsonBody(c.req.raw, deps.config.maxBodyBytes));
    record.model = request.model;
    record.stream = request.stream;
    if (request.stream && !spec.streamable) throw badRequest(`'stream' is not supported on this endpoint.`, 'stream', 'invalid_value');

    const route = resolveRoute(deps.providers, endpoint, request.model);
    record.provider = route.providerId;

    const decision = checkPolicy(principal, request, Date.now());
    if (!decision.allow) throw new GatewayError(decision.status, decision.message, { code: decision.code, param: decision.param });

    const reservation = await deps.limiter.reserve(principal, request);

    const headers = c.req.raw.headers;
    let dispatched;
    try {
      dispatched = await dispatch(route, {
        body: upstreamBody(request, route.upstreamModel, route.target.format),
        maxAttempts: maxAttempts(headers, deps.config.maxAttempts),
        ttfbTimeoutMs: requestTimeout(headers, deps.config.ttfbTimeoutMs),
        awaitFirstChunk: request.stream,
      });
    } catch (err) {
      c.executionCtx.waitUntil(reservation.settle(null));
      throw err;
    }
    c.set('upstreamMs', dispatched.upstreamMs);
    record.attempts = dispatched.attempts;

    const out = new Headers(reservation.headers);
    if (request.stream && dispatched.reader) {
      record.ttftMs = performance.now() - c.var.startedAt;
      const observer = route.target.format === 'anthropic'
        ? anthropicObserver()
        : openAiObserver({ stripUsage: !request.clientWantsUsage });
      const { body, outcome } = relay({
        reader: dispatched.reader,
        first: dispatched.first ?? null,
        observer,
        idleTimeoutMs: deps.config.idleTimeoutMs,
        abortUpstream: () => dispatched.abort.abort(),
      });
      record.done = outcome.then(async (o) => {
        record.usage = o.usage;
        record.streamCompleted = o.completed;
        record.lateError = o.error?.code ?? (o.cancelledByClient ? 'client_disconnected' : null);
        await reservation.settle(o.usage);
      });
      out.set('content-type', 'text/event-stream; charset=utf-8');
      out.set('cache-control', 'no-cache');
      return new Response(body, { status: dispatched.response.status, headers: out });
    }

    const text = await dispatched.response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      c.executionCtx.waitUntil(reservation.settle(null));
      throw new GatewayError(502, 'The provider returned a body that is not JSON.', { code: 'bad_upstream_response', source: 'provider' });
    }
    record.usage = usageFromJson(route.target.format, parsed);
    c.executionCtx.waitUntil(reservation.settle(record.usage));
    out.set('content-type', 'application/json');
    return new Response(text, { status: dispatched.response.status, headers: out });
  };
}
