/**
 * The one exceptional-failure type of the gateway, and the one way it becomes a response. The body
 * is the client format's envelope, which its codec writes (src/codecs/<format>/error.ts).
 */

export type ErrorSource = 'gateway' | 'provider';

/** Writes a GatewayError as one client format's error body. */
export type ErrorEnvelope = (err: GatewayError) => unknown;

export interface GatewayErrorOptions {
  /** OpenAI `error.type`; derived from the status when absent. */
  type?: string;
  code?: string | null;
  param?: string | null;
  source?: ErrorSource;
  headers?: Record<string, string>;
  /** Extra fields placed inside `error` (e.g. the limit that was hit). */
  details?: Record<string, unknown>;
}

export class GatewayError extends Error {
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly source: ErrorSource;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly status: number,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message);
    this.name = 'GatewayError';
    this.type = options.type ?? openAiTypeFor(status);
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.source = options.source ?? 'gateway';
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

/** Shorthand for the most common case: the caller sent something we cannot accept. */
export function badRequest(
  message: string,
  param: string | null = null,
  code: string | null = null,
): GatewayError {
  return new GatewayError(400, message, { param, code });
}

function openAiTypeFor(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 504 ? 'timeout_error' : 'server_error';
  return 'invalid_request_error';
}

export function errorResponse(err: GatewayError, envelope: ErrorEnvelope): Response {
  const headers = new Headers(err.headers);
  headers.set('content-type', 'application/json');
  headers.set('x-edgeway-error-source', err.source);
  return new Response(JSON.stringify(envelope(err)), { status: err.status, headers });
}
