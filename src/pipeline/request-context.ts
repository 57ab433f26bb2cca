/**
 * Runs around every request: request id, timing and cache headers, and for
 * /v1 the one LogEvent per request, sent after the response (streams: after
 * they end) inside waitUntil, so nothing on the response path waits for it.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { getDeps } from '../deps';
import { GatewayError } from '../errors';
import { emit } from './log';
import { buildLogEvent } from './log-event';
import { newRecord } from './record';

export const requestContext = createMiddleware<AppEnv>(async function requestContext(c, next) {
  const startedAt = performance.now();
  const receivedAt = Date.now();
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  c.set('startedAt', startedAt);
  c.set('upstreamMs', 0);
  c.set('deps', getDeps(c.env));
  const record = newRecord(c.req.path);
  c.set('record', record);
  await next();

  const res = c.res;
  res.headers.set('x-edgeway-request-id', requestId);
  res.headers.set('cf-aig-log-id', requestId);
  res.headers.set('x-edgeway-overhead-ms', Math.max(0, performance.now() - startedAt - c.var.upstreamMs).toFixed(1));
  if (record.cache) {
    res.headers.set('x-edgeway-cache', record.cache);
    res.headers.set('cf-aig-cache-status', record.cache);
  }
  if (!c.req.path.startsWith('/v1/')) return;

  const status = res.status;
  const error = c.error instanceof GatewayError ? c.error : null;
  const principal = c.get('principal');
  const { deps } = c.var;
  const finish = async () => {
    // A failure in the work after a stream (settling limits, storing the cache) must not cost the request its log.
    if (record.done) await record.done.catch((err: unknown) => console.error('post-stream work failed', err instanceof Error ? err.message : String(err)));
    const priceOverrides = await deps.prices.overrides();
    const latencyMs = performance.now() - startedAt;
    emit(c.executionCtx, deps.logs, buildLogEvent({ requestId, receivedAt, latencyMs, status, error, principal, record, priceOverrides }));
  };
  c.executionCtx.waitUntil(finish());
});
