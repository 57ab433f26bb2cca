/**
 * The body sent to a provider that speaks OpenAI's format itself (pure): the
 * client's, with the provider's model id; for chat streams, usage requested
 * (the observer drops that chunk when the client did not ask for it); and when
 * the limits stage reserved an output cap for a request that set none, that
 * cap, so the provider can never produce more than was reserved.
 */
import type { ProxyRequest } from '../../core/request';
import type { PassThroughOptions } from '../codec';

/** The provider whose own API deprecates `max_tokens` (reasoning models refuse it). */
const MAX_COMPLETION_TOKENS_PROVIDER = 'openai';

export function openAiPassThrough(request: ProxyRequest, options: PassThroughOptions): string {
  const body: Record<string, unknown> = { ...request.body, model: options.upstreamModel };
  if (request.stream && request.endpoint === 'chat') {
    const clientOptions =
      typeof request.body.stream_options === 'object' && request.body.stream_options !== null
        ? request.body.stream_options
        : {};
    body.stream_options = { ...clientOptions, include_usage: true };
  }
  if (options.outputCap !== undefined && request.maxOutputTokens === null && request.endpoint === 'chat') {
    // Compatible providers still expect max_tokens.
    const field =
      options.providerId === MAX_COMPLETION_TOKENS_PROVIDER ? 'max_completion_tokens' : 'max_tokens';
    body[field] = options.outputCap;
  }
  return JSON.stringify(body);
}
