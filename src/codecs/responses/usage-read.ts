/**
 * The gateway's Usage from a Responses answer (pure): a JSON response's `usage`, or the `response.usage`
 * of a stream event (the terminal `response.completed` / `incomplete` / `failed` carries it; earlier
 * events carry `usage: null`). `input_tokens` already counts `input_tokens_details.cached_tokens` and
 * `output_tokens` already counts `output_tokens_details.reasoning_tokens`, as the gateway's counts do;
 * cache writes stay plain input tokens, as on OpenAI's chat format (src/codecs/openai/usage.ts).
 */
import type { Usage } from '../../core/usage';
import { count, type Json, obj } from '../json';
import { gatewayUsage } from '../usage';

export function responsesUsage(body: unknown): Usage | null {
  const holder = obj(body);
  const u = obj(holder?.usage) ?? obj(obj(holder?.response)?.usage);
  return u ? gatewayUsage(countsOf(u)) : null;
}

function countsOf(u: Json) {
  return {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(obj(u.input_tokens_details)?.cached_tokens),
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: count(obj(u.output_tokens_details)?.reasoning_tokens),
  };
}
