/**
 * Bedrock end to end through the real gateway: OpenAI and Anthropic clients in
 * front of `bedrock/<model>`, signed with SigV4 and sent to the mock LLM's fake
 * of Converse/ConverseStream (which checks the signature and the shapes, and
 * streams the binary event stream), JSON and streams, tools, cut and malformed
 * streams, provider errors and refusals; usage settled and logged is Bedrock's own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../exchange-harness';
import { asJson, eventData, type Loose, WEATHER_TOOL, toolRoundTrip } from '../answer-helpers';
import { type ParsedEvent, readSse, seedKey } from '../helpers';

const chunks = eventData;
const CLAUDE = 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0';
const TOOLS = [WEATHER_TOOL];

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_bedrock', limits: { rpm: 1000 } })).secret;
});

describe('an OpenAI client in front of Bedrock', () => {
  it('gets a chat completion translated from Converse, with usage settled and logged', async () => {
    const h = harness();
    const { res, body } = await h.call(
      {
        model: 'bedrock/echo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there, mock.' },
        ],
      },
      key,
      asJson,
    );
    expect(res.status).toBe(200);
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Hello there, mock.' });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toMatchObject({ prompt_tokens: 19, completion_tokens: 3, total_tokens: 22 });
    expect(res.headers.get('x-edgeway-upstream-request-id')).toMatch(/^[0-9a-f-]{36}$/);
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
      provider: 'bedrock',
    });
  });

  it('streams chunks translated from the binary event stream, with exact usage', async () => {
    const h = harness();
    const { res, body } = await h.call(
      {
        model: 'bedrock/echo',
        messages: [{ role: 'user', content: 'one two three' }],
        stream: true,
        stream_options: { include_usage: true },
      },
      key,
      readSse,
    );
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(body.at(-1)?.data).toBe('[DONE]');
    const data = chunks(body);
    expect(data.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('one two three');
    expect(data.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(data.at(-1).usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: 11,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(h.counts.settles[0]?.stream?.completed).toBe(true);
  });

  it('calls a tool when the client requires one, in JSON and streamed', async () => {
    const request = {
      model: CLAUDE,
      messages: [{ role: 'user', content: 'weather?' }],
      tools: TOOLS,
      tool_choice: 'required',
    };
    const { body } = await harness().call(request, key, asJson);
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^tooluse_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{}' },
      },
    ]);
    const { body: events } = await harness().call({ ...request, stream: true }, key, readSse);
    const deltas = chunks(events).flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^tooluse_/),
      function: { name: 'get_weather' },
    });
    expect(deltas.map((d: Loose) => d.function.arguments).join('')).toBe('{}');
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('sends tool calls and results back as toolUse and toolResult blocks in alternating turns', async () => {
    const { res, body } = await harness().call(
      {
        model: 'bedrock/echo',
        messages: toolRoundTrip('tooluse_1'),
        tools: TOOLS,
      },
      key,
      asJson,
    );
    expect(res.status).toBe(200);
    // The fake refuses non-alternating turns: the tool result and 'thanks' travel as one user turn.
    expect(body.choices[0].message.content).toBe('thanks');
  });

  it('ends a cut stream with stream_incomplete and a corrupt message with malformed_chunk', async () => {
    for (const [fault, code] of [
      ['cut_after=2', 'stream_incomplete'],
      ['malformed_after=1', 'malformed_chunk'],
    ]) {
      const h = harness();
      const { body } = await h.call(
        {
          model: `bedrock/echo;${fault}`,
          messages: [{ role: 'user', content: 'a b c d e f' }],
          stream: true,
        },
        key,
        readSse,
      );
      expect(JSON.parse(body.at(-1)!.data).error).toMatchObject({ code });
      expect(body.some((e) => e.data === '[DONE]')).toBe(false);
      expect(h.counts.settles[0]?.stream?.completed).toBe(false);
    }
  });

  it("re-shapes Bedrock's error into the OpenAI envelope with its status kept", async () => {
    const { res, body } = await harness().call(
      { model: 'bedrock/echo;status=429', messages: [{ role: 'user', content: 'hi' }] },
      key,
      asJson,
      { 'cf-aig-max-attempts': '1' },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(body.error.message).toContain('Too many requests');
  });

  it.each([
    [{ n: 2 }, 'n'],
    [
      {
        response_format: { type: 'json_object' },
        tools: [
          { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } },
        ],
      },
      'response_format',
    ],
    [
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }],
          },
        ],
      },
      'messages[0].content[0]',
    ],
  ])('refuses %j with a 400 naming the field, before anything is reserved', async (extra, param) => {
    const h = harness();
    const { res, body } = await h.call(
      { model: CLAUDE, messages: [{ role: 'user', content: 'hi' }], ...extra },
      key,
      asJson,
    );
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ param, code: 'unsupported_parameter' });
    expect(h.counts.settles).toEqual([]);
  });
});

describe('an Anthropic client in front of Bedrock', () => {
  const call = (body: Record<string, unknown>, read: (r: Response) => Promise<Loose>) =>
    harness().call({ max_tokens: 64, ...body }, key, read, {}, '/v1/messages');

  it('gets a message translated from Converse', async () => {
    const { res, body } = await call(
      {
        model: 'bedrock/echo',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello there, mock.' }],
      },
      asJson,
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello there, mock.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 19, output_tokens: 3 },
    });
  });

  it('streams Anthropic events, including a forced tool call', async () => {
    const { body } = await call(
      { model: 'bedrock/echo', messages: [{ role: 'user', content: 'one two three' }], stream: true },
      readSse,
    );
    expect(body[0]?.event).toBe('message_start');
    expect(body.map((e: ParsedEvent) => e.event).slice(-3)).toEqual([
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = chunks(body);
    expect(
      data
        .filter((d) => d.type === 'content_block_delta')
        .map((d) => d.delta.text)
        .join(''),
    ).toBe('one two three');
    expect(data.find((d) => d.type === 'message_delta')).toMatchObject({ usage: { output_tokens: 3 } });

    const { body: tool } = await call(
      {
        model: CLAUDE,
        messages: [{ role: 'user', content: 'weather?' }],
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'any' },
        stream: true,
      },
      readSse,
    );
    const events = chunks(tool);
    const start = events.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use');
    expect(start.content_block).toMatchObject({
      name: 'get_weather',
      id: expect.stringMatching(/^tooluse_/),
    });
    expect(events.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it('passes top_k to Anthropic models and refuses it for Llama with a 400 naming it', async () => {
    const ok = await call({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }], top_k: 5 }, asJson);
    expect(ok.res.status).toBe(200);
    const { res, body } = await call(
      {
        model: 'bedrock/meta.llama3-1-8b-instruct-v1:0',
        messages: [{ role: 'user', content: 'hi' }],
        top_k: 5,
      },
      asJson,
    );
    expect(res.status).toBe(400);
    expect(body.error.message).toContain('top_k');
  });
});
