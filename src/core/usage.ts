/**
 * Token usage, the one measure that limits, logs, cost and the cache share. Each client format's
 * codec reads it from that format's bodies and stream events (src/codecs/<format>/usage.ts); the
 * translated path makes it from the canonical counts (src/codecs/usage.ts).
 *
 * `inputTokens` is every prompt token, cached or not, and `outputTokens` every generated token,
 * reasoning included: limits and budgets count those two. The other fields are parts of them that
 * are priced differently (src/core/cost.ts).
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens read from the provider's prompt cache (part of inputTokens). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's prompt cache, any TTL (part of inputTokens). */
  cacheWriteTokens: number;
  /** The part of cacheWriteTokens written with a 1-hour TTL. */
  cacheWrite1hTokens: number;
  /** Reasoning (thinking) tokens, part of outputTokens. */
  reasoningTokens: number;
}

export const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 0,
};

/** A Usage with only the plain counts known (embeddings, estimates): no cache and no reasoning. */
export const plainUsage = (inputTokens: number, outputTokens: number): Usage => ({
  ...NO_USAGE,
  inputTokens,
  outputTokens,
});
