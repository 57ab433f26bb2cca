/** Anthropic's usage object: to and from the canonical counts, and the gateway's Usage from a body (pure). */
import type { Usage } from '../../core/usage';
import type { TokenUsage } from '../ir';
import { count, type Json, usageObject } from '../json';

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

/** Usage from a complete (non-streamed) body; null when it carries none. */
export function anthropicUsage(body: unknown): Usage | null {
  const u = usageObject(body);
  if (!u) return null;
  // Anthropic's input_tokens leaves out cache reads and writes; inputTokens counts every prompt token.
  return {
    inputTokens:
      count(u.input_tokens) + count(u.cache_read_input_tokens) + count(u.cache_creation_input_tokens),
    outputTokens: count(u.output_tokens),
    cachedTokens: count(u.cache_read_input_tokens),
  };
}
