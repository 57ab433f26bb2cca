/**
 * Anthropic's usage object: to and from the canonical counts, and the gateway's Usage from a body or
 * stream events (pure). Anthropic's `input_tokens` excludes cache reads (`cache_read_input_tokens`) and
 * writes (`cache_creation_input_tokens`, split by TTL in `cache_creation.ephemeral_5m_input_tokens` /
 * `ephemeral_1h_input_tokens`); the canonical `input` includes both. Thinking tokens are part of
 * `output_tokens` and not reported apart, so reasoning reads as 0 and is not written.
 */
import type { Usage } from '../../core/usage';
import type { TokenUsage } from '../ir';
import { count, type Json, obj, usageObject } from '../json';

/** The fields of one usage object that it carries (message_delta repeats only some). */
export function fromAnthropicUsage(u: Json): Partial<TokenUsage> {
  const out: { -readonly [K in keyof TokenUsage]?: number } = {};
  const read = count(u.cache_read_input_tokens);
  const write = count(u.cache_creation_input_tokens);
  if ('input_tokens' in u) out.input = count(u.input_tokens) + read + write;
  if ('output_tokens' in u) out.output = count(u.output_tokens);
  if ('cache_read_input_tokens' in u) out.cacheRead = read;
  if ('cache_creation_input_tokens' in u) out.cacheWrite = write;
  const creation = obj(u.cache_creation);
  if (creation) out.cacheWrite1h = count(creation.ephemeral_1h_input_tokens);
  return out;
}

export function toAnthropicUsage(u: TokenUsage): Json {
  const write1h = Math.min(u.cacheWrite1h, u.cacheWrite);
  return {
    input_tokens: Math.max(0, u.input - u.cacheRead - u.cacheWrite),
    output_tokens: u.output,
    cache_read_input_tokens: u.cacheRead,
    cache_creation_input_tokens: u.cacheWrite,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWrite - write1h, ephemeral_1h_input_tokens: write1h },
  };
}

/** Usage from a complete (non-streamed) body; null when it carries none. */
export function anthropicUsage(body: unknown): Usage | null {
  const u = usageObject(body);
  if (!u) return null;
  const counts = noAnthropicCounts();
  readAnthropicCounts(u, counts);
  return usageOfCounts(counts);
}

/**
 * The raw counts of a relayed stream, each kept from the last event that carried it (message_start has
 * them all, message_delta the output and, on newer models, the input again), so `input_tokens` is summed
 * with the cache counts of whichever event reported them.
 */
export interface AnthropicCounts {
  input: number;
  read: number;
  write: number;
  write1h: number;
  output: number;
}

export const noAnthropicCounts = (): AnthropicCounts => ({
  input: 0,
  read: 0,
  write: 0,
  write1h: 0,
  output: 0,
});

export function readAnthropicCounts(u: Json, into: AnthropicCounts): void {
  if ('input_tokens' in u) into.input = count(u.input_tokens);
  if ('cache_read_input_tokens' in u) into.read = count(u.cache_read_input_tokens);
  if ('cache_creation_input_tokens' in u) into.write = count(u.cache_creation_input_tokens);
  const creation = obj(u.cache_creation);
  if (creation) into.write1h = count(creation.ephemeral_1h_input_tokens);
  if ('output_tokens' in u) into.output = count(u.output_tokens);
}

export function usageOfCounts(c: AnthropicCounts): Usage {
  return {
    inputTokens: c.input + c.read + c.write,
    outputTokens: c.output,
    cachedTokens: c.read,
    cacheWriteTokens: c.write,
    cacheWrite1hTokens: c.write1h,
    reasoningTokens: 0,
  };
}
