/** The Hono app: /v1 (the gateway), /admin, /dashboard, /healthz, and the one error handler. */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { shapeForPath } from './api/endpoints';
import { listModels } from './api/models';
import { createAdminApp } from './admin';
import { createDashboard } from './dashboard';
import type { AppEnv } from './context';
import { getDeps } from './deps';
import { GatewayError, errorResponse } from './errors';
import { rateLimitHeaders } from './limits/middleware';
import { payloadForLog } from './logs/payload';
import { auth } from './pipeline/auth';
import { costUsd, priceOf } from './pipeline/cost';
import { emit } from './pipeline/log';
import { proxy } from './pipeline/proxy';
import { newRecord } from './pipeline/record';
import { requestMetadata } from './pipeline/request-headers';

/**
 * Runs around every request: ids and timing headers, and for /v1 the one
 * LogEvent per request, sent after the response (streams: after they end).
 */
const requestContext = createMiddleware<AppEnv>(async function requestContext(c, next) {
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
  const overhead = Math.max(0, performance.now() - startedAt - c.var.upstreamMs);
  res.headers.set('x-edgeway-overhead-ms', overhead.toFixed(1));
  if (record.cache) {
    res.headers.set('x-edgeway-cache', record.cache);
    res.headers.set('cf-aig-cache-status', record.cache);
  }
  if (!c.req.path.startsWith('/v1/')) return;
  const status = res.status;
  const error = c.error instanceof GatewayError ? c.error : null;
  const principal = c.get('principal');
  const finish = async () => {
    // A failure in the work after a stream (settling limits, storing the cache) must not cost the request its log.
    if (record.done) await record.done.catch((err: unknown) => console.error('post-stream work failed', err instanceof Error ? err.message : String(err)));
    const usage = record.usage;
    const hit = record.cache === 'HIT' || record.cache === 'SEMANTIC';
    const cost = usage && record.model ? costUsd(priceOf(record.model, await c.var.deps.prices.overrides()), usage) : 0;
    emit(c.executionCtx, c.var.deps.logs, {
      requestId,
      time: receivedAt,
      tenantId: principal?.tenantId ?? null,
      keyId: principal?.id ?? null,
      endpoint: record.endpoint,
      provider: record.provider,
      model: record.model,
      status,
      errorSource: error ? error.source : record.lateError ? 'provider' : null,
      errorCode: error ? error.code ?? error.type : record.lateError,
      cache: record.cache,
      stream: record.stream,
      streamCompleted: record.streamCompleted,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      cachedTokens: usage?.cachedTokens ?? 0,
      costUsd: hit ? 0 : cost,
      savedUsd: hit ? cost : 0,
      latencyMs: performance.now() - startedAt,
      ttftMs: record.ttftMs,
      attempts: record.attempts,
      metadata: record.metadata,
      payload: record.payload ? payloadForLog(record.payload) : null,
    });
  };
  c.executionCtx.waitUntil(finish());
});

/** Reads `cf-aig-metadata` up front so a bad header is a 400 before any work. */
const metadata = createMiddleware<AppEnv>(async function readMetadata(c, next) {
  c.var.record.metadata = requestMetadata(c.req.raw.headers);
  await next();
});

function methodNotAllowed(allow: string) {
  return () => {
    throw new GatewayError(405, `Method not allowed. Use ${allow}.`, { code: 'method_not_allowed', headers: { allow } });
  };
}

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext);

  app.get('/healthz', (c) => c.json({ ok: true }));

  app.route('/admin', createAdminApp());
  // The dashboard reads and writes only through the admin API, via this same app.
  app.route('/dashboard', createDashboard((req, env, ctx) => app.fetch(req, env, ctx)));

  // Auth is attached per route so unknown paths answer 404 before any key check.
  const gate = [auth(), rateLimitHeaders, metadata] as const;
  app.post('/v1/chat/completions', ...gate, proxy('chat'));
  app.post('/v1/embeddings', ...gate, proxy('embeddings'));
  app.post('/v1/messages', ...gate, proxy('messages'));
  app.get('/v1/models', ...gate, listModels);
  app.all('/v1/chat/completions', methodNotAllowed('POST'));
  app.all('/v1/embeddings', methodNotAllowed('POST'));
  app.all('/v1/messages', methodNotAllowed('POST'));
  app.all('/v1/models', methodNotAllowed('GET'));

  app.notFound((c) => errorResponse(new GatewayError(404, `Unknown route: ${c.req.method} ${c.req.path}`, { code: 'unknown_route' }), shapeForPath(c.req.path)));

  app.onError((err, c) => {
    if (err instanceof GatewayError) return errorResponse(err, shapeForPath(c.req.path));
    console.error('unhandled error', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    return errorResponse(new GatewayError(500, 'The gateway hit an internal error.', { code: 'internal_error' }), shapeForPath(c.req.path));
  });
  return app;
}
