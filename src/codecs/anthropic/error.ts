/** Anthropic's error envelope, `{"type":"error","error":{"type","message"}}`: the gateway's errors written in it, a provider's read from it (pure). */
import type { GatewayError } from '../../core/errors';
import type { ProviderFault } from '../ir';
import { obj, str } from '../json';

/** Anthropic's error types are a fixed set keyed by status. */
function anthropicTypeFor(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

export function anthropicErrorBody(err: GatewayError): unknown {
  return {
    type: 'error',
    error: { type: anthropicTypeFor(err.status), message: err.message, ...err.details },
  };
}

export function decodeAnthropicError(body: unknown): ProviderFault {
  const error = obj(obj(body)?.error);
  return { message: str(error?.message), type: str(error?.type), code: str(error?.code) };
}
