/**
 * Credential checks as the real providers do them: OpenAI wants
 * `Authorization: Bearer <key>`, Anthropic wants `x-api-key`. Any non-empty key
 * is accepted; the mock only checks that a client sends one the right way.
 */
import { errorResponse } from './errors';

export function hasBearerKey(request: Request): boolean {
  return /^Bearer\s+\S/i.test(request.headers.get('authorization') ?? '');
}

export function hasAnthropicKey(request: Request): boolean {
  return (request.headers.get('x-api-key') ?? '').trim() !== '';
}

export function missingOpenAIKey(): Response {
  return errorResponse('openai', 401, {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message:
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
  });
}

export function missingAnthropicKey(): Response {
  return errorResponse('anthropic', 401, {
    type: 'authentication_error',
    message: 'x-api-key header is required',
  });
}
