/** The body sent upstream: the client's, with the provider's model id and, for OpenAI streams, usage requested (pure). */
import type { ProxyRequest } from './request';

export function upstreamBody(request: ProxyRequest, upstreamModel: string, format: 'openai' | 'anthropic'): string {
  const body: Record<string, unknown> = { ...request.body, model: upstreamModel };
  if (request.stream && format === 'openai' && request.endpoint === 'chat') {
    const clientOptions = typeof request.body.stream_options === 'object' && request.body.stream_options !== null ? request.body.stream_options : {};
    body.stream_options = { ...clientOptions, include_usage: true };
  }
  return JSON.stringify(body);
}
