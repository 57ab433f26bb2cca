/**
 * The request pipeline, in order, written once for every proxied endpoint:
 * (auth ran as middleware) → policy → limits ∥ cache → route → stream → (log in app.ts).
 * The limits reservation and the cache lookup run concurrently: neither needs
 * the other, and both must finish before the upstream call.
 */
import type { Context } from 'hono';
import { ENDPOINTS, type Endpoint } from '../api/endpoints';
import { readJsonBody } from '../api/read-body';
import { parseProxyRequest } from '../api/request';
import { upstreamBody } from '../api/upstream-body';
import type { AppEnv } from '../context';
import { GatewayError, badRequest } from '../errors';
import { capturePayload } from '../logs/payload';
import { NO_USAGE, cachedResponse, lookupCache, planCache } from './cache';
import { checkPolicy } from './policy';
import { maxAttempts, requestTimeout } from './request-headers';
import { respondJson, respondStream } from './respond';
import { dispatch, resolveRoute } from './route';

export function proxy(endpoint: Endpoint) {
  const spec = ENDPOINTS[endpoint];
  return async function proxyRequest(c: Context<AppEnv>): Promise<Response> {
    const { deps, principal, record } = c.var;
    const headers = c.req.raw.headers;
    const request = parseProxyRequest(endpoint, await readJsonBody(c.req.raw, deps.config.maxBodyBytes));
    record.model = request.model;
    record.stream = request.stream;
    record.payload = capturePayload(principal, headers, request.body, c.env.LOG_PAYLOAD_MAX_BYTES);
    if (request.stream && !spec.streamable) throw badRequest(`'stream' is not supported on this endpoint.`, 'stream', 'invalid_value');

    const route = resolveRoute(deps.providers, endpoint, request.model);
    record.provider = route.providerId;

    const decision = checkPolicy(principal, request, Date.now());
    if (!decision.allow) throw new GatewayError(decision.status, decision.message, { code: decision.code, param: decision.param });

    const plan = await planCache(principal, request, route, headers);
    const [reserved, looked] = await Promise.allSettled([deps.limiter.reserve(principal, request), lookupCache(deps.cache, plan)]);
    if (reserved.status === 'rejected') {
      if (looked.status === 'fulfilled' && looked.value.entry === null) looked.value.release(null);
      throw reserved.reason;
    }
    const reservation = reserved.value;
    if (looked.status === 'rejected') {
      c.executionCtx.waitUntil(reservation.settle(null));
      throw looked.reason;
    }
    const lookup = looked.value;
    record.cache = lookup.status;
    const out = new Headers(reservation.headers);
    if (lookup.entry) {
      // Hits count toward request rate limits (the reservation stands) but spend no tokens.
      record.usage = lookup.entry.usage;
      if (record.payload) record.payload.response = JSON.stringify(lookup.entry.body);
      if (lookup.score !== null) out.set('x-edgeway-cache-similarity', lookup.score.toFixed(4));
      c.executionCtx.waitUntil(reservation.settle(NO_USAGE));
      return cachedResponse(lookup.entry, request, out);
    }

    let dispatched;
    try {
      dispatched = await dispatch(route, {
        body: upstreamBody(request, { upstreamModel: route.upstreamModel, format: route.target.format, providerId: route.providerId, outputCap: reservation.outputCap }),
        maxAttempts: maxAttempts(headers, deps.config.maxAttempts),
        ttfbTimeoutMs: requestTimeout(headers, deps.config.ttfbTimeoutMs),
        awaitFirstChunk: request.stream,
      });
    } catch (err) {
      lookup.release(null);
      c.executionCtx.waitUntil(reservation.settle(null));
      throw err;
    }
    c.set('upstreamMs', dispatched.upstreamMs);
    record.attempts = dispatched.attempts;

    const context = { c, request, route, dispatched, reservation, plan, release: lookup.release, headers: out };
    return request.stream && dispatched.reader ? respondStream(context) : respondJson(context);
  };
}
