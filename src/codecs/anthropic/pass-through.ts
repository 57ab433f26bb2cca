/**
 * The body sent to a provider that speaks Anthropic's Messages format itself
 * (pure): the client's, with the provider's model id. No output cap is added:
 * Messages requires `max_tokens`, so every request already carries one.
 */
import type { ProxyRequest } from '../../core/request';
import type { PassThroughOptions } from '../codec';

export function anthropicPassThrough(request: ProxyRequest, options: PassThroughOptions): string {
  return JSON.stringify({ ...request.body, model: options.upstreamModel });
}
