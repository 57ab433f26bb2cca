/** The Hono app: /v1 (the gateway), /admin, /dashboard, /healthz, and the one error handler. */
import { Hono } from 'hono';
import { createAdminApp } from './admin';
import type { AppEnv } from './context';
import { shapeForPath } from './core/endpoints';
import { GatewayError, errorResponse } from './core/errors';
import { createDashboard } from './dashboard';
import { healthRoutes, type HealthOptions } from './health';
import { corsPreflight } from './pipeline/cors';
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

/**
 * Two routers behind one fetch: /v1 (the gateway's hot path) has its own, with
 * only its eight routes, and everything else (/admin, /dashboard, /healthz) the
 * other. With the admin and dashboard routes in the same table, Hono's router
 * falls back from its RegExpRouter to a TrieRouter and every /v1 request paid
 * for a walk through a hundred routes (bench/README.md, "The JSON path's CPU").
 * The returned app is the outer one; its `fetch` and `request` send /v1 paths
 * to the gateway's router.
 */
export function createApp(options: AppOptions = {}) {
  const gateway = new Hono<AppEnv>();
  // A CORS preflight carries no key: it is answered before the exchange opens (no auth, no log).
  gateway.on('OPTIONS', '/v1/*', corsPreflight());
  // The exchange's exit also writes the CORS headers of an allowed origin (src/pipeline/cors.ts).
  gateway.use('*', exchangeScope(options));
  // The pipeline (src/pipeline/proxy.ts) authenticates inside each route, so unknown paths answer 404 before any key check.
  gateway.post('/v1/chat/completions', proxy('chat'));
  gateway.post('/v1/embeddings', proxy('embeddings'));
  gateway.post('/v1/messages', proxy('messages'));
  gateway.get('/v1/models', models);
  gateway.all('/v1/chat/completions', methodNotAllowed('POST'));
  gateway.all('/v1/embeddings', methodNotAllowed('POST'));
  gateway.all('/v1/messages', methodNotAllowed('POST'));
  gateway.all('/v1/models', methodNotAllowed('GET'));
  answerFailures(gateway);

  const app = new Hono<AppEnv>();
  app.use('*', exchangeScope(options));
  app.route('/healthz', healthRoutes(options.health));
  app.route('/admin', createAdminApp());
  // The dashboard reads and writes only through the admin API, via this same app.
  app.route(
    '/dashboard',
    createDashboard((req, env, ctx) => app.fetch(req, env, ctx)),
  );
  answerFailures(app);

  const rest = app.fetch;
  app.fetch = (request, env, ctx) =>
    isGatewayPath(request.url) ? gateway.fetch(request, env, ctx) : rest(request, env, ctx);
  return app;
}

/** Whether a request URL's path is under /v1/, read without parsing the URL. */
export function isGatewayPath(url: string): boolean {
  const scheme = url.indexOf('://');
  const path = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  return path !== -1 && url.startsWith('/v1/', path);
}

/** The one 404 and the one error handler, in the API's own shape for the path. */
function answerFailures(app: Hono<AppEnv>): void {
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
}
