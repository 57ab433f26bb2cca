/**
 * CORS for browser clients calling /v1 directly (docs/cors.md).
 *
 * A preflight carries no key, so it cannot know which origins the key will allow: it is answered
 * before auth (and before any exchange or log) for any origin, granting only the methods and headers
 * the gateway reads. The grant that matters is made on the actual request, once the key is known:
 * an `Origin` the key does not list is refused with a 403 in the route's error shape and no CORS
 * headers (the browser then hides the response from the page), and an allowed one gets
 * `access-control-allow-origin` (its own origin, never `*`) and the response headers it may read.
 * A request without `Origin` (a server) costs one header lookup; a key with no origins, no more.
 */
import { GatewayError } from '../core/errors';
import { originAllowed } from '../core/origins';
import type { Principal } from '../core/principal';

// DELETE: DELETE /v1/responses/{id} (a stored response).
const ALLOW_METHODS = 'GET, POST, DELETE';

/** What clients send: credentials, content type, the providers' version headers, and the gateway's own controls. */
const ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  'openai-organization',
  'openai-project',
  'cf-aig-cache-key',
  'cf-aig-cache-ttl',
  'cf-aig-collect-log-payload',
  'cf-aig-max-attempts',
  'cf-aig-metadata',
  'cf-aig-request-timeout',
  'cf-aig-skip-cache',
  'x-edgeway-cache',
  'x-edgeway-user',
  // W3C trace context, which a traced page sends and the request's exported span joins.
  'traceparent',
  'tracestate',
  // What the official SDKs add when run in a browser.
  'anthropic-dangerous-direct-browser-access',
  ...['arch', 'lang', 'os', 'package-version', 'retry-count', 'runtime', 'runtime-version', 'timeout'].map(
    (n) => `x-stainless-${n}`,
  ),
].join(', ');

/** What the page may read besides the CORS-safelisted headers: quotas, retry hints, ids and gateway details. */
const EXPOSE_HEADERS = [
  ...['limit', 'remaining', 'reset'].flatMap((n) => [`x-ratelimit-${n}-requests`, `x-ratelimit-${n}-tokens`]),
  'retry-after',
  'cf-aig-log-id',
  'cf-aig-cache-status',
  'x-edgeway-request-id',
  'x-edgeway-upstream-request-id',
  'x-edgeway-attempts',
  'x-edgeway-target',
  'x-edgeway-route',
  'x-edgeway-downgraded',
  'x-edgeway-limit-scope',
  'x-edgeway-dropped',
  'x-edgeway-cache',
  'x-edgeway-cache-similarity',
  'x-edgeway-guardrails',
  'x-edgeway-overhead-ms',
  'x-edgeway-error-source',
].join(', ');

/** Browsers cap it lower (Chromium: 2 h); the answer depends on nothing that changes with a key. */
const MAX_AGE_SECONDS = '7200';

/**
 * The answer to an `OPTIONS` preflight under /v1, or null when the request is not one (no `Origin` or no
 * `Access-Control-Request-Method`). The router asks before it opens an exchange, so a preflight is never logged.
 */
export function preflight(request: Headers): Response | null {
  const origin = request.get('origin');
  if (origin === null || request.get('access-control-request-method') === null) return null;
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': MAX_AGE_SECONDS,
      vary: 'origin',
    },
  });
}

/** Stage 1, right after auth: a browser origin the key does not list is refused (403). */
export function checkOrigin(principal: Principal, headers: Headers): void {
  const origin = headers.get('origin');
  if (origin === null || originAllowed(principal.origins, origin)) return;
  throw new GatewayError(403, `This API key may not be used from the origin '${origin}'.`, {
    code: 'origin_not_allowed',
    type: 'permission_error',
  });
}

/**
 * On the way out of /v1 (called by the exchange's exit, src/pipeline/exit.ts): the CORS headers of an
 * allowed origin, on answers and errors after auth alike.
 */
export function grantCors(principal: Principal | null, request: Headers, response: Headers): void {
  if (!principal || principal.origins.length === 0) return;
  response.append('vary', 'origin');
  const origin = request.get('origin');
  if (origin === null || !originAllowed(principal.origins, origin)) return;
  response.set('access-control-allow-origin', origin);
  response.set('access-control-expose-headers', EXPOSE_HEADERS);
}
