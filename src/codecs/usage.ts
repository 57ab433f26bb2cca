/**
 * Token usage shared by every format: the canonical counts, merging a stream's updates, and the
 * gateway's Usage. Each format's own usage object is read and written in its folder (`<format>/usage.ts`).
 */
import type { Usage } from '../core/usage';
import type { TokenUsage } from './ir';

export const ZERO: TokenUsage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  reasoning: 0,
};

export function merge(base: TokenUsage, update: Partial<TokenUsage>): TokenUsage {
  return {
    input: update.input ?? base.input,
    output: update.output ?? base.output,
    cacheRead: update.cacheRead ?? base.cacheRead,
    cacheWrite: update.cacheWrite ?? base.cacheWrite,
    cacheWrite1h: update.cacheWrite1h ?? base.cacheWrite1h,
    reasoning: update.reasoning ?? base.reasoning,
  };
}

/** What the limits, the log and the cost count: every prompt token and every output token, with their priced parts. */
export function gatewayUsage(u: TokenUsage): Usage {
  return {
    inputTokens: u.input,
    outputTokens: u.output,
    cachedTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite,
    cacheWrite1hTokens: u.cacheWrite1h,
    reasoningTokens: u.reasoning,
  };
}
