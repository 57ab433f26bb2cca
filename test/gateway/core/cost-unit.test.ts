/**
 * What a turn costs, from the usage each provider reports (through the codec that reads it) to USD at the
 * provider's published prices (src/core/pricing.json), with the arithmetic written out: per provider
 * format, an uncached turn and a cached one. Prices are USD per 1M tokens, so each sum is divided by 1e6.
 */
import { describe, expect, it } from 'vitest';
import { anthropicUpstream } from '../../../src/codecs/anthropic/index';
import { bedrockUpstream } from '../../../src/codecs/bedrock/index';
import { geminiUpstream } from '../../../src/codecs/gemini/index';
import type { Json } from '../../../src/codecs/json';
import { openAiUpstream } from '../../../src/codecs/openai/index';
import { gatewayUsage } from '../../../src/codecs/usage';
import { costUsd, priceOf } from '../../../src/core/cost';
import type { Usage } from '../../../src/core/usage';

const anthropicAnswer = (usage: Json) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'Hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage,
});
const openAiAnswer = (usage: Json) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'o4-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
  usage,
});
const geminiAnswer = (usageMetadata: Json) => ({
  candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata,
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
});
const bedrockAnswer = (usage: Json) => ({
  output: { message: { role: 'assistant', content: [{ text: 'Hi' }] } },
  stopReason: 'end_turn',
  usage,
  metrics: { latencyMs: 100 },
});

function usageOf(decoded: { usage: Parameters<typeof gatewayUsage>[0] | null }): Usage {
  if (!decoded.usage) throw new Error('no usage decoded');
  return gatewayUsage(decoded.usage);
}

