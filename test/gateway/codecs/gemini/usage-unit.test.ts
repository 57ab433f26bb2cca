/** Gemini's usageMetadata as the canonical counts (src/codecs/gemini/usage.ts). */
import { describe, expect, it } from 'vitest';
import { usageFromGemini } from '../../../../src/codecs/gemini/usage';

describe('Gemini usage', () => {
  it('adds thoughtsTokenCount to candidatesTokenCount for the output, as its reasoning part', () => {
    const metadata = {
      promptTokenCount: 12,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 950,
      totalTokenCount: 1002,
    };
    expect(usageFromGemini(metadata)).toEqual({
      input: 12,
      output: 990,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 950,
    });
  });

  it('counts cachedContentTokenCount as part of promptTokenCount, and tool-use prompt tokens as input', () => {
    const metadata = {
      promptTokenCount: 30000,
      cachedContentTokenCount: 28000,
      toolUsePromptTokenCount: 500,
      candidatesTokenCount: 10,
    };
    expect(usageFromGemini(metadata)).toEqual({
      input: 30500,
      output: 10,
      cacheRead: 28000,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 0,
    });
  });
});
