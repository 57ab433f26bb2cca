/**
 * The Workers AI codec's share of reasoning, cache markers, system turns and structured output:
 * system turns stay in place as system messages, reasoning requests and cache breakpoints are
 * dropped and named, reasoning in the history is left out, and `reasoning_content` in answers
 * (whole and streamed) is the reasoning.
 */
import { describe, expect, it } from 'vitest';
import type { EncodeContext } from '../../../../src/codecs/codec';
import type { ChatRequest, StreamEvent } from '../../../../src/codecs/ir';
import { workersAiUpstream } from '../../../../src/codecs/workers-ai/index';
import { canonicalRequest } from '../fixtures/canonical';

const LLAMA = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';

function encode(over: Partial<ChatRequest>, model = LLAMA) {
  const context: EncodeContext = {
    model,
    providerId: 'workers-ai',
    outputCap: 512,
    enforceCap: false,
    dropped: [],
  };
  const body = workersAiUpstream.encodeRequest(canonicalRequest(over), context);
  return { body, dropped: context.dropped };
}

describe('Workers AI codec: requests', () => {
  it('keeps a system turn mid-conversation where it is, as a system message', () => {
    const { body } = encode({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'system', content: [{ type: 'text', text: 'Now answer in French.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'system', content: 'Now answer in French.' },
      { role: 'user', content: 'Weather?' },
    ]);
  });

  it('leaves reasoning out of assistant turns, whoever issued it', () => {
    const { body } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking', signature: 'sig', issuer: 'anthropic' },
            { type: 'redacted_reasoning', data: 'xx', issuer: 'bedrock' },
            { type: 'text', text: 'Hello' },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]);
  });

  it('drops and names a reasoning request, cache breakpoints and prompt_cache_key', () => {
    const { body, dropped } = encode({
      reasoning: { mode: 'on', effort: 'high', budgetTokens: null, display: null },
      system: [{ type: 'text', text: 'Rules', cache: { ttl: '5m' } }],
      promptCacheKey: 'k',
    });
    expect(JSON.stringify(body)).not.toMatch(/reason|cache/);
    expect(dropped).toEqual(['reasoning', 'cache_control', 'prompt_cache_key']);
    const off = encode({ reasoning: { mode: 'off', effort: 'none', budgetTokens: null, display: null } });
    expect(off.dropped).toEqual([]);
  });

  it("sends a JSON schema as Workers AI's json_schema response format", () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const { body } = encode({ responseFormat: { type: 'json_schema', name: 'w', schema, strict: true } });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: schema });
  });
});

describe('Workers AI codec: reasoning in answers', () => {
  it('reads reasoning_content as an unsigned reasoning part before the text', () => {
    const answer = workersAiUpstream.decodeResponse({
      response: 'Paris.',
      reasoning_content: 'The capital of France is Paris.',
      usage: { prompt_tokens: 5, completion_tokens: 12 },
    });
    expect(answer.content).toEqual([
      { type: 'reasoning', text: 'The capital of France is Paris.', signature: null, issuer: null },
      { type: 'text', text: 'Paris.' },
    ]);
  });

  it('streams reasoning_content as reasoning events', () => {
    const decoder = workersAiUpstream.streamDecoder();
    const events: StreamEvent[] = [];
    for (const data of [
      '{"response":"","reasoning_content":"Thinking"}',
      '{"response":"Paris."}',
      '{"response":"","usage":{"prompt_tokens":5,"completion_tokens":3}}',
      '[DONE]',
    ]) {
      const out = decoder.decode({ event: null, data });
      if (out === 'malformed') throw new Error('malformed');
      events.push(...out);
    }
    expect(events.filter((e) => e.type === 'reasoning' || e.type === 'text')).toEqual([
      { type: 'reasoning', text: 'Thinking' },
      { type: 'text', text: 'Paris.' },
    ]);
  });

  it("reads the chat.completion shape newer models answer in, its message's reasoning_content included", () => {
    const answer = workersAiUpstream.decodeResponse({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Paris.', reasoning_content: 'France → Paris.' },
          finish_reason: 'length',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 12, total_tokens: 17 },
    });
    expect(answer.content).toEqual([
      { type: 'reasoning', text: 'France → Paris.', signature: null, issuer: null },
      { type: 'text', text: 'Paris.' },
    ]);
    expect(answer.finish).toBe('length');
  });

  it('streams chat.completion chunks: reasoning, text and the finish from the first choice', () => {
    const decoder = workersAiUpstream.streamDecoder();
    const events: StreamEvent[] = [];
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    for (const data of [
      chunk({ role: 'assistant', reasoning_content: 'Hmm' }),
      chunk({ content: 'Paris.' }),
      chunk({}, 'stop'),
      '[DONE]',
    ]) {
      const out = decoder.decode({ event: null, data });
      if (out === 'malformed') throw new Error('malformed');
      events.push(...out);
    }
    expect(events.filter((e) => e.type !== 'start')).toEqual([
      { type: 'reasoning', text: 'Hmm' },
      { type: 'text', text: 'Paris.' },
      { type: 'finish', reason: 'end', stopSequence: null },
      { type: 'end' },
    ]);
  });
});
