/**
 * Error bodies in each provider's own envelope, and the catalogue of realistic
 * errors that `mock.status` injects. OpenAI: `{"error":{message,type,param,code}}`
 * plus `x-request-id`; Anthropic: `{"type":"error","error":{type,message},"request_id"}`
 * plus `request-id`. A 429 carries `retry-after: 1` in both.
 */
import { jsonResponse, newRequestId, requestIdHeader, type Shape } from './http';

export interface ErrorDetail {
  readonly message: string;
  /** OpenAI `error.type`, or Anthropic `error.type`. */
  readonly type: string;
  /** OpenAI only. */
  readonly param?: string | null;
  readonly code?: string | null;
}

export function errorBody(shape: Shape, detail: ErrorDetail, requestId: string): unknown {
  if (shape === 'openai') {
    return {
      error: {
        message: detail.message,
        type: detail.type,
        param: detail.param ?? null,
        code: detail.code ?? null,
      },
    };
  }
  return { type: 'error', error: { type: detail.type, message: detail.message }, request_id: requestId };
}

export function errorResponse(
  shape: Shape,
  status: number,
  detail: ErrorDetail,
  headers: Record<string, string> = {},
): Response {
  const requestId = newRequestId();
  const extra: Record<string, string> = { [requestIdHeader(shape)]: requestId, ...headers };
  if (status === 429) extra['retry-after'] = '1';
  return jsonResponse(errorBody(shape, detail, requestId), status, extra);
}

/** OpenAI's answer to a body that is not JSON. */
export const OPENAI_BAD_JSON =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. " +
  'The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)';

/** A 400 for a bad request body, in the route's shape. */
export function invalidRequest(
  shape: Shape,
  message: string,
  param: string | null = null,
  code: string | null = null,
): Response {
  return errorResponse(shape, 400, { message, type: 'invalid_request_error', param, code });
}

const OPENAI_INJECTED: Readonly<Record<number, ErrorDetail>> = {
  400: { type: 'invalid_request_error', message: 'Invalid request (injected by mock.status).' },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided (injected by mock.status).',
  },
  403: {
    type: 'invalid_request_error',
    code: 'insufficient_permissions',
    message: 'You have insufficient permissions for this operation (injected by mock.status).',
  },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it (injected by mock.status).',
  },
  429: {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests (injected by mock.status). Please try again in 1s.',
  },
  500: {
    type: 'server_error',
    message:
      'The server had an error while processing your request. Sorry about that! (injected by mock.status)',
  },
  503: {
    type: 'server_error',
    message: 'The engine is currently overloaded, please try again later. (injected by mock.status)',
  },
};

const ANTHROPIC_INJECTED: Readonly<Record<number, ErrorDetail>> = {
  400: { type: 'invalid_request_error', message: 'Invalid request (injected by mock.status).' },
  401: { type: 'authentication_error', message: 'invalid x-api-key (injected by mock.status)' },
  402: { type: 'billing_error', message: 'Your credit balance is too low (injected by mock.status).' },
  403: {
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource (injected by mock.status).',
  },
  404: {
    type: 'not_found_error',
    message: 'The requested resource was not found (injected by mock.status).',
  },
  413: {
    type: 'request_too_large',
    message: 'Request exceeds the maximum allowed number of bytes (injected by mock.status).',
  },
  429: {
    type: 'rate_limit_error',
    message: 'Number of requests has exceeded your rate limit (injected by mock.status).',
  },
  500: { type: 'api_error', message: 'Internal server error (injected by mock.status)' },
  504: { type: 'timeout_error', message: 'Request timed out (injected by mock.status)' },
  529: { type: 'overloaded_error', message: 'Overloaded (injected by mock.status)' },
};

/** The error `mock.status` injects: a known one for the status, else the class default. */
export function injectedErrorDetail(shape: Shape, status: number): ErrorDetail {
  const known = (shape === 'openai' ? OPENAI_INJECTED : ANTHROPIC_INJECTED)[status];
  if (known) return known;
  const message = `Error ${status} (injected by mock.status).`;
  if (status >= 500) return { type: shape === 'openai' ? 'server_error' : 'api_error', message };
  return { type: 'invalid_request_error', message };
}

export function injectedError(shape: Shape, status: number): Response {
  return errorResponse(shape, status, injectedErrorDetail(shape, status));
}

/** The provider's answer for a model it does not serve: OpenAI's 404 `model_not_found`, Anthropic's 404 `not_found_error`. */
export function modelNotFound(shape: Shape, model: string): Response {
  return shape === 'openai'
    ? errorResponse(shape, 404, {
        type: 'invalid_request_error',
        code: 'model_not_found',
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
      })
    : errorResponse(shape, 404, { type: 'not_found_error', message: `model: ${model}` });
}
