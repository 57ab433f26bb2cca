/** OpenAI's usage object read into and written from the canonical counts (src/codecs/openai/usage.ts). */
import { describe, expect, it } from 'vitest';
import { fromOpenAiUsage, toOpenAiUsage } from '../../../../src/codecs/openai/usage';

describe('OpenAI usage', () => {
  it('reads cache reads and reasoning as parts of prompt_tokens and completion_tokens', () => {
    const usage = {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 256, audio_tokens: 0 },
    };
    expect(fromOpenAiUsage(usage)).toEqual({
      input: 2006,
      output: 300,
      cacheRead: 1920,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 256,
    });
  });

  it('writes cached_tokens and reasoning_tokens in their details objects, prompt_tokens counting every prompt token', () => {
    const canonical = {
      input: 900,
      output: 120,
      cacheRead: 512,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 64,
    };
    expect(toOpenAiUsage(canonical)).toEqual({
      prompt_tokens: 900,
      completion_tokens: 120,
      total_tokens: 1020,
      prompt_tokens_details: { cached_tokens: 512 },
      completion_tokens_details: { reasoning_tokens: 64 },
    });
    expect(fromOpenAiUsage(toOpenAiUsage(canonical))).toEqual(canonical);
  });

  it('leaves cache writes in prompt_tokens, the format having no field for them', () => {
    const written = toOpenAiUsage({
      input: 3000,
      output: 10,
      cacheRead: 0,
      cacheWrite: 2800,
      cacheWrite1h: 800,
      reasoning: 0,
    });
    expect(written.prompt_tokens).toBe(3000);
    expect(fromOpenAiUsage(written)).toMatchObject({ input: 3000, cacheWrite: 0, cacheWrite1h: 0 });
  });
});
