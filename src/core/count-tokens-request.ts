/**
 * The body of POST /v1/messages/count_tokens (pure): a Messages body without
 * `max_tokens` (Anthropic's count_tokens takes none). It is checked as
 * /v1/messages is (model, messages, system, tools; every other field kept as
 * sent, for the provider) and becomes the typed request the stages read, as a
 * `messages` request that asks for no output: no stream, no output cap.
 */
import { badRequest } from './errors';
import { fromZod, type ProxyRequest } from './request';
import { MessagesRequest } from './request-schemas';

export const CountTokensRequest = MessagesRequest.omit({ max_tokens: true, stream: true });

export function parseCountTokensRequest(raw: unknown): ProxyRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('Request body must be a JSON object.', null, 'invalid_type');
  }
  const result = CountTokensRequest.safeParse(raw);
  if (!result.success) throw fromZod(result.error);
  const body = result.data as Record<string, unknown> & { model: string };
  return {
    endpoint: 'messages',
    body,
    model: body.model,
    stream: false,
    clientWantsUsage: false,
    maxOutputTokens: null,
    maxOutputTokensParam: null,
    choices: 1,
  };
}
