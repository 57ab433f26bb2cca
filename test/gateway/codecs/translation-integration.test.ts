/**
 * Translation through the real gateway: an OpenAI client in front of an
 * Anthropic-format provider and an Anthropic client in front of an
 * OpenAI-format one (one-format views of the mock, see vitest.config.ts),
 * JSON and streams, tools, cut streams, provider errors and refusals; and the
 * usage the limiter settles and the log records is the provider's own count.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../exchange-harness';
import { eventData, type Loose, WEATHER_TOOL, toolRoundTrip } from '../answer-helpers';
import { readSse, seedKey } from '../helpers';

const sse = (res: Response) => readSse(res);
const json = eventData;
const TOOLS = [WEATHER_TOOL];

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_translate', limits: { rpm: 1000 } })).secret;
});

describe('an OpenAI client in front of an Anthropic-format provider', () => {
  it('gets a chat completion with the provider text, usage and finish reason translated', async () => {
    const h = harness();
    const { res, body } = await h.call(
      {
        model: 'claude-only/echo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there, mock.' },
        ],
      },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    expect(res.status).toBe(200);
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Hello there, mock.' });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.id).toMatch(/^msg_/);
    // The mock counts the system prompt as one more message: 3 + (4 + 3) + (4 + 5) = 19.
    expect(body.usage).toMatchObject({ prompt_tokens: 19, completion_tokens: 3, total_tokens: 22 });
    expect(res.headers.get('x-edgeway-upstream-request-id')).toBeTruthy();
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: 19,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(h.counts.events[0]).toMatchObject({
      status: 200,
      inputTokens: 19,
      outputTokens: 3,
      provider: 'claude-only',
    });
  });

  it('streams OpenAI chunks event by event, with the usage chunk only when asked and exact usage settled', async () => {
    const h = harness();
    const { res, body } = await h.call(
      {
        model: 'claude-only/echo',
        messages: [{ role: 'user', content: 'one two three' }],
        stream: true,
        stream_options: { include_usage: true },
      },
      key,
      sse,
    );
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(body.at(-1)?.data).toBe('[DONE]');
    const chunks = json(body);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('one two three');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    const usage = chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: 11,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(h.counts.settles[0]?.stream?.completed).toBe(true);

    const { body: plain } = await harness().call(
      { model: 'claude-only/echo', messages: [{ role: 'user', content: 'one two' }], stream: true },
      key,
      sse,
    );
    expect(json(plain).some((c) => c.usage)).toBe(false);
  });

  it('translates tool definitions, the tool call and its streamed arguments', async () => {
    const h = harness();
    const { body } = await h.call(
      {
        model: 'claude-only/echo;tool_call=true',
        messages: [{ role: 'user', content: 'weather?' }],
        tools: TOOLS,
      },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^toolu_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{}' },
      },
    ]);

    const { body: events } = await harness().call(
      {
        model: 'claude-only/echo;tool_call=true',
        messages: [{ role: 'user', content: 'weather?' }],
        tools: TOOLS,
        stream: true,
      },
      key,
      sse,
    );
    const deltas = json(events).flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^toolu_/),
      function: { name: 'get_weather' },
    });
    expect(deltas.map((d: Loose) => d.function.arguments).join('')).toBe('{}');
    expect(json(events).find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe(
      'tool_calls',
    );
  });

  it('sends a tool result back as the tool_result the provider expects', async () => {
    const { res, body } = await harness().call(
      {
        model: 'claude-only/echo',
        messages: toolRoundTrip('call_1'),
        tools: TOOLS,
      },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    expect(res.status).toBe(200);
    expect(body.choices[0].message.content).toBe('thanks');
  });

  it('ends a cut stream with an error in the OpenAI shape and charges what was delivered', async () => {
    const h = harness();
    const { body } = await h.call(
      {
        model: 'claude-only/echo;cut_after=2',
        messages: [{ role: 'user', content: 'a b c d e f' }],
        stream: true,
      },
      key,
      sse,
    );
    const last = JSON.parse(body.at(-1)!.data);
    expect(last.error).toMatchObject({ code: 'stream_incomplete', type: 'server_error' });
    expect(body.some((e) => e.data === '[DONE]')).toBe(false);
    expect(h.counts.settles[0]?.stream?.completed).toBe(false);
    expect(h.counts.events[0]?.errorCode).toBe('stream_incomplete');
  });

  it("re-shapes the provider's error into the OpenAI envelope with its status kept", async () => {
    const { res, body } = await harness().call(
      { model: 'claude-only/echo;status=429', messages: [{ role: 'user', content: 'hi' }] },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(body.error).toMatchObject({ type: 'rate_limit_error', param: null });
    expect(typeof body.error.message).toBe('string');
  });

  it.each([
    [{ temperature: 1.5 }, 'temperature'],
    [{ n: 2 }, 'n'],
    [{ logprobs: true }, 'logprobs'],
    [{ frequency_penalty: 0.5 }, 'frequency_penalty'],
  ])('refuses %j with a 400 naming the field, before anything is reserved', async (extra, param) => {
    const h = harness();
    const { res, body } = await h.call(
      { model: 'claude-only/echo', messages: [{ role: 'user', content: 'hi' }], ...extra },
      key,
      (r) => r.json() as Promise<Loose>,
    );
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ param, code: 'unsupported_parameter' });
    expect(h.counts.settles).toEqual([]);
  });

  it('sends the required max_tokens when the client set none: the default cap', async () => {
    const { res } = await harness().call(
      { model: 'claude-only/mock-small;tokens=5', messages: [{ role: 'user', content: 'hi' }] },
      key,
    );
    expect(res.status).toBe(200);
  });
});

describe('an Anthropic client in front of an OpenAI-format provider', () => {
  const messages = (body: Record<string, unknown>) => ({ max_tokens: 64, ...body });

  it('gets a message with text, stop reason and usage translated', async () => {
    const h = harness();
    const { res, body } = await h.call(
      messages({
        model: 'gpt-only/echo',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello there, mock.' }],
      }),
      key,
      (r) => r.json() as Promise<Loose>,
      {},
      '/v1/messages',
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello there, mock.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 19, output_tokens: 3 },
    });
    expect(h.counts.events[0]).toMatchObject({ inputTokens: 19, outputTokens: 3, provider: 'gpt-only' });
  });

  it('streams Anthropic events in their order, with usage from the OpenAI usage chunk', async () => {
    const h = harness();
    const { body } = await h.call(
      messages({
        model: 'gpt-only/echo',
        messages: [{ role: 'user', content: 'one two three' }],
        stream: true,
      }),
      key,
      sse,
      {},
      '/v1/messages',
    );
    const types = body.map((e) => e.event);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const data = json(body);
    const text = data
      .filter((d) => d.type === 'content_block_delta')
      .map((d) => d.delta.text)
      .join('');
    expect(text).toBe('one two three');
    const delta = data.find((d) => d.type === 'message_delta');
    expect(delta).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 11, output_tokens: 3 },
    });
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: 11,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('streams a tool call as a tool_use block with input_json_delta', async () => {
    const { body } = await harness().call(
      messages({
        model: 'gpt-only/echo;tool_call=true',
        messages: [{ role: 'user', content: 'weather?' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
        stream: true,
      }),
      key,
      sse,
      {},
      '/v1/messages',
    );
    const data = json(body);
    const start = data.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use');
    expect(start.content_block).toMatchObject({ name: 'get_weather', id: expect.stringMatching(/^call_/) });
    const partial = data
      .filter((d) => d.type === 'content_block_delta' && d.delta.type === 'input_json_delta')
      .map((d) => d.delta.partial_json)
      .join('');
    expect(partial).toBe('{}');
    expect(data.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it("re-shapes the provider's error into Anthropic's envelope, status kept", async () => {
    const { res, body } = await harness().call(
      messages({ model: 'gpt-only/echo;status=503', messages: [{ role: 'user', content: 'hi' }] }),
      key,
      (r) => r.json() as Promise<Loose>,
      { 'cf-aig-max-attempts': '1' },
      '/v1/messages',
    );
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('refuses top_k (OpenAI has none) with a 400 naming it', async () => {
    for (const [extra, param] of [[{ top_k: 5 }, 'top_k']] as const) {
      const { res, body } = await harness().call(
        messages({ model: 'gpt-only/echo', messages: [{ role: 'user', content: 'hi' }], ...extra }),
        key,
        (r) => r.json() as Promise<Loose>,
        {},
        '/v1/messages',
      );
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(body.error.message).toContain(param);
    }
  });
});
