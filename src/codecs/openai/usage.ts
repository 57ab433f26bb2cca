/**
 * OpenAI's usage object: to and from the canonical counts, and the gateway's Usage from a body or chunk (pure).
 * `prompt_tokens` already includes `prompt_tokens_details.cached_tokens`, and `completion_tokens` already
 * includes `completion_tokens_details.reasoning_tokens`, as the canonical counts do. The format has no
 * field for cache writes (OpenAI does not charge them): written to an OpenAI client they stay plain
 * prompt tokens.
 */
import type { Usage } from '../../core/usage';
import type { TokenUsage } from '../ir';
import { count, type Json, obj, usageObject } from '../json';
import { gatewayUsage } from '../usage';

export function fromOpenAiUsage(u: Json): TokenUsage {
  return {
    input: count(u.prompt_tokens),
    output: count(u.completion_tokens),
    cacheRead: count(obj(u.prompt_tokens_details)?.cached_tokens),
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: count(obj(u.completion_tokens_details)?.reasoning_tokens),
  };
}

export function toOpenAiUsage(u: TokenUsage): Json {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
  };
}

/** Usage from a complete (non-streamed) body or one stream chunk; null when it carries none. */
export function openAiUsage(body: unknown): Usage | null {
  const u = usageObject(body);
  return u ? gatewayUsage(fromOpenAiUsage(u)) : null;
}
