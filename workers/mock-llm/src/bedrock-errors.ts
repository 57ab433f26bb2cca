/**
 * Bedrock's error envelope: `{"message": …}` with the error's type in the
 * `x-amzn-errortype` header (`ValidationException:http://internal.amazon.com/coral/…`)
 * and a UUID in `x-amzn-requestid`; and the errors `mock.status` injects on the
 * Bedrock routes, by status, as the real service names them.
 */
import { jsonResponse } from './http';

const CORAL = 'http://internal.amazon.com/coral/com.amazon.bedrock/';
const AUTH_CORAL = 'http://internal.amazon.com/coral/com.amazon.coral.service/';

/** Types raised by the signature check, which AWS answers from its own namespace. */
const AUTH_TYPES = new Set([
  'MissingAuthenticationTokenException',
  'IncompleteSignatureException',
  'InvalidSignatureException',
  'UnrecognizedClientException',
]);

export const newAwsRequestId = (): string => crypto.randomUUID();

export function bedrockError(status: number, type: string, message: string): Response {
  return jsonResponse({ message }, status, {
    'x-amzn-errortype': `${type}:${AUTH_TYPES.has(type) ? AUTH_CORAL : CORAL}`,
    'x-amzn-requestid': newAwsRequestId(),
  });
}

export const validationError = (message: string): Response =>
  bedrockError(400, 'ValidationException', message);

/** The error Bedrock answers with for a status, as `mock.status` injects it. */
export function injectedBedrockError(status: number): { type: string; message: string } {
  const known: Record<number, { type: string; message: string }> = {
    400: { type: 'ValidationException', message: 'The provided request is not valid.' },
    403: {
      type: 'AccessDeniedException',
      message: "You don't have access to the model with the specified model ID.",
    },
    404: { type: 'ResourceNotFoundException', message: 'The requested resource could not be found.' },
    408: { type: 'ModelTimeoutException', message: 'The request took too long to process.' },
    424: {
      type: 'ModelErrorException',
      message: 'The system encountered an unexpected error during processing.',
    },
    429: { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
    500: { type: 'InternalServerException', message: 'The server encountered an internal error.' },
    503: { type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' },
  };
  const detail = known[status] ?? (status >= 500 ? known[500] : known[400]);
  return {
    type: (detail as { type: string }).type,
    message: `${(detail as { message: string }).message} (injected by mock.status)`,
  };
}
