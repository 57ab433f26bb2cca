/**
 * Usage and cost are the same across formats for the same turn. The gateway counts a provider's answer
 * either from the client format's own reader (a same-format provider, passed through) or from the
 * canonical counts (a translated one): both must give the same Usage, JSON and streamed. And one
 * canonical turn written by each client codec reads back as the same Usage and cost, as far as the
 * format can carry it (OpenAI's has no cache-write field, Anthropic's no reasoning count).
 */
import { describe, expect, it } from 'vitest';
import { anthropicClient, anthropicUpstream } from '../../../src/codecs/anthropic/index';
import type { ChatResponse, TokenUsage } from '../../../src/codecs/ir';
import type { Json } from '../../../src/codecs/json';
import { openAiClient, openAiUpstream } from '../../../src/codecs/openai/index';
import { translatingObserver } from '../../../src/codecs/translate-stream';
import { gatewayUsage } from '../../../src/codecs/usage';
import { costUsd, priceOf } from '../../../src/core/cost';
import type { StreamObserver } from '../../../src/sse/observer';

const ANTHROPIC_USAGE = {
  input_tokens: 30,
  output_tokens: 250,
  cache_read_input_tokens: 6000,
  cache_creation_input_tokens: 1800,
  cache_creation: { ephemeral_5m_input_tokens: 600, ephemeral_1h_input_tokens: 1200 },
};
const OPENAI_USAGE = {
  prompt_tokens: 3000,
  completion_tokens: 700,
  total_tokens: 3700,
  prompt_tokens_details: { cached_tokens: 2048 },
  completion_tokens_details: { reasoning_tokens: 500 },
};

const anthropicBody = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'Hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: ANTHROPIC_USAGE,
};
const openAiBody = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'o4-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
  usage: OPENAI_USAGE,
};

const anthropicEvents: [string, Json][] = [
  [
    'message_start',
    {
      type: 'message_start',
      message: {
        ...anthropicBody,
        content: [],
        stop_reason: null,
        usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
      },
    },
  ],
  [
    'content_block_start',
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ],
  [
    'content_block_delta',
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
  ],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  [
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 250 } },
  ],
  ['message_stop', { type: 'message_stop' }],
];
const openAiEvents: [null, Json | string][] = [
  [
    null,
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'o4-mini',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
    },
  ],
  [
    null,
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'o4-mini',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    },
  ],
  [
    null,
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'o4-mini',
      choices: [],
      usage: OPENAI_USAGE,
    },
  ],
  [null, '[DONE]'],
];

function observed(observer: StreamObserver, events: [string | null, Json | string][]) {
  for (const [event, data] of events)
    observer.observe({ event, data: typeof data === 'string' ? data : JSON.stringify(data) });
  return observer.usage;
}

describe('the usage the gateway counts for an answer does not depend on the client format', () => {
  it('an Anthropic answer: read as Anthropic (passed through) and through the canonical counts (translated)', () => {
    const passedThrough = anthropicClient.usage(anthropicBody);
    const translated = gatewayUsage(anthropicUpstream.decodeResponse(anthropicBody).usage as TokenUsage);
    expect(passedThrough).toEqual(translated);
    expect(translated).toEqual({
      inputTokens: 7830,
      outputTokens: 250,
      cachedTokens: 6000,
      cacheWriteTokens: 1800,
      cacheWrite1hTokens: 1200,
      reasoningTokens: 0,
    });
  });

  it('an OpenAI answer: read as OpenAI (passed through) and through the canonical counts (translated)', () => {
    const passedThrough = openAiClient.usage(openAiBody);
    const translated = gatewayUsage(openAiUpstream.decodeResponse(openAiBody).usage as TokenUsage);
    expect(passedThrough).toEqual(translated);
    expect(translated).toMatchObject({ inputTokens: 3000, cachedTokens: 2048, reasoningTokens: 500 });
  });

  it('an Anthropic stream: relayed to an Anthropic client, and translated for an OpenAI one', () => {
    const relayed = observed(anthropicClient.observer({ stripUsage: false }), anthropicEvents);
    const translated = observed(
      translatingObserver({
        decoder: anthropicUpstream.streamDecoder(),
        encoder: openAiClient.streamEncoder({ includeUsage: true }),
      }),
      anthropicEvents,
    );
    expect(relayed).toEqual(translated);
    expect(relayed).toEqual(anthropicClient.usage(anthropicBody));
  });

  it('an OpenAI stream: relayed to an OpenAI client, and translated for an Anthropic one', () => {
    const relayed = observed(openAiClient.observer({ stripUsage: false }), openAiEvents);
    const translated = observed(
      translatingObserver({
        decoder: openAiUpstream.streamDecoder(),
        encoder: anthropicClient.streamEncoder({ includeUsage: true }),
      }),
      openAiEvents,
    );
    expect(relayed).toEqual(translated);
    expect(relayed).toEqual(openAiClient.usage(openAiBody));
  });
});

describe('one canonical turn written by each client codec reads back the same', () => {
  const answer = (usage: TokenUsage): ChatResponse => ({
    id: 'a1',
    model: 'm',
    created: 1,
    content: [{ type: 'text', text: 'Hi' }],
    finish: 'end',
    stopSequence: null,
    usage,
  });
  const price = priceOf('anthropic/claude-sonnet-4-5');

  it('cache reads and reasoning: the same Usage (Anthropic has no reasoning count) and the same cost', () => {
    const turn = {
      input: 5000,
      output: 900,
      cacheRead: 4000,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 600,
    };
    const want = gatewayUsage(turn);
    const viaOpenAi = openAiClient.usage(openAiClient.encodeResponse(answer(turn)));
    const viaAnthropic = anthropicClient.usage(anthropicClient.encodeResponse(answer(turn)));
    expect(viaOpenAi).toEqual(want);
    expect(viaAnthropic).toEqual({ ...want, reasoningTokens: 0 });
    for (const read of [viaOpenAi, viaAnthropic])
      expect(costUsd(price, read as typeof want)).toBeCloseTo(costUsd(price, want), 12);
  });

  it('cache writes: Anthropic carries them with their TTL split; OpenAI, with no field for them, keeps them as prompt tokens', () => {
    const turn = {
      input: 9000,
      output: 100,
      cacheRead: 2000,
      cacheWrite: 6000,
      cacheWrite1h: 4000,
      reasoning: 0,
    };
    const want = gatewayUsage(turn);
    const viaAnthropic = anthropicClient.usage(anthropicClient.encodeResponse(answer(turn)));
    expect(viaAnthropic).toEqual(want);
    expect(costUsd(price, viaAnthropic as typeof want)).toBeCloseTo(
      (1000 * 3 + 2000 * 0.3 + 2000 * 3.75 + 4000 * 6 + 100 * 15) / 1e6,
      12,
    );
    const viaOpenAi = openAiClient.usage(openAiClient.encodeResponse(answer(turn)));
    expect(viaOpenAi).toEqual({ ...want, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });
});
