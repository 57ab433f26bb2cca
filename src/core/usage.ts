/**
 * Token usage, the one measure that limits, logs, cost and the cache share. Each client format's
 * codec reads it from that format's bodies and stream events (src/codecs/<format>/usage.ts).
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
