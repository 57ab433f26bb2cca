/** Bedrock Converse's TokenUsage as the canonical counts (src/codecs/bedrock/usage.ts). */
import { describe, expect, it } from 'vitest';
import { fromBedrockUsage } from '../../../../src/codecs/bedrock/usage';

describe('Bedrock usage', () => {
  it('adds cache reads and writes back to inputTokens, and reads the 1-hour writes from cacheDetails', () => {
    const usage = {
      inputTokens: 40,
      outputTokens: 12,
      totalTokens: 4052,
      cacheReadInputTokens: 1000,
      cacheWriteInputTokens: 3000,
      cacheDetails: [
        { ttl: '1h', inputTokens: 2000 },
        { ttl: '5m', inputTokens: 1000 },
      ],
    };
    expect(fromBedrockUsage(usage)).toEqual({
      input: 4040,
      output: 12,
      cacheRead: 1000,
      cacheWrite: 3000,
      cacheWrite1h: 2000,
      reasoning: 0,
    });
  });

  it('counts every write as 5-minute when cacheDetails is absent', () => {
    expect(fromBedrockUsage({ inputTokens: 5, outputTokens: 1, cacheWriteInputTokens: 700 })).toEqual({
      input: 705,
      output: 1,
      cacheRead: 0,
      cacheWrite: 700,
      cacheWrite1h: 0,
      reasoning: 0,
    });
  });
});
