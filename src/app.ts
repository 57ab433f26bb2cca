/** The app: /v1 (the gateway's own router), /mcp (the MCP gateway), and the Hono apps for /admin, /dashboard and /healthz. */
import { type Env, Hono } from 'hono';
import type { AppEnv } from './context';
import { getDeps } from './deps';
import type { Bindings } from './env';
import { healthRoutes, type HealthOptions } from './health';
import { rpcError } from './mcp/rpc-error';
import { authenticate } from './pipeline/auth';
import { type ExchangeScopeOptions, exchangeScope, renderFailure } from './pipeline/exit';
import { gatewayRouter, unknownRoute } from './pipeline/router';

export interface AppOptions extends Partial<ExchangeScopeOptions> {
  readonly health?: HealthOptions;
}

type Fetch = Hono<AppEnv>['fetch'];

/**
 * Two routers behind one fetch: /v1 (the gateway's hot path) has its own, a
 * map of its four paths with no framework (src/pipeline/router.ts), and
 * everything else is Hono. The returned app is the Hono one for /healthz
 * (and the 404 of unknown paths); its `fetch` and `request` send /v1 paths to
 * the gateway's router, and /admin and /dashboard paths to their own Hono
 * apps, each built, its modules evaluated, on its first request: an isolate
 * that serves /v1 does not pay at start-up for the admin API's schemas nor the
 * dashboard's pages (DESIGN.md §5, cold start).
 */
export function createApp(options: AppOptions = {}) {
  const wiring: ExchangeScopeOptions = { deps: options.deps ?? getDeps };
  const gateway = gatewayRouter(wiring);
  const app = honoShell(wiring);
  app.route('/healthz', healthRoutes(options.health));

  const admin = section(wiring, '/admin', async () => (await import('./admin')).createAdminApp());
  // The dashboard reads and writes only through the admin API, via this same app.
  const dashboard = section(wiring, '/dashboard', async () =>
    (await import('./dashboard')).createDashboard((req, env, ctx) => app.fetch(req, env, ctx)),
  );

  const mcp = mcpSection(wiring);

  const rest = app.fetch;
  app.fetch = (request, env, ctx) => {
    if (isGatewayPath(request.url)) return gateway(request, env as Bindings, ctx as ExecutionContext);
    const path = app.getPath(request);
    if (path === '/mcp') return mcp(request, env as Bindings, ctx as ExecutionContext);
    if (under(path, '/admin')) return admin(request, env, ctx);
    if (under(path, '/dashboard')) return dashboard(request, env, ctx);
    return rest(request, env, ctx);
  };
  return app;
}

/**
 * /mcp (src/mcp/endpoint.ts), its modules (the MCP SDK among them) evaluated on its first request, so an
 * isolate that serves only /v1 never loads them. Anything it did not answer itself is a JSON-RPC 500.
 */
function mcpSection(wiring: ExchangeScopeOptions) {
  return async (request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> => {
    try {
      const { serveMcp } = await import('./mcp/endpoint');
      const deps = wiring.deps(env);
      return await serveMcp({
        request,
        env,
        ctx,
        deps,
        authenticate: (headers) => authenticate(headers, false, deps.keys, Date.now()),
      });
    } catch (err) {
      console.error(
        'mcp: unhandled error',
        err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      );
      return rpcError(500, -32603, 'The gateway hit an internal error.');
    }
  };
}

/** A Hono app with the exchange around every request and the one 404 and error answer. */
function honoShell(wiring: ExchangeScopeOptions) {
  const app = new Hono<AppEnv>();
  app.use('*', exchangeScope(wiring));
  app.notFound((c) => renderFailure(unknownRoute(c.req.method, c.req.path), c.req.path));
  app.onError((err, c) => renderFailure(err, c.req.path));
  return app;
}

/**
 * The fetch of an app mounted at `base` in its own shell, built on the first call (a build that
 * fails is answered in the path's error shape and tried again on the next request).
 */
function section<E extends Env>(
  wiring: ExchangeScopeOptions,
  base: string,
  load: () => Promise<Hono<E>>,
): Fetch {
  let built: Promise<Hono<AppEnv>> | null = null;
  return (request, env, ctx) => {
    built ??= load().then(
      (sub) => honoShell(wiring).route(base, sub),
      (err: unknown) => {
        built = null;
        throw err;
      },
    );
    return built.then(
      (app) => app.fetch(request, env, ctx),
      (err: unknown) => renderFailure(err, base),
    );
  };
}

/** Whether a request URL's path is under /v1/, read without parsing the URL. */
export function isGatewayPath(url: string): boolean {
  const scheme = url.indexOf('://');
  const path = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  return path !== -1 && url.startsWith('/v1/', path);
}

/** Whether a routed path (as Hono reads it: no query, escapes decoded) is `base` or below it. */
function under(path: string, base: string): boolean {
  return path.startsWith(base) && (path.length === base.length || path[base.length] === '/');
}
