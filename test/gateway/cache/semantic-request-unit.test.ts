import { describe, expect, it } from 'vitest';
import { parseProxyRequest, type ProxyRequest } from '../../../src/core/request';
import type { Endpoint } from '../../../src/core/endpoints';
import {
  DEFAULT_SEMANTIC_THRESHOLD,
  MAX_SEMANTIC_TEXT_CHARS,
  semanticEligibility,
  semanticThreshold,
  type SemanticEligibility,
} from '../../../src/cache/semantic-request';
import type { CacheSettings } from '../../../src/core/settings';

const ON: CacheSettings = { semantic: true };

function chat(body: Record<string, unknown>): ProxyRequest {
  return parseProxyRequest('chat', {
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
    temperature: 0,
    ...body,
  });
}

function request(endpoint: Endpoint, body: Record<string, unknown>): ProxyRequest {
  return parseProxyRequest(endpoint, body);
}

function eligible(result: SemanticEligibility): { text: string; paramsHash: string } {
  if (!result.eligible) throw new Error(`expected eligible, got ${result.reason}`);
  return result;
}

function reason(result: SemanticEligibility): string {
  return result.eligible ? 'eligible' : result.reason;
}

const hashOf = (
  body: Record<string, unknown>,
  settings: CacheSettings = { ...ON, semantic_tools: true, semantic_temperature: true },
) => eligible(semanticEligibility(chat(body), settings)).paramsHash;

describe('semanticEligibility: when the semantic cache may answer', () => {
  it('is off unless the key enables it', () => {
    expect(reason(semanticEligibility(chat({}), {}))).toBe('disabled');
    expect(reason(semanticEligibility(chat({}), { semantic: false }))).toBe('disabled');
    expect(reason(semanticEligibility(chat({}), ON))).toBe('eligible');
  });

  it('serves chat and messages, never embeddings', () => {
    expect(reason(semanticEligibility(request('embeddings', { model: 'mock/e', input: 'hi' }), ON))).toBe(
      'endpoint',
    );
    const messages = request('messages', {
      model: 'mock/echo',
      max_tokens: 10,
      temperature: 0,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there' }] }],
    });
    expect(eligible(semanticEligibility(messages, ON)).text).toBe('Hi there');
  });

  it('skips requests that declare tools or carry tool traffic unless semantic_tools', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: {} } }];
    expect(reason(semanticEligibility(chat({ tools }), ON))).toBe('tools');
    expect(reason(semanticEligibility(chat({ functions: [{ name: 'f' }] }), ON))).toBe('tools');
    const toolTurn = chat({
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });
    expect(reason(semanticEligibility(toolTurn, ON))).toBe('tools');
    expect(reason(semanticEligibility(chat({ tools }), { ...ON, semantic_tools: true }))).toBe('eligible');
  });

  it('skips temperature > 0 and an absent temperature (provider default 1) unless semantic_temperature', () => {
    expect(reason(semanticEligibility(chat({ temperature: 0.7 }), ON))).toBe('temperature');
    expect(reason(semanticEligibility(chat({ temperature: undefined }), ON))).toBe('temperature');
    expect(reason(semanticEligibility(chat({ temperature: 0 }), ON))).toBe('eligible');
    expect(
      reason(semanticEligibility(chat({ temperature: 0.7 }), { ...ON, semantic_temperature: true })),
    ).toBe('eligible');
  });

  it('skips conversations longer than semantic_max_turns, not counting system messages', () => {
    const turns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    expect(
      reason(semanticEligibility(chat({ messages: [{ role: 'system', content: 's' }, ...turns(3)] }), ON)),
    ).toBe('eligible');
    expect(reason(semanticEligibility(chat({ messages: turns(5) }), ON))).toBe('too_many_turns');
    expect(reason(semanticEligibility(chat({ messages: turns(3) }), { ...ON, semantic_max_turns: 2 }))).toBe(
      'too_many_turns',
    );
  });

  it('needs user text to compare, and no more of it than an embedder reads', () => {
    expect(reason(semanticEligibility(chat({ messages: [{ role: 'user', content: '   ' }] }), ON))).toBe(
      'no_text',
    );
    expect(
      reason(
        semanticEligibility(chat({ messages: [{ role: 'system', content: 'only a system prompt' }] }), ON),
      ),
    ).toBe('no_text');
    const image = [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }];
    expect(reason(semanticEligibility(chat({ messages: [{ role: 'user', content: image }] }), ON))).toBe(
      'no_text',
    );
    expect(
      reason(
        semanticEligibility(
          chat({ messages: [{ role: 'user', content: 'x'.repeat(MAX_SEMANTIC_TEXT_CHARS + 1) }] }),
          ON,
        ),
      ),
    ).toBe('too_long');
  });

  it('compares only the latest user message; system prompt and history stay out of the text', () => {
    const result = eligible(
      semanticEligibility(
        chat({
          messages: [
            { role: 'system', content: 'You are terse.' },
            { role: 'user', content: 'Write a poem about the sea.' },
            { role: 'assistant', content: 'Waves.' },
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Make it' },
                { type: 'text', text: 'shorter.' },
              ],
            },
          ],
        }),
        ON,
      ),
    );
    expect(result.text).toBe('Make it\nshorter.');
  });
});

