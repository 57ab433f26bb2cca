/** The Hono app: /v1 (the gateway), /admin, /dashboard, /healthz, and the one error handler. */
import { Hono } from 'hono';
import { createAdminApp } from './admin';
import type { AppEnv } from './context';
import { shapeForPath } from './core/endpoints';
import { GatewayError, errorResponse } from './core/errors';
import { createDashboard } from './dashboard';
import { healthRoutes, type HealthOptions } from './health';
import { corsHeaders, corsPreflight } from './pipeline/cors';
import { type ExchangeScopeOptions, INTERNAL_ERROR, exchangeScope } from './pipeline/exit';
import { models, proxy } from './pipeline/proxy';

function methodNotAllowed(allow: string) {
  return () => {
    throw new GatewayError(405, `Method not allowed. Use ${allow}.`, {
      code: 'method_not_allowed',
      headers: { allow },
    });
  };
}

export interface AppOptions extends ExchangeScopeOptions {
  readonly health?: HealthOptions;
}

export function createApp(options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  // A CORS preflight carries no key: it is answered before the exchange opens (no auth, no log).
  app.use('/v1/*', corsPreflight());
  app.use('*', exchangeScope(options));
  app.use('/v1/*', corsHeaders());

  app.route('/healthz', healthRoutes(options.health));

  app.route('/admin', createAdminApp());
  // The dashboard reads and writes only through the admin API, via this same app.
  app.route(
    '/dashboard',
    createDashboard((req, env, ctx) => app.fetch(req, env, ctx)),
  );

  // The pipeline (src/pipeline/proxy.ts) authenticates inside each route, so unknown paths answer 404 before any key check.
  app.post('/v1/chat/completions', proxy('chat'));
  app.post('/v1/embeddings', proxy('embeddings'));
  app.post('/v1/messages', proxy('messages'));
  app.get('/v1/models', models);
  app.all('/v1/chat/completions', methodNotAllowed('POST'));
  app.all('/v1/embeddings', methodNotAllowed('POST'));
  app.all('/v1/messages', methodNotAllowed('POST'));
  app.all('/v1/models', methodNotAllowed('GET'));

  app.notFound((c) =>
    errorResponse(
      new GatewayError(404, `Unknown route: ${c.req.method} ${c.req.path}`, { code: 'unknown_route' }),
      shapeForPath(c.req.path),
    ),
  );

  app.onError((err, c) => {
    if (err instanceof GatewayError) return errorResponse(err, shapeForPath(c.req.path));
    console.error('unhandled error', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    return errorResponse(INTERNAL_ERROR(), shapeForPath(c.req.path));
  });
  return app;
}
