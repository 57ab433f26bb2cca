/** Reading token usage from a complete response body in either wire format (each client codec's `usage`). */
import { describe, expect, it } from 'vitest';
import { CLIENT_CODECS } from '../../../src/codecs/index';
import type { ClientFormat } from '../../../src/core/endpoints';
import { NO_USAGE } from '../../../src/core/usage';

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

  it('reads OpenAI reasoning tokens from completion_tokens_details, as part of the completion tokens', () => {
    const body = {
      usage: {
        prompt_tokens: 50,
        completion_tokens: 900,
        total_tokens: 950,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 832, audio_tokens: 0 },
      },
    };
    expect(usageFromJson('openai', body)).toEqual({
      ...NO_USAGE,
      inputTokens: 50,
      outputTokens: 900,
      reasoningTokens: 832,
    });
  });

  it('counts no cached tokens when an OpenAI body has no prompt_tokens_details', () => {
    expect(usageFromJson('openai', { usage: { prompt_tokens: 5, completion_tokens: 2 } })).toEqual({
      ...NO_USAGE,
      inputTokens: 5,
      outputTokens: 2,
    });
    expect(
      usageFromJson('openai', {
        usage: { prompt_tokens: 5, completion_tokens: 2, prompt_tokens_details: null },
      }),
    ).toEqual({ ...NO_USAGE, inputTokens: 5, outputTokens: 2 });
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
      cacheWriteTokens: 100,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("reads Anthropic's 1-hour cache writes from cache_creation.ephemeral_1h_input_tokens", () => {
    const body = {
      usage: {
        input_tokens: 3,
        output_tokens: 20,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 1500,
        cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
      },
    };
    expect(usageFromJson('anthropic', body)).toEqual({
      ...NO_USAGE,
      inputTokens: 1503,
      outputTokens: 20,
      cacheWriteTokens: 1500,
      cacheWrite1hTokens: 1000,
    });
  });

  it("reads only the names of the format it is given, never the other format's", () => {
    const openAiUsage = {
      usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 2 } },
    };
    const anthropicUsage = { usage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 2 } };
    expect(usageFromJson('anthropic', openAiUsage)).toEqual(NO_USAGE);
    expect(usageFromJson('openai', anthropicUsage)).toEqual(NO_USAGE);
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
          completion_tokens_details: { reasoning_tokens: '4' },
        },
      }),
    ).toEqual(NO_USAGE);
    expect(usageFromJson('openai', { usage: { prompt_tokens: 7, completion_tokens: null } })).toEqual({
      ...NO_USAGE,
      inputTokens: 7,
    });
    expect(
      usageFromJson('anthropic', {
        usage: {
          input_tokens: Number.NEGATIVE_INFINITY,
          output_tokens: 9,
          cache_read_input_tokens: { n: 1 },
          cache_creation: { ephemeral_1h_input_tokens: 'x' },
        },
      }),
    ).toEqual({ ...NO_USAGE, outputTokens: 9 });
    expect(usageFromJson('anthropic', { usage: {} })).toEqual(NO_USAGE);
  });
});