describe('cost per provider format, as the provider bills it', () => {
  it('Anthropic, uncached: input × $3 + output × $15 (claude-sonnet-4-5)', () => {
    const usage = usageOf(
      anthropicUpstream.decodeResponse(anthropicAnswer({ input_tokens: 1200, output_tokens: 300 })),
    );
    expect(costUsd(priceOf('anthropic/claude-sonnet-4-5'), usage)).toBeCloseTo(
      (1200 * 3 + 300 * 15) / 1e6,
      12,
    );
  });

  it('Anthropic, cached: reads × $0.30, 5-minute writes × $3.75, 1-hour writes × $6 (claude-sonnet-4-5)', () => {
    const usage = usageOf(
      anthropicUpstream.decodeResponse(
        anthropicAnswer({
          input_tokens: 50,
          output_tokens: 400,
          cache_read_input_tokens: 10000,
          cache_creation_input_tokens: 3000,
          cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
        }),
      ),
    );
    expect(usage).toEqual({
      inputTokens: 13050,
      outputTokens: 400,
      cachedTokens: 10000,
      cacheWriteTokens: 3000,
      cacheWrite1hTokens: 2000,
      reasoningTokens: 0,
    });
    const billed = 50 * 3 + 10000 * 0.3 + 1000 * 3.75 + 2000 * 6 + 400 * 15;
    expect(costUsd(priceOf('anthropic/claude-sonnet-4-5'), usage)).toBeCloseTo(billed / 1e6, 12);
  });

  it('OpenAI, uncached: prompt × $2 + completion × $8 (gpt-4.1)', () => {
    const usage = usageOf(
      openAiUpstream.decodeResponse(
        openAiAnswer({ prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 }),
      ),
    );
    expect(costUsd(priceOf('openai/gpt-4.1'), usage)).toBeCloseTo((1000 * 2 + 200 * 8) / 1e6, 12);
  });

  it('OpenAI, cached with reasoning: uncached prompt × $1.10, cached × $0.275, completion (reasoning in it) × $4.40 (o4-mini)', () => {
    const usage = usageOf(
      openAiUpstream.decodeResponse(
        openAiAnswer({
          prompt_tokens: 5000,
          completion_tokens: 1200,
          total_tokens: 6200,
          prompt_tokens_details: { cached_tokens: 4096 },
          completion_tokens_details: { reasoning_tokens: 1000 },
        }),
      ),
    );
    expect(usage.reasoningTokens).toBe(1000);
    const billed = (5000 - 4096) * 1.1 + 4096 * 0.275 + 1200 * 4.4;
    expect(costUsd(priceOf('openai/o4-mini'), usage)).toBeCloseTo(billed / 1e6, 12);
  });

  it('Gemini, uncached: prompt × $0.30 + (candidates + thoughts) × $2.50 (gemini-2.5-flash)', () => {
    const usage = usageOf(
      geminiUpstream.decodeResponse(
        geminiAnswer({
          promptTokenCount: 2000,
          candidatesTokenCount: 100,
          thoughtsTokenCount: 400,
          totalTokenCount: 2500,
        }),
      ),
    );
    expect(usage).toMatchObject({ outputTokens: 500, reasoningTokens: 400 });
    expect(costUsd(priceOf('gemini/gemini-2.5-flash'), usage)).toBeCloseTo(
      (2000 * 0.3 + (100 + 400) * 2.5) / 1e6,
      12,
    );
  });

  it('Gemini, cached: (prompt − cached) × $0.30 + cached × $0.03 + candidates × $2.50 (gemini-2.5-flash)', () => {
    const usage = usageOf(
      geminiUpstream.decodeResponse(
        geminiAnswer({
          promptTokenCount: 10000,
          cachedContentTokenCount: 8000,
          candidatesTokenCount: 50,
          totalTokenCount: 10050,
        }),
      ),
    );
    const billed = (10000 - 8000) * 0.3 + 8000 * 0.03 + 50 * 2.5;
    expect(costUsd(priceOf('gemini/gemini-2.5-flash'), usage)).toBeCloseTo(billed / 1e6, 12);
  });

  it('Bedrock, uncached: inputTokens × $3 + outputTokens × $15 (Claude 3.5 Sonnet)', () => {
    const usage = usageOf(
      bedrockUpstream.decodeResponse(
        bedrockAnswer({ inputTokens: 800, outputTokens: 100, totalTokens: 900 }),
      ),
    );
    const model = 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0';
    expect(costUsd(priceOf(model), usage)).toBeCloseTo((800 * 3 + 100 * 15) / 1e6, 12);
  });

  it('Bedrock, cached: reads × $0.30, 5-minute writes × $3.75, 1-hour writes × $6, as Anthropic bills (Claude Sonnet 4.5)', () => {
    const usage = usageOf(
      bedrockUpstream.decodeResponse(
        bedrockAnswer({
          inputTokens: 20,
          outputTokens: 60,
          totalTokens: 7580,
          cacheReadInputTokens: 5000,
          cacheWriteInputTokens: 2500,
          cacheDetails: [
            { ttl: '1h', inputTokens: 500 },
            { ttl: '5m', inputTokens: 2000 },
          ],
        }),
      ),
    );
    const billed = 20 * 3 + 5000 * 0.3 + 2000 * 3.75 + 500 * 6 + 60 * 15;
    const model = 'bedrock/global.anthropic.claude-sonnet-4-5-20250929-v1:0';
    expect(costUsd(priceOf(model), usage)).toBeCloseTo(billed / 1e6, 12);
  });
});

describe('costUsd', () => {
  const price = { input: 2, output: 10, cached: 0.2, cache_write: 2.5, cache_write_1h: 4 };
  const base: Usage = {
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
  };

  it('prices reasoning tokens as the output they are part of, never twice', () => {
    const withReasoning = costUsd(price, { ...base, outputTokens: 100, reasoningTokens: 80 });
    expect(withReasoning).toBeCloseTo((100 * 10) / 1e6, 12);
  });

  it('never prices a 1-hour write above the writes reported, nor a negative uncached input', () => {
    const odd = { ...base, inputTokens: 10, cachedTokens: 8, cacheWriteTokens: 5, cacheWrite1hTokens: 9 };
    expect(costUsd(price, odd)).toBeCloseTo((8 * 0.2 + 5 * 4) / 1e6, 12);
  });
});