describe('paramsHash: everything but the compared text must match exactly', () => {
  const base = {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
    ],
    temperature: 0,
  };

  it('differs for another model, system prompt, temperature, tools or earlier turn', () => {
    const h = hashOf(base);
    expect(hashOf({ ...base, model: 'mock/other' })).not.toBe(h);
    expect(
      hashOf({ ...base, messages: [{ role: 'system', content: 'Be verbose.' }, base.messages[1]] }),
    ).not.toBe(h);
    expect(hashOf({ ...base, temperature: 0.5 })).not.toBe(h);
    expect(hashOf({ ...base, max_tokens: 50 })).not.toBe(h);
    expect(hashOf({ ...base, tools: [{ type: 'function', function: { name: 'f' } }] })).not.toBe(h);
    expect(
      hashOf({
        ...base,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          base.messages[1],
        ],
      }),
    ).not.toBe(h);
    const withImage = [
      { type: 'text', text: 'Capital of France?' },
      { type: 'image_url', image_url: { url: 'https://x/y.png' } },
    ];
    expect(hashOf({ ...base, messages: [base.messages[0], { role: 'user', content: withImage }] })).not.toBe(
      h,
    );
  });

  it('is equal whatever the key order, the latest text, or delivery-only fields', () => {
    const h = hashOf(base);
    expect(
      hashOf({
        temperature: 0,
        messages: [
          { content: 'Be brief.', role: 'system' },
          { content: 'Capital of France?', role: 'user' },
        ],
      }),
    ).toBe(h);
    expect(
      hashOf({
        ...base,
        messages: [base.messages[0], { role: 'user', content: 'What is the capital city of France?' }],
      }),
    ).toBe(h);
    expect(hashOf({ ...base, stream: true, stream_options: { include_usage: true }, user: 'u-42' })).toBe(h);
  });

  it('differs between the chat and messages endpoints for the same fields', () => {
    const body = {
      model: 'mock/echo',
      max_tokens: 10,
      temperature: 0,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const a = eligible(semanticEligibility(request('chat', body), ON)).paramsHash;
    const b = eligible(semanticEligibility(request('messages', body), ON)).paramsHash;
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('semanticThreshold', () => {
  it('defaults to 0.95 and honours the key setting', () => {
    expect(DEFAULT_SEMANTIC_THRESHOLD).toBe(0.95);
    expect(semanticThreshold({})).toBe(0.95);
    expect(semanticThreshold({ threshold: 0.9 })).toBe(0.9);
  });
});
