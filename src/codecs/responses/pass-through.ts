/**
 * The body sent to a provider that speaks the Responses API itself (OpenAI, Azure, the mock), pure:
 * the client's, with the provider's model id (Azure's deployment), and
 * - `store: false` always: the gateway keeps responses itself, so every provider is called statelessly
 *   and a `previous_response_id` names the gateway's record, never the provider's (the gateway has
 *   already expanded it into `input` and removed it; it is removed here too, so it can never reach one);
 * - when the gateway will keep the answer (the client's `store` is not false), `include` asks for
 *   `reasoning.encrypted_content`, so the reasoning can be sent back from the gateway's store;
 * - when the limits stage reserved an output cap for a request that set none, `max_output_tokens`
 *   (at least 16, OpenAI's minimum), so the provider can never produce more than was reserved.
 */
import type { ProxyRequest } from '../../core/request';
import type { PassThroughOptions } from '../codec';

/** OpenAI refuses a `max_output_tokens` below 16. */
const MIN_OUTPUT_TOKENS = 16;
const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

export function responsesPassThrough(request: ProxyRequest, options: PassThroughOptions): string {
  const client = request.body;
  const body: Record<string, unknown> = { ...client, model: options.upstreamModel, store: false };
  delete body.previous_response_id;
  if (options.outputCap !== undefined && client.max_output_tokens == null)
    body.max_output_tokens = Math.max(MIN_OUTPUT_TOKENS, options.outputCap);
  if (client.store !== false) {
    const include = Array.isArray(client.include) ? client.include : [];
    if (!include.includes(ENCRYPTED_REASONING)) body.include = [...include, ENCRYPTED_REASONING];
  }
  return JSON.stringify(body);
}
