/**
 * The body sent upstream (pure): the client's, with the provider's model id;
 * for OpenAI streams, usage requested; and when the limits stage reserved an
 * output cap for a request that set none, that cap, so the provider can never
 * produce more than was reserved.
 */
import type { ProxyRequest } from '../core/request';

export interface UpstreamBodyOptions {
  readonly upstreamModel: string;
  readonly format: 'openai' | 'anthropic';
  readonly providerId: string;
  readonly outputCap?: number;
}

export function upstreamBody(request: ProxyRequest, options: UpstreamBodyOptions): string {
  const body: Record<string, unknown> = { ...request.body, model: options.upstreamModel };
  if (request.stream && options.format === 'openai' && request.endpoint === 'chat') {
    const clientOptions =
      typeof request.body.stream_options === 'object' && request.body.stream_options !== null
        ? request.body.stream_options
        : {};
    body.stream_options = { ...clientOptions, include_usage: true };
  }
  if (options.outputCap !== undefined && request.maxOutputTokens === null && request.endpoint === 'chat') {
    // OpenAI's own API deprecates max_tokens (reasoning models refuse it); compatible providers still expect it.
    body[options.providerId === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = options.outputCap;
  }
  return JSON.stringify(body);
}
