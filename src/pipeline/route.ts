/**
 * Stage 5, route: resolves `provider/model` to an adapter, then calls it with
 * per-attempt time-to-first-byte timeouts and retries (only before the first
 * byte, only on retryable failures). A failure that cannot be retried becomes
 * a GatewayError marked as the provider's, with its status passed through and
 * its message scrubbed of credentials; at most 16 KiB of an error body is read.
 */
import { ENDPOINTS, type Endpoint } from '../core/endpoints';
import { GatewayError } from '../core/errors';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderAdapter, UpstreamTarget } from '../providers/types';
import { readBounded } from './read-upstream';
import { readWithin } from './stream';
import { backoffMs, isRetryableStatus } from './retry';

export interface Route {
  readonly providerId: string;
  readonly upstreamModel: string;
  readonly adapter: ProviderAdapter;
  readonly target: UpstreamTarget;
}

export function resolveRoute(registry: ProviderRegistry, endpoint: Endpoint, model: string): Route {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw modelNotFound(
      `The model '${model}' does not exist. Name models as 'provider/model', e.g. 'openai/gpt-4o-mini'.`,
    );
  }
  const providerId = model.slice(0, slash);
  const adapter = registry.get(providerId);
  if (adapter === 'unknown')
    throw modelNotFound(`The model '${model}' does not exist: unknown provider '${providerId}'.`);
  if (adapter === 'unconfigured') {
    throw modelNotFound(
      `The model '${model}' is not available: provider '${providerId}' has no API key configured on this gateway.`,
      'provider_not_configured',
    );
  }
  const target = adapter.prepare(endpoint);
  if (!target)
    throw modelNotFound(
      `Provider '${providerId}' does not serve ${ENDPOINTS[endpoint].upstreamPath}.`,
      'unsupported_endpoint',
    );
  return { providerId, upstreamModel: model.slice(slash + 1), adapter, target };
}

function modelNotFound(message: string, code = 'model_not_found'): GatewayError {
  return new GatewayError(404, message, { param: 'model', code, type: 'invalid_request_error' });
}

export interface DispatchOptions {
  readonly body: string;
  readonly maxAttempts: number;
  readonly ttfbTimeoutMs: number;
  /** For streams: also wait for the first body chunk before committing, so it can be retried. */
  readonly awaitFirstChunk: boolean;
  readonly random?: () => number;
  /** Called as each attempt starts (1-based), so a failed dispatch still tells how many were made. */
  readonly onAttempt?: (attempt: number) => void;
}

export interface Dispatched {
  readonly response: Response;
  readonly abort: AbortController;
  /** Time spent waiting on the upstream before it answered (ms). */
  readonly upstreamMs: number;
  /** With awaitFirstChunk: the reader and the first chunk (null when the body was empty). */
  readonly reader?: ReadableStreamDefaultReader<Uint8Array>;
  readonly first?: Uint8Array | null;
  /** Removes this provider's key and credential-shaped text (for error events relayed mid-stream). */
  readonly scrub: (text: string) => string;
}

type Attempt =
  | Omit<Dispatched, 'scrub'>
  | { retryable: boolean; error: GatewayError; retryAfter: string | null };

export async function dispatch(route: Route, options: DispatchOptions): Promise<Dispatched> {
  const random = options.random ?? Math.random;
  let upstreamMs = 0;
  for (let attempt = 1; ; attempt++) {
    options.onAttempt?.(attempt);
    const started = performance.now();
    const result = await attemptOnce(route, options);
    upstreamMs += performance.now() - started;
    if ('response' in result)
      return { ...result, upstreamMs, scrub: (text) => route.adapter.scrub(text, Number.POSITIVE_INFINITY) };
    if (!result.retryable || attempt >= options.maxAttempts) throw result.error;
    await sleep(backoffMs(attempt - 1, random(), result.retryAfter));
  }
}

async function attemptOnce(route: Route, options: DispatchOptions): Promise<Attempt> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('ttfb timeout')), options.ttfbTimeoutMs);
  try {
    let response: Response;
    try {
      response = await route.adapter.fetch(route.target.url, {
        method: 'POST',
        headers: route.target.headers,
        body: options.body,
        signal: abort.signal,
      });
    } catch {
      return networkFailure(abort, options.ttfbTimeoutMs);
    }
    if (!response.ok) {
      const error = await providerError(response, route, options.ttfbTimeoutMs);
      return {
        retryable: isRetryableStatus(response.status),
        error,
        retryAfter: response.headers.get('retry-after'),
      };
    }
    if (!options.awaitFirstChunk || !response.body) return { response, abort, upstreamMs: 0 };
    const reader = response.body.getReader();
    const first = await readWithin(reader, options.ttfbTimeoutMs);
    if (first === 'timeout' || first === 'error') {
      abort.abort();
      return networkFailure(abort, options.ttfbTimeoutMs, first === 'timeout');
    }
    return {
      response,
      abort,
      upstreamMs: 0,
      reader,
      first: first.done ? null : first.value,
    };
  } finally {
    clearTimeout(timer);
  }
}

function networkFailure(abort: AbortController, timeoutMs: number, timedOut = abort.signal.aborted): Attempt {
  const error = timedOut
    ? new GatewayError(504, `The provider did not answer within ${timeoutMs} ms.`, {
        code: 'upstream_timeout',
        source: 'provider',
      })
    : new GatewayError(502, 'The provider could not be reached.', {
        code: 'upstream_unreachable',
        source: 'provider',
      });
  return { retryable: true, error, retryAfter: null };
}

/** Error bodies are read up to this many bytes, then the rest is cancelled unread. */
export const ERROR_BODY_LIMIT = 16_384;

/**
 * The provider's own error, status passed through. Its 401/403 concern the
 * gateway's provider key, not the caller's: they become 502 and their body is
 * dropped. Any other message is scrubbed of credentials (providers echo keys
 * in 400s and 429s too) and capped before it reaches the client.
 */
async function providerError(response: Response, route: Route, deadlineMs: number): Promise<GatewayError> {
  const status = response.status;
  if (status === 401 || status === 403) {
    void response.body?.cancel().catch(() => {});
    return new GatewayError(502, "The provider rejected the gateway's credentials for this provider.", {
      code: 'provider_auth_failed',
      source: 'provider',
      type: 'server_error',
    });
  }
  const { text } = await readBounded(response.body, { maxBytes: ERROR_BODY_LIMIT, deadlineMs });
  let message = `The provider returned HTTP ${status}.`;
  let type: string | undefined;
  let code: string | null = null;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; type?: unknown; code?: unknown } };
    if (typeof body.error?.message === 'string') message = route.adapter.scrub(body.error.message);
    if (typeof body.error?.type === 'string' && route.target.format === 'openai')
      type = route.adapter.scrub(body.error.type).slice(0, 64);
    if (typeof body.error?.code === 'string') code = route.adapter.scrub(body.error.code).slice(0, 64);
  } catch {
    // Not JSON (or cut at the limit): keep the generic message rather than relaying an HTML error page.
  }
  const headers: Record<string, string> = {};
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter) headers['retry-after'] = retryAfter.slice(0, 32);
  return new GatewayError(status, message, { source: 'provider', type, code, headers });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
