/**
 * Gemini's `usageMetadata` as the canonical counts (pure). `promptTokenCount` already includes
 * `cachedContentTokenCount`, as the canonical `input` does (tool-use prompt tokens are added, being
 * billed as input); `thoughtsTokenCount` is NOT part of `candidatesTokenCount`, so the canonical
 * `output` is their sum, with the thoughts as its reasoning part. Gemini charges no cache writes
 * (implicit caching is free to write; explicit caches are billed for storage, outside a request).
 */
import type { TokenUsage } from '../ir';
import { count, type Json } from '../json';

export function usageFromGemini(u: Json): TokenUsage {
  const thoughts = count(u.thoughtsTokenCount);
  return {
    input: count(u.promptTokenCount) + count(u.toolUsePromptTokenCount),
    output: count(u.candidatesTokenCount) + thoughts,
    cacheRead: count(u.cachedContentTokenCount),
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: thoughts,
  };
}
