/**
 * Workers AI through the real gateway: the app is called with the test env
 * plus a fake `AI` binding (test/gateway/fakes/workers-ai.ts), so routing,
 * translation, limits and logging run as deployed, and only the binding is
 * fake. Without the binding (the default test env) the provider is unconfigured.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { Bindings } from '../../../src/env';
import { FakeWorkersAi } from '../fakes/workers-ai';
import type { ChatFaults } from '../fakes/workers-ai-chat';
import { eventData, type Loose } from '../answer-helpers';
import { readSse, seedKey } from '../helpers';

const LLAMA = 'workers-ai/@cf/meta/llama-3.1-8b-instruct';
const LLAMA_33 = 'workers-ai/@cf/meta/llama-3.3-70b-instruct-fp8-fast';
const HERMES = 'workers-ai/@hf/nousresearch/hermes-2-pro-mistral-7b';
const USER = [{ role: 'user', content: 'Hello there' }];
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather now',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const ANTHROPIC_TOOLS = [
  {
    name: 'get_weather',
    description: 'Weather now',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_workers_ai' })).secret;
});

/** A gateway whose env has the fake binding (one env object per gateway, as the deps cache expects). */
function gateway(faults: ChatFaults = {}) {
  const ai = new FakeWorkersAi(faults);
  const bindings = { ...env, AI: ai } as unknown as Bindings;
  const app = createApp();
  async function call(path: string, body: unknown): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`http://gw.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      }),
      bindings,
      ctx,
    );
    const copy = new Response(await res.arrayBuffer(), res);
    await waitOnExecutionContext(ctx);
    return copy;
  }
  return { ai, call };
}

const data = eventData;

describe('Workers AI behind /v1/chat/completions', () => {
  it('answers a chat completion from the binding, the cap sent as max_tokens', async () => {
    const { ai, call } = gateway();
    const res = await call('/v1/chat/completions', { model: LLAMA, messages: USER });
    expect(res.status).toBe(200);
    const body: Loose = await res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.id).toMatch(/^wai-/);
    expect(body.choices[0].message.content).toBe('Workers AI echo: Hello there');
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(ai.chatCalls[0]?.model).toBe('@cf/meta/llama-3.1-8b-instruct');
    expect(ai.chatCalls[0]?.inputs).toMatchObject({ messages: USER, max_tokens: expect.any(Number) });
  });

  it('streams OpenAI chunks translated event by event, with the usage chunk when asked', async () => {
    const { call } = gateway();
    const res = await call('/v1/chat/completions', {
      model: LLAMA,
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = data(events);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(
      'Workers AI echo: Hello there',
    );
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
  });

  it('returns tool calls from a function-calling model, JSON and streamed', async () => {
    const { call } = gateway();
    const json: Loose = await (
      await call('/v1/chat/completions', { model: LLAMA_33, messages: USER, tools: TOOLS })
    ).json();
    expect(json.choices[0].finish_reason).toBe('tool_calls');
    expect(json.choices[0].message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^chatcmpl-tool-/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Hello there"}' },
      },
    ]);

    const stream = data(
      await readSse(
        await call('/v1/chat/completions', { model: LLAMA_33, messages: USER, tools: TOOLS, stream: true }),
      ),
    );
    const calls = stream.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather' } });
    expect(calls.map((c: Loose) => c.function.arguments).join('')).toBe('{"city":"Hello there"}');
    expect(stream.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
  });

  it('sends a tool result back as a tool message and answers it', async () => {
    const { ai, call } = gateway();
    const messages = [
      ...USER,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
    ];
    const body: Loose = await (
      await call('/v1/chat/completions', { model: HERMES, messages, tools: TOOLS })
    ).json();
    expect(body.choices[0].message.content).toBe('Tool said: 18C');
    expect((ai.chatCalls[0]?.inputs as Loose)?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      name: 'get_weather',
      content: '18C',
    });
  });

  it('refuses a field Workers AI cannot honour with a 400 naming it, before calling the binding', async () => {
    const { ai, call } = gateway();
    const res = await call('/v1/chat/completions', { model: LLAMA, messages: USER, stop: ['END'] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Loose).error).toMatchObject({
      param: 'stop',
      code: 'unsupported_parameter',
    });
    expect(ai.chatCalls).toHaveLength(0);
  });

  it('relays binding errors in the client’s envelope with their status: unknown model 400, capacity 429', async () => {
    const { call } = gateway();
    const unknown = await call('/v1/chat/completions', {
      model: 'workers-ai/@cf/meta/llama-9',
      messages: USER,
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Loose).error.message).toContain('No such model @cf/meta/llama-9');

    const busy = gateway({ fail: '3040: Capacity temporarily exceeded, please try again.' });
    const res = await busy.call('/v1/messages', { model: LLAMA, max_tokens: 64, messages: USER });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('ends a cut stream with an error event in the client’s format', async () => {
    const { call } = gateway({ cutStreamAfter: 2 });
    const events = await readSse(
      await call('/v1/chat/completions', { model: LLAMA, messages: USER, stream: true }),
    );
    const last = data(events).at(-1);
    expect(last.error).toBeDefined();
    expect(events.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('embeds through the binding at /v1/embeddings, with an estimated usage', async () => {
    const { call } = gateway();
    const res = await call('/v1/embeddings', {
      model: 'workers-ai/@cf/baai/bge-base-en-v1.5',
      input: ['a cat', 'a dog'],
    });
    expect(res.status).toBe(200);
    const body: Loose = await res.json();
    expect(body.data).toHaveLength(2);
    expect(body.data[0].embedding).toHaveLength(768);
    expect(body.usage.prompt_tokens).toBe(4);
  });
});

describe('Workers AI behind /v1/messages', () => {
  it('answers an Anthropic message', async () => {
    const { call } = gateway();
    const res = await call('/v1/messages', {
      model: LLAMA,
      max_tokens: 64,
      system: 'Be brief.',
      messages: USER,
    });
    expect(res.status).toBe(200);
    const body: Loose = await res.json();
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Workers AI echo: Hello there' }],
      stop_reason: 'end_turn',
      // The fake counts the system prompt as a message: 3 + (4 + 3) + (4 + 3) = 17.
      usage: { input_tokens: 17, output_tokens: 5 },
    });
  });

  it('streams Anthropic events from message_start to message_stop', async () => {
    const { call } = gateway();
    const events = await readSse(
      await call('/v1/messages', { model: LLAMA, max_tokens: 64, messages: USER, stream: true }),
    );
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    const text = data(events)
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.text)
      .join('');
    expect(text).toBe('Workers AI echo: Hello there');
    expect(data(events).find((e) => e.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 5 },
    });
  });

  it('returns tool_use blocks from a flat-calling model, JSON and streamed', async () => {
    const { call } = gateway();
    const body: Loose = await (
      await call('/v1/messages', { model: HERMES, max_tokens: 64, messages: USER, tools: ANTHROPIC_TOOLS })
    ).json();
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toEqual([
      {
        type: 'tool_use',
        id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        input: { city: 'Hello there' },
        caller: { type: 'direct' },
      },
    ]);

    const events = data(
      await readSse(
        await call('/v1/messages', {
          model: HERMES,
          max_tokens: 64,
          messages: USER,
          tools: ANTHROPIC_TOOLS,
          stream: true,
        }),
      ),
    );
    expect(events.find((e) => e.type === 'content_block_start')?.content_block).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
    });
    const json = events
      .filter((e) => e.delta?.type === 'input_json_delta')
      .map((e) => e.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'Hello there' });
  });
});

describe('without the AI binding', () => {
  it('answers 404 provider_not_configured (the default test env has no AI)', async () => {
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: LLAMA, messages: USER }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Loose).error).toMatchObject({
      code: 'provider_not_configured',
      param: 'model',
    });
  });
});
