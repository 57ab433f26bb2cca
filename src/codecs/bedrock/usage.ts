/**
 * Bedrock Converse's `TokenUsage` as the canonical counts (pure). `inputTokens` excludes
 * `cacheReadInputTokens` and `cacheWriteInputTokens`; the canonical `input` includes both.
 * `cacheDetails` splits the writes by TTL (`{ttl: '5m' | '1h', inputTokens}`), which gives the
 * 1-hour part. Converse reports no reasoning count (thinking is part of `outputTokens`).
 */
import type { TokenUsage } from '../ir';
import { arr, count, type Json, obj } from '../json';

export function fromBedrockUsage(u: Json): TokenUsage {
  const read = count(u.cacheReadInputTokens);
  const write = count(u.cacheWriteInputTokens);
  let write1h = 0;
  for (const detail of arr(u.cacheDetails)) {
    const d = obj(detail);
    if (d?.ttl === '1h') write1h += count(d.inputTokens);
  }
  return {
    input: count(u.inputTokens) + read + write,
    output: count(u.outputTokens),
    cacheRead: read,
    cacheWrite: write,
    cacheWrite1h: Math.min(write1h, write),
    reasoning: 0,
  };
}
