/** Reading token usage from a complete response body in either wire format (each client codec's `usage`). */
import { describe, expect, it } from 'vitest';
import { CLIENT_CODECS } from '../../../src/codecs/index';
import type { ClientFormat } from '../../../src/core/endpoints';

const usageFromJson = (format: ClientFormat, body: unknown) => CLIENT_CODECS[format].usage(body);

describe('usageFromJson', () => {
  it('reads OpenAI prompt, completion and cached tokens (cached from prompt_tokens_details)', () => {
    const body = {
      id: 'c1',
      usage: {
        prompt_tokens: 120,
        completion_tokens: 30,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 64 },
      },
    };
    expect(usageFromJson('openai', body)).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      cachedTokens: 64,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('counts no cached tokens when an OpenAI body has no prompt_tokens_details', () => {
    expect(usageFromJson('openai', { usage: { prompt_tokens: 5, completion_tokens: 2 } })).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      cachedTokens: 0,
    });
    expect(
      usageFromJson('openai', {
        usage: { prompt_tokens: 5, completion_tokens: 2, prompt_tokens_details: null },
      }),
    ).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('reads Anthropic usage, counting cache reads and writes as input (Anthropic leaves them out of input_tokens)', () => {
    const body = {
      type: 'message',
      usage: {
        input_tokens: 40,
        output_tokens: 12,
        cache_read_input_tokens: 8,
        cache_creation_input_tokens: 100,
      },
    };
    expect(usageFromJson('anthropic', body)).toEqual({
      inputTokens: 148,
      outputTokens: 12,
      cachedTokens: 8,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("reads only the names of the format it is given, never the other format's", () => {
    const openAiUsage = {
      usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 2 } },
    };
    const anthropicUsage = { usage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 2 } };
    expect(usageFromJson('anthropic', openAiUsage)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
    });
    expect(usageFromJson('openai', anthropicUsage)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
    });
  });

  it('returns null when the body carries no usage object', () => {
    for (const format of ['openai', 'anthropic'] as const) {
      expect(usageFromJson(format, { id: 'c1' })).toBeNull();
      expect(usageFromJson(format, { usage: null })).toBeNull();
      expect(usageFromJson(format, { usage: 42 })).toBeNull();
      expect(usageFromJson(format, { usage: 'lots' })).toBeNull();
      expect(usageFromJson(format, null)).toBeNull();
      expect(usageFromJson(format, undefined)).toBeNull();
      expect(usageFromJson(format, 'not a body')).toBeNull();
    }
  });

  it('counts a missing, non-number or non-finite count as 0 and keeps the others', () => {
    expect(
      usageFromJson('openai', {
        usage: {
          prompt_tokens: '12',
          completion_tokens: Number.NaN,
          prompt_tokens_details: { cached_tokens: Number.POSITIVE_INFINITY },
        },
      }),
    ).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
    });
    expect(usageFromJson('openai', { usage: { prompt_tokens: 7, completion_tokens: null } })).toEqual({
      inputTokens: 7,
      outputTokens: 0,
      cachedTokens: 0,
    });
    expect(
      usageFromJson('anthropic', {
        usage: {
          input_tokens: Number.NEGATIVE_INFINITY,
          output_tokens: 9,
          cache_read_input_tokens: { n: 1 },
        },
      }),
    ).toEqual({
      inputTokens: 0,
      outputTokens: 9,
      cachedTokens: 0,
    });
    expect(usageFromJson('anthropic', { usage: {} })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
    });
  });
});
