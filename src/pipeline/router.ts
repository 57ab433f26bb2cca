/**
 * The /v1 router: a handful of paths (and the id paths /v1/models/{id}, /v1/responses/{id} and
 * /v1/responses/{id}/input_items), found by one map lookup on the path and one on the method, with no
 * framework between the Worker's fetch and the pipeline. Hono serves everything else (src/app.ts); on the
 * gateway's path its context, middleware chain and router were work that bought nothing (what leaving them
 * measured, within the noise: bench/README.md, "/v1 without a framework"). What it gave /v1 is kept, and
 * tested in test/gateway/app-routing-integration.test.ts:
 * - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered before any exchange;
 * - every other request opens an exchange, and its exit (src/pipeline/exit.ts) runs however it ends: a
 *   handler's answer, its GatewayError in the API's shape, or a 500 for anything else;
 * - an unknown path is a 404, a known path with another method a 405 with `allow` (its methods);
 * - `HEAD` is answered as the `GET` it stands for, without the body.
 */
import { GatewayError } from '../core/errors';
import type { Deps } from '../ports';
import type { Bindings } from '../env';
import type { GatewayCall, GatewayHandler } from './call';
import { preflight } from './cors';
import { closeExchange, type ExchangeScopeOptions, openExchange, renderFailure } from './exit';
import { isModelsPath } from '../core/endpoints';
import { countTokens } from './count-tokens';
import { models } from './models';
import { proxy } from './proxy';
import { deleteResponse, getResponse, listInputItems } from './stored-responses';

type Method = 'GET' | 'POST' | 'DELETE';
/** A path's handlers by method. */
type GatewayRoute = Partial<Record<Method, GatewayHandler>>;

const ROUTES = new Map<string, GatewayRoute>([
  ['/v1/chat/completions', { POST: proxy('chat') }],
  ['/v1/embeddings', { POST: proxy('embeddings') }],
  ['/v1/messages', { POST: proxy('messages') }],
  ['/v1/messages/count_tokens', { POST: countTokens }],
  ['/v1/models', { GET: models }],
  ['/v1/responses/{id}', { GET: getResponse, DELETE: deleteResponse }],
  ['/v1/responses/{id}/input_items', { GET: listInputItems }],
]);

export type GatewayFetch = (request: Request, env: Bindings, ctx: ExecutionContext) => Promise<Response>;

export function gatewayRouter(options: ExchangeScopeOptions): GatewayFetch {
  const depsFor = options.deps;

  async function serve(request: Request, env: Bindings, ctx: ExecutionContext, method: string) {
    const path = requestPath(request.url);
    let deps: Deps;
    try {
      deps = depsFor(env);
    } catch (err) {
      // No adapters, no exchange to log: the failure is still answered in the API's shape.
      return renderFailure(err, path, request.headers);
    }
    const call: GatewayCall = { request, env, ctx, deps, exchange: openExchange(path, ctx) };
    let response: Response;
    let error: unknown;
    try {
      response = await routeTo(path, method)(call);
    } catch (err) {
      error = err;
      response = renderFailure(err, path, request.headers);
    }
    // Outside the try: the exit runs exactly once, after whichever answer.
    return closeExchange(call, response, error);
  }

  return async function serveGateway(request, env, ctx) {
    const method = request.method;
    if (method === 'OPTIONS') {
      const answer = preflight(request.headers);
      if (answer) return answer;
    }
    if (method === 'HEAD') return new Response(null, await serve(request, env, ctx, 'GET'));
    return serve(request, env, ctx, method);
  };
}

/** The handler for a path and method, or one that refuses it (404 or 405, inside the exchange). */
function routeTo(path: string, method: string): GatewayHandler {
  const route = ROUTES.get(routeKey(path));
  if (route === undefined) throw unknownRoute(method, path);
  const handle = route[method as Method];
  if (handle === undefined) {
    const allowed = Object.keys(route).join(', ');
    throw new GatewayError(405, `Method not allowed. Use ${allowed}.`, {
      code: 'method_not_allowed',
      headers: { allow: allowed },
    });
  }
  return handle;
}

const RESPONSES = '/v1/responses/';
const INPUT_ITEMS = '/input_items';

/** The ROUTES key of a path: itself, or the pattern of an id path. */
function routeKey(path: string): string {
  // /v1/models/{id}: ids hold slashes, so every path under /v1/models/ is the one route.
  if (isModelsPath(path)) return '/v1/models';
  if (!path.startsWith(RESPONSES)) return path;
  const id = path.slice(RESPONSES.length);
  if (isSegment(id)) return '/v1/responses/{id}';
  if (id.endsWith(INPUT_ITEMS) && isSegment(id.slice(0, -INPUT_ITEMS.length))) {
    return '/v1/responses/{id}/input_items';
  }
  return path;
}

/** One non-empty path segment. */
function isSegment(text: string): boolean {
  return text !== '' && !text.includes('/');
}

/** The one 404, for /v1 and for the Hono app's paths alike. */
export function unknownRoute(method: string, path: string): GatewayError {
  return new GatewayError(404, `Unknown route: ${method} ${path}`, { code: 'unknown_route' });
}

/** A request URL's path, without its query, percent-decoded when it has escapes (as routers match it). */
export function requestPath(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  const path = query === -1 ? url.slice(start) : url.slice(start, query);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
