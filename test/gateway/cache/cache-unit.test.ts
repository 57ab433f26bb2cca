import { describe, expect, it } from 'vitest';
import { anthropicAssembler, openAiAssembler } from '../../../src/cache/assemble';
import { cacheDirectives } from '../../../src/cache/directives';
import { canonicalJson, exactCacheKey } from '../../../src/cache/key';
import { replaySse } from '../../../src/cache/replay';

const keyInput = {
  tenantId: 't1',
  provider: 'mock',
  endpoint: 'chat',
  model: 'mock/echo',
  namespace: null,
  body: { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] },
};

describe('cache keys', () => {
  it('writes canonical JSON with sorted keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives different keys for different tenants, providers, endpoints, models and namespaces', async () => {
    const base = await exactCacheKey(keyInput);
    for (const change of [
      { tenantId: 't2' },
      { provider: 'openai' },
      { endpoint: 'messages' },
      { model: 'mock/other' },
      { namespace: 'ns' },
    ]) {
      expect(await exactCacheKey({ ...keyInput, ...change })).not.toBe(base);
    }
    expect(base.startsWith('v1:t1:')).toBe(true);
  });

  it('ignores delivery-only fields and null values', async () => {
    const base = await exactCacheKey(keyInput);
    const noisy = {
      ...keyInput,
      body: {
        ...keyInput.body,
        stream: true,
        stream_options: { include_usage: true },
        user: 'u',
        temperature: null,
      },
    };
    expect(await exactCacheKey(noisy)).toBe(base);
  });
});

describe('cache directives', () => {
  const h = (e: Record<string, string>) => new Headers(e);
  it('is off without a key setting or a TTL header', () => {
    expect(cacheDirectives(h({}), {})).toMatchObject({ lookup: false, store: false });
  });
  it("turns on with the key setting, with the TTL from the header, the key, or the default, floored at KV's 60 s", () => {
    expect(cacheDirectives(h({}), { exact: true })).toMatchObject({
      lookup: true,
      store: true,
      ttlSeconds: 3600,
    });
    expect(cacheDirectives(h({}), { exact: true, ttl_seconds: 600 }).ttlSeconds).toBe(600);
    expect(cacheDirectives(h({ 'cf-aig-cache-ttl': '5' }), {})).toMatchObject({
      lookup: true,
      store: true,
      ttlSeconds: 60,
    });
  });
  it('reads no-cache, no-store and cf-aig-skip-cache', () => {
    expect(cacheDirectives(h({ 'x-edgeway-cache': 'no-cache' }), { exact: true })).toMatchObject({
      lookup: false,
      store: true,
    });
    expect(cacheDirectives(h({ 'x-edgeway-cache': 'no-store' }), { exact: true })).toMatchObject({
      lookup: true,
      store: false,
    });
    expect(cacheDirectives(h({ 'cf-aig-skip-cache': 'true' }), { exact: true })).toMatchObject({
      lookup: false,
    });
  });
});

describe('assembling a streamed answer and replaying it', () => {
  it('rebuilds an OpenAI completion with content, tool calls, finish reason and usage', () => {
    const a = openAiAssembler();
    const head = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
    a.push({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }, null);
    a.push({ ...head, choices: [{ index: 0, delta: { content: 'Hel' } }] }, null);
    a.push({ ...head, choices: [{ index: 0, delta: { content: 'lo' } }] }, null);
    a.push(
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } },
              ],
            },
          },
        ],
      },
      null,
    );
    a.push(
      {
        ...head,
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }],
      },
      null,
    );
    a.push({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }, null);
    a.push(
      { ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      null,
    );
    expect(a.result()).toEqual({
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Hello',
            refusal: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });

  it('rebuilds an Anthropic message, including tool input', () => {
    const a = anthropicAssembler();
    a.push(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 4, output_tokens: 1 },
        },
      },
      'message_start',
    );
    a.push(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
    a.push(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      'content_block_delta',
    );
    a.push({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
    a.push(
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} },
      },
      'content_block_start',
    );
    a.push(
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":' } },
      'content_block_delta',
    );
    a.push(
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"x"}' } },
      'content_block_delta',
    );
    a.push({ type: 'content_block_stop', index: 1 }, 'content_block_stop');
    a.push(
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      'message_delta',
    );
    expect(a.result()).toMatchObject({
      id: 'msg_1',
      stop_reason: 'tool_use',
      usage: { input_tokens: 4, output_tokens: 9 },
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 't1', name: 'f', input: { q: 'x' } },
      ],
    });
  });

  it('replays an OpenAI entry as chunks whose deltas rebuild the same completion', () => {
    const body = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    const sse = replaySse(
      {
        v: 1,
        format: 'openai',
        endpoint: 'chat',
        body,
        usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
        storedAt: 0,
      },
      true,
    );
    const a = openAiAssembler();
    const frames = sse
      .split('\n\n')
      .filter(Boolean)
      .map((f) => f.slice('data: '.length));
    expect(frames.at(-1)).toBe('[DONE]');
    for (const f of frames.slice(0, -1)) a.push(JSON.parse(f) as Record<string, unknown>, null);
    expect(a.result()).toMatchObject({
      id: 'c1',
      choices: [{ message: { content: 'Hello' }, finish_reason: 'stop' }],
      usage: body.usage,
    });
  });
});
