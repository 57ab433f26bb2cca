/** The fake `AI` binding's chat models refuse what the real ones refuse, and answer in their shapes. */
import { describe, expect, it } from 'vitest';
import { FakeWorkersAi } from '../fakes/workers-ai';

const LLAMA = '@cf/meta/llama-3.1-8b-instruct';
const LLAMA_33 = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';
const HERMES = '@hf/nousresearch/hermes-2-pro-mistral-7b';
const USER = [{ role: 'user', content: 'Paris' }];
const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather now',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City' } },
      required: ['city'],
    },
  },
};

async function streamText(stream: unknown): Promise<string> {
  return new Response(stream as ReadableStream<Uint8Array>).text();
}

describe('the fake Workers AI chat models', () => {
  const ai = new FakeWorkersAi();

  it('refuses inputs outside the models’ schemas the way the binding does, by throwing its codes', async () => {
    const refusals: [string, unknown, RegExp][] = [
      ['@cf/meta/llama-9', { messages: USER }, /^5007: No such model/],
      [LLAMA, {}, /^5006: .*required properties at '\/' not met: messages/],
      [LLAMA, { messages: [{ role: 'user' }] }, /^5006: .*role, content/],
      [LLAMA, { messages: [{ role: 'developer', content: 'x' }] }, /^5006: .*enum at '\/messages\/0\/role'/],
      [
        LLAMA,
        { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] },
        /^5006: .*expected string/,
      ],
      [LLAMA, { messages: USER, max_tokens: 1.5 }, /^5006: .*'\/max_tokens'/],
      [LLAMA, { messages: USER, top_k: 51 }, /^5006: .*maximum at '\/top_k'/],
      [LLAMA, { messages: USER, temperature: -1 }, /^5006: .*minimum at '\/temperature'/],
      [LLAMA, { messages: USER, stream: 'yes' }, /^5006: .*'\/stream'/],
      [
        LLAMA,
        { messages: USER, tools: [{ type: 'function', function: { name: 'f' } }] },
        /^5006: .*'\/tools\/0'/,
      ],
      [
        LLAMA,
        {
          messages: USER,
          tools: [
            {
              name: 'f',
              description: '',
              parameters: { type: 'object', properties: { a: { type: 'string' } } },
            },
          ],
        },
        /^5006: .*properties\/a' not met: type, description/,
      ],
      [LLAMA, { messages: USER, max_tokens: 8000 }, /^5021: .*context window limit \(7968\)/],
    ];
    for (const [model, inputs, error] of refusals) await expect(ai.run(model, inputs)).rejects.toThrow(error);
  });

  it('takes text parts where the model’s schema allows them (llama 3.3)', async () => {
    const parts = { messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
    await expect(ai.run(LLAMA_33, parts)).resolves.toMatchObject({ response: 'Workers AI echo: Hi' });
  });

  it('answers text with usage, capped at max_tokens words', async () => {
    await expect(ai.run(LLAMA, { messages: USER, max_tokens: 2 })).resolves.toEqual({
      response: 'Workers AI',
      tool_calls: [],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    });
  });

  it('calls the first tool flat for llama 3.1 and Hermes, in OpenAI’s shape for llama 3.3', async () => {
    const flat = { name: 'get_weather', arguments: { city: 'Paris' } };
    await expect(ai.run(LLAMA, { messages: USER, tools: [TOOL] })).resolves.toMatchObject({
      tool_calls: [flat],
    });
    await expect(ai.run(HERMES, { messages: USER, tools: [TOOL] })).resolves.toMatchObject({
      response: null,
    });
    await expect(ai.run(LLAMA_33, { messages: USER, tools: [TOOL] })).resolves.toMatchObject({
      tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
  });

  it('answers a tool result with text', async () => {
    const messages = [...USER, { role: 'tool', tool_call_id: 'c1', content: '18C' }];
    await expect(ai.run(LLAMA, { messages, tools: [TOOL] })).resolves.toMatchObject({
      response: 'Tool said: 18C',
    });
  });

  it('streams data events, a usage event and [DONE]; tool calls as indexed deltas for llama 3.3', async () => {
    const text = await streamText(await ai.run(LLAMA, { messages: USER, stream: true }));
    expect(text).toBe(
      'data: {"response":"Workers"}\n\ndata: {"response":" AI"}\n\ndata: {"response":" echo:"}\n\n' +
        'data: {"response":" Paris"}\n\n' +
        'data: {"response":"","usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}\n\ndata: [DONE]\n\n',
    );
    const calls = await streamText(await ai.run(LLAMA_33, { messages: USER, tools: [TOOL], stream: true }));
    expect(calls).toContain('"tool_calls":[{"index":0,"id":"chatcmpl-tool-');
    expect(calls).toContain('"function":{"name":null,"arguments":null}');
  });

  it('answers JSON mode with an object', async () => {
    const format = {
      type: 'json_schema',
      json_schema: { type: 'object', properties: { city: { type: 'string' } } },
    };
    await expect(ai.run(LLAMA, { messages: USER, response_format: format })).resolves.toMatchObject({
      response: { city: 'Paris' },
    });
  });

  it('injects faults: a thrown capacity error, and a stream cut before [DONE]', async () => {
    const busy = new FakeWorkersAi({ fail: '3040: Capacity temporarily exceeded, please try again.' });
    await expect(busy.run(LLAMA, { messages: USER })).rejects.toThrow(/^3040/);
    const cut = new FakeWorkersAi({ cutStreamAfter: 1 });
    expect(await streamText(await cut.run(LLAMA, { messages: USER, stream: true }))).toBe(
      'data: {"response":"Workers"}\n\n',
    );
  });

  it('keeps its embedding models as they were', async () => {
    await expect(ai.run('@cf/baai/bge-small-en-v1.5', { text: ['x'] })).resolves.toMatchObject({
      shape: [1, 384],
    });
    expect(ai.calls.at(-1)).toEqual({ model: '@cf/baai/bge-small-en-v1.5', count: 1 });
  });
});
