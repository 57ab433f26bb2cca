/**
 * GET /v1/models: the ids the mock advertises. Any model id is accepted on the
 * other routes; these are just the ones worth knowing (see README).
 */
import { hasAnthropicKey, hasBearerKey, missingOpenAIKey } from './auth';
import { newRequestId } from './http';

export const MODEL_IDS = [
  'echo',
  'mock-small',
  'mock-large',
  'text-embedding-3-small',
  'claude-mock',
] as const;

/** A fixed date (2023-11-14), so the listing is byte-for-byte stable. */
const CREATED = 1_700_000_000;

const BODY = JSON.stringify({
  object: 'list',
  data: MODEL_IDS.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'mock' })),
});

/** Both providers serve this path, so either credential style is accepted. */
export function handleModels(request: Request): Response {
  if (!hasBearerKey(request) && !hasAnthropicKey(request)) return missingOpenAIKey();
  return new Response(BODY, {
    headers: { 'content-type': 'application/json', 'x-request-id': newRequestId() },
  });
}
