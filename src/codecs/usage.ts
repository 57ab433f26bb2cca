/** Token usage between the wire formats, the canonical counts and the gateway's Usage (pure). */
import type { Usage } from '../core/usage';
import type { TokenUsage } from './ir';
import { count, type Json, obj } from './json';

export const ZERO: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

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

/** Anthropic's `input_tokens` excludes cache reads and writes; the canonical `input` includes them. */
export function fromAnthropicUsage(u: Json): Partial<TokenUsage> {
  const out: { -readonly [K in keyof TokenUsage]?: number } = {};
  const read = count(u.cache_read_input_tokens);
  const write = count(u.cache_creation_input_tokens);
  if ('input_tokens' in u) out.input = count(u.input_tokens) + read + write;
  if ('output_tokens' in u) out.output = count(u.output_tokens);
  if ('cache_read_input_tokens' in u) out.cacheRead = read;
  if ('cache_creation_input_tokens' in u) out.cacheWrite = write;
  return out;
}

export function toAnthropicUsage(u: TokenUsage): Json {
  return {
    input_tokens: Math.max(0, u.input - u.cacheRead - u.cacheWrite),
    output_tokens: u.output,
    cache_read_input_tokens: u.cacheRead,
    cache_creation_input_tokens: u.cacheWrite,
  };
}

export function merge(base: TokenUsage, update: Partial<TokenUsage>): TokenUsage {
  return {
    input: update.input ?? base.input,
    output: update.output ?? base.output,
    cacheRead: update.cacheRead ?? base.cacheRead,
    cacheWrite: update.cacheWrite ?? base.cacheWrite,
  };
}

/** What the limits and the log count: every prompt token, of which `cachedTokens` were cache reads. */
export function gatewayUsage(u: TokenUsage): Usage {
  return { inputTokens: u.input, outputTokens: u.output, cachedTokens: u.cacheRead };
}
