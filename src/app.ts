/** The Hono app: /v1 (the gateway), /admin, /dashboard, /healthz, and the one error handler. */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { shapeForPath } from './api/endpoints';
import { listModels } from './api/models';
import { createAdminApp } from './admin';
import { createDashboard } from './dashboard';
import type { AppEnv } from './context';
import { GatewayError, errorResponse } from './errors';
import { rateLimitHeaders } from './limits/middleware';
import { auth } from './pipeline/auth';
import { proxy } from './pipeline/proxy';
import { requestContext } from './pipeline/request-context';
import { requestMetadata } from './pipeline/request-headers';

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
