/**
 * What every /v1 handler does first (stage 1), and the model a body names for the log. Shared by the
 * proxy (src/pipeline/proxy.ts), the models paths (./models.ts) and token counting (./count-tokens.ts).
 */
import { misconfigured } from '../config';
import type { Principal } from '../core/principal';
import { authenticate } from './auth';
import type { GatewayCall } from './call';
import { checkOrigin } from './cors';
import { requestMetadata } from './request-headers';

/**
 * Stage 1, admission, for every /v1 route: a gateway whose configuration has problems
 * refuses (503, src/config.ts); then the principal, the browser origin it may
 * be used from (src/pipeline/cors.ts), and the request's metadata header (a
 * bad one is a 400 before any work).
 */
export async function admit(inbound: GatewayCall, allowXApiKey: boolean): Promise<Principal> {
  const { deps, exchange: x } = inbound;
  const headers = inbound.request.headers;
  if (deps.problems.length > 0) throw misconfigured(deps.problems);
  x.principal = await authenticate(headers, allowXApiKey, deps.keys, Date.now());
  checkOrigin(x.principal, headers);
  x.metadata = requestMetadata(headers);
  return x.principal;
}

/** The body's `model` when it is a string; the log is its only reader before the body is validated. */
export function clientModel(body: unknown): string | null {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : null;
  return typeof model === 'string' ? model : null;
}
