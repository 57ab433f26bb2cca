/** OpenAI's usage object: to and from the canonical counts, and the gateway's Usage from a body or chunk (pure). */
import type { Usage } from '../../core/usage';
import type { TokenUsage } from '../ir';
import { count, type Json, obj, usageObject } from '../json';

/** OpenAI's usage object; `prompt_tokens` already includes cached tokens. */
export function fromOpenAiUsage(u: Json): TokenUsage {
  return {
    input: count(u.prompt_tokens),
    output: count(u.completion_tokens),
    cacheRead: count(obj(u.prompt_tokens_details)?.cached_tokens),
    cacheWrite: 0,
  };
}

export function toOpenAiUsage(u: TokenUsage): Json {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
  };
}

/** Usage from a complete (non-streamed) body or one stream chunk; null when it carries none. */
export function openAiUsage(body: unknown): Usage | null {
  const u = usageObject(body);
  if (!u) return null;
  return {
    inputTokens: count(u.prompt_tokens),
    outputTokens: count(u.completion_tokens),
    cachedTokens: count(obj(u.prompt_tokens_details)?.cached_tokens),
  };
}
