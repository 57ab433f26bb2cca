/**
 * Stage 5, route: the call to one provider (a resolved Route, ./resolve.ts),
 * with per-attempt time-to-first-byte timeouts and retries (only before the
 * first byte, only on retryable failures). A failure that cannot be retried becomes
 * a GatewayError marked as the provider's, with its status passed through and
 * its message scrubbed of credentials; at most 16 KiB of an error body is read.
 */
import { CLIENT_CODECS, sameFormat, UPSTREAM_CODECS } from '../../codecs/index';
import { ENDPOINTS } from '../../core/endpoints';
import { GatewayError } from '../../core/errors';
import { readBounded } from './read-upstream';
import type { Route } from './resolve';
import { readWithin } from '../stream';
import { backoffMs, isRetryableStatus } from './retry';

export interface DispatchOptions {
  readonly body: string;
  readonly maxAttempts: number;
  readonly ttfbTimeoutMs: number;
  /** For streams: also wait for the first body chunk before committing, so it can be retried. */
  readonly awaitFirstChunk: boolean;
  readonly random?: () => number;
  /** Called as each attempt starts (1-based), so a failed dispatch still tells how many were made. */
  readonly onAttempt?: (attempt: number) => void;
  /** Called as each attempt ends, answered or failed (for the log's tries and the circuit breaker). */
  readonly onOutcome?: (outcome: AttemptOutcome) => void;
}

/** How one upstream call ended, before any byte reached the client. */
export interface AttemptOutcome {
  /** The provider's status, or 0 when none arrived. */
  readonly status: number;
  /** Time to the provider's answer (or to the failure), ms. */
  readonly ttfbMs: number;
  /** The gateway's code for a failure; null when it answered. */
  readonly error: string | null;
  /** A failure another try (or another target) may fix: timeouts, resets, 408/409/429/5xx. */
  readonly retryable: boolean;
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
    const took = performance.now() - started;
    upstreamMs += took;
    if ('response' in result) {
      options.onOutcome?.({ status: result.response.status, ttfbMs: took, error: null, retryable: false });
      return {
        ...result,
        upstreamMs,
        scrub(text: string) {
          return route.adapter.scrub(text, Number.POSITIVE_INFINITY);
        },
      };
    }
    options.onOutcome?.({
      status:
        result.error.source === 'provider' && result.error.code?.startsWith('upstream_')
          ? 0
          : result.error.status,
      ttfbMs: took,
      error: result.error.code ?? result.error.type,
      retryable: result.retryable,
    });
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
      response = await route.adapter.send(route.target, options.body, abort.signal);
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
    const whose = route.tenantKey ? "your organisation's own key" : "the gateway's credentials";
    return new GatewayError(502, `The provider rejected ${whose} for this provider.`, {
      code: 'provider_auth_failed',
      source: 'provider',
      type: 'server_error',
    });
  }
  const { text } = await readBounded(response.body, { maxBytes: ERROR_BODY_LIMIT, deadlineMs });
  let message = `The provider returned HTTP ${status}.`;
  let type: string | undefined;
  let code: string | null = null;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (or cut at the limit): keep the generic message rather than relaying an HTML error page.
  }
  const fault = UPSTREAM_CODECS[route.target.format].decodeError(parsed, response.headers);
  if (fault.message) message = route.adapter.scrub(fault.message);
  // The provider's own error type travels only where the client speaks its format; otherwise the status says it.
  const client = CLIENT_CODECS[ENDPOINTS[route.target.endpoint].format];
  if (fault.type && sameFormat(route.target.format, client.format)) {
    if (client.relaysErrorType) type = route.adapter.scrub(fault.type).slice(0, 64);
    if (typeof fault.code === 'string') code = route.adapter.scrub(fault.code).slice(0, 64);
  }
  const headers: Record<string, string> = {};
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter) headers['retry-after'] = retryAfter.slice(0, 32);
  const requestId = upstreamRequestId(route, response);
  if (requestId) headers[UPSTREAM_REQUEST_ID] = requestId;
  return new GatewayError(status, message, { source: 'provider', type, code, headers });
}

/** The response header relaying the provider's request id, for support tickets with the provider. */
export const UPSTREAM_REQUEST_ID = 'x-edgeway-upstream-request-id';

export function upstreamRequestId(route: Route, response: Response): string | null {
  const name = route.adapter.requestIdHeader;
  const value = name ? response.headers.get(name) : null;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
