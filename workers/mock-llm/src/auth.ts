/**
 * Credential checks as the real providers do them: OpenAI wants
 * `Authorization: Bearer <key>`, Anthropic wants `x-api-key`. Any non-empty key
 * is accepted; the mock only checks that a client sends one the right way,
 * and tells which one in a hash (KEY_HASH_HEADER) on chat answers.
 */
import { presentedKey } from './body-faults';
import { errorResponse } from './errors';

/** Answers carry the hash of the key they were called with, so a test can tell which key arrived (never the key). */
export const KEY_HASH_HEADER = 'x-mock-key-sha256';

/** Hex SHA-256 of the credential the request presents (Bearer value or x-api-key). */
export async function presentedKeySha256(request: Request): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(presentedKey(request)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

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
