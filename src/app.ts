/** The app: /v1 (the gateway's own router), and the Hono app for /admin, /dashboard and /healthz. */
import { Hono } from 'hono';
import { createAdminApp } from './admin';
import type { AppEnv } from './context';
import { getDeps } from './deps';
import type { Bindings } from './env';
import { createDashboard } from './dashboard';
import { healthRoutes, type HealthOptions } from './health';
import { type ExchangeScopeOptions, exchangeScope, renderFailure } from './pipeline/exit';
import { gatewayRouter, unknownRoute } from './pipeline/router';

export interface AppOptions extends Partial<ExchangeScopeOptions> {
  readonly health?: HealthOptions;
}

/**
 * Two routers behind one fetch: /v1 (the gateway's hot path) has its own, a
 * map of its four paths with no framework (src/pipeline/router.ts), and
 * everything else (/admin, /dashboard, /healthz) is a Hono app. The returned
 * app is the Hono one; its `fetch` and `request` send /v1 paths to the
 * gateway's router.
 */
export function createApp(options: AppOptions = {}) {
  const wiring = { deps: options.deps ?? getDeps };
  const gateway = gatewayRouter(wiring);
  const app = new Hono<AppEnv>();
  app.use('*', exchangeScope(wiring));
  app.route('/healthz', healthRoutes(options.health));
  app.route('/admin', createAdminApp());
  // The dashboard reads and writes only through the admin API, via this same app.
  app.route(
    '/dashboard',
    createDashboard((req, env, ctx) => app.fetch(req, env, ctx)),
  );
  app.notFound((c) => renderFailure(unknownRoute(c.req.method, c.req.path), c.req.path));
  app.onError((err, c) => renderFailure(err, c.req.path));

  const rest = app.fetch;
  app.fetch = (request, env, ctx) =>
    isGatewayPath(request.url)
      ? gateway(request, env as Bindings, ctx as ExecutionContext)
      : rest(request, env, ctx);
  return app;
}

/** Whether a request URL's path is under /v1/, read without parsing the URL. */
export function isGatewayPath(url: string): boolean {
  const scheme = url.indexOf('://');
  const path = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  return path !== -1 && url.startsWith('/v1/', path);
}
