/**
 * GET /v1/models: the ids the mock advertises, and which model ids it serves:
 * the listed ones and the families below (README "Models"). Any other id gets
 * the provider's own not-found answer, so a gateway test that names a model no
 * provider has fails as it would upstream.
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

/** Id prefixes of the model families the mock answers for. */
const SERVED_PREFIXES = [
  'echo',
  'mock-',
  'claude-',
  'gpt-',
  'gemini-',
  'text-embedding-',
  'anthropic.',
  'amazon.',
  'meta.',
  '@cf/',
];

/** The model's name: the id without the controls written after `;`. */
export function modelName(model: string): string {
  const cut = model.indexOf(';');
  return cut < 0 ? model : model.slice(0, cut);
}

/** True for an id the mock serves (controls after `;` ignored). */
export function isServedModel(model: string): boolean {
  const name = modelName(model);
  return (
    (MODEL_IDS as readonly string[]).includes(name) ||
    SERVED_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    // Bedrock's cross-region inference profiles: us., eu., apac., global. before the model id.
    /^[a-z]{2,6}\.(?:anthropic|amazon|meta)\./.test(name) ||
    /^o\d/.test(name) ||
    name.includes('reason') ||
    name.includes('think')
  );
}
