/**
 * Gemini end to end through the real gateway: OpenAI and Anthropic clients in
 * front of `gemini/<model>`, translated by the Gemini codec and sent to the
 * mock LLM's fake of generateContent / streamGenerateContent /
 * batchEmbedContents (which enforces Google's shapes), JSON and streams,
 * tools, cut and malformed streams, provider errors and refusals; the usage
 * settled and logged is Gemini's own count.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../exchange-harness';
import { asJson, eventData, type Loose, toolRoundTrip } from '../answer-helpers';
import { type ParsedEvent, readSse, seedKey } from '../helpers';

const chunks = eventData;
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false },
    },
  },
];
const HELLO = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hello there, mock.' },
];
/** The mock's rule: 3 + Σ(4 + ⌈chars/4⌉), the system instruction counted as a message. */
const HELLO_PROMPT = 3 + (4 + 3) + (4 + 5);

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_gemini', limits: { rpm: 1000 } })).secret;
});

describe('an OpenAI client in front of Gemini', () => {
  it('gets a chat completion translated from generateContent, with usage settled and logged', async () => {
    const h = harness();
    const { res, body } = await h.call({ model: 'gemini/echo', messages: HELLO }, key, asJson);
    expect(res.status).toBe(200);
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Hello there, mock.' });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toMatchObject({ prompt_tokens: HELLO_PROMPT, completion_tokens: 3 });
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: HELLO_PROMPT,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(h.counts.events[0]).toMatchObject({ status: 200, provider: 'gemini', outputTokens: 3 });
  });

  it('streams chunks translated from Gemini SSE, ending with usage and [DONE]', async () => {
    const h = harness();
    const { res, body } = await h.call(
      { model: 'gemini/echo', messages: HELLO, stream: true, stream_options: { include_usage: true } },
      key,
      readSse,
    );
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(body.at(-1)?.data).toBe('[DONE]');
    const data = chunks(body);
    expect(data.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello there, mock.');
    expect(data.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    expect(data.at(-1).usage).toMatchObject({ prompt_tokens: HELLO_PROMPT, completion_tokens: 3 });
    expect(h.counts.settles[0]?.usage).toEqual({
      inputTokens: HELLO_PROMPT,
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
      model: 'gemini/gemini-2.0-flash',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: TOOLS,
      tool_choice: 'required',
    };
    const { body } = await harness().call(request, key, asJson);
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_\w+_0$/),
        type: 'function',
        // The mock fills the arguments from the tool's parameters schema.
        function: { name: 'get_weather', arguments: '{"city":"string"}' },
      },
    ]);
    const { body: events } = await harness().call({ ...request, stream: true }, key, readSse);
    const deltas = chunks(events).flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: body.choices[0].message.tool_calls[0].id,
      function: { name: 'get_weather' },
    });
    expect(deltas.map((d: Loose) => d.function.arguments ?? '').join('')).toBe('{"city":"string"}');
    expect(chunks(events).find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe(
      'tool_calls',
    );
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('sends tool calls and results back as functionCall and functionResponse parts', async () => {
    const { res, body } = await harness().call(
      {
        model: 'gemini/echo',
        messages: toolRoundTrip('call_1'),
        tools: TOOLS,
      },
      key,
      asJson,
    );
    expect(res.status).toBe(200);
    expect(body.choices[0].message.content).toBe('thanks');
  });

  it('ends a cut stream with stream_incomplete and a corrupt chunk with malformed_chunk', async () => {
    for (const [fault, code] of [
      ['cut_after=2', 'stream_incomplete'],
      ['malformed_after=1', 'malformed_chunk'],
    ]) {
      const h = harness();
      const { body } = await h.call(
        { model: `gemini/echo;${fault}`, messages: [{ role: 'user', content: 'a b c d e f' }], stream: true },
        key,
        readSse,
      );
      expect(JSON.parse(body.at(-1)?.data ?? '{}').error).toMatchObject({ code });
      expect(body.some((e) => e.data === '[DONE]')).toBe(false);
      expect(h.counts.settles[0]?.stream?.completed).toBe(false);
    }
  });

  it("re-shapes Gemini's error into the OpenAI envelope with its status kept", async () => {
    const { res, body } = await harness().call(
      { model: 'gemini/echo;status=429', messages: [{ role: 'user', content: 'hi' }] },
      key,
      asJson,
      { 'cf-aig-max-attempts': '1' },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(body.error.message).toContain('Resource has been exhausted');
  });

  it('scrubs the Gemini key from an error that echoes it', async () => {
    const { body } = await harness().call(
      {
        model: 'gemini/echo;status=400;error_message=bad%20key%20{key}',
        messages: [{ role: 'user', content: 'hi' }],
      },
      key,
      asJson,
    );
    expect(body.error.message).toContain('bad key [redacted]');
    expect(JSON.stringify(body)).not.toContain('test-gemini-key');
  });

  it.each([
    [{ n: 2 }, 'n'],
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
      { model: 'gemini/gemini-2.0-flash', messages: [{ role: 'user', content: 'hi' }], ...extra },
      key,
      asJson,
    );
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ param, code: 'unsupported_parameter' });
    expect(h.counts.settles).toEqual([]);
  });

  it('gets embeddings from batchEmbedContents, in input order', async () => {
    const { res, body } = await harness().call(
      { model: 'gemini/text-embedding-004', input: ['alpha', 'beta'], dimensions: 8 },
      key,
      asJson,
      {},
      '/v1/embeddings',
    );
    expect(res.status).toBe(200);
    expect(body.data.map((d: Loose) => [d.index, d.embedding.length])).toEqual([
      [0, 8],
      [1, 8],
    ]);
  });
});

describe('an Anthropic client in front of Gemini', () => {
  const call = (body: Record<string, unknown>, read: (r: Response) => Promise<Loose>) =>
    harness().call({ max_tokens: 64, ...body }, key, read, {}, '/v1/messages');

  it('gets a message translated from generateContent', async () => {
    const { res, body } = await call(
      {
        model: 'gemini/echo',
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
      usage: { input_tokens: HELLO_PROMPT, output_tokens: 3 },
    });
  });

  it('streams Anthropic events, including a forced tool call', async () => {
    const { body } = await call(
      { model: 'gemini/echo', messages: [{ role: 'user', content: 'one two three' }], stream: true },
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
        model: 'gemini/gemini-2.0-flash',
        messages: [{ role: 'user', content: 'weather?' }],
        tools: [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        tool_choice: { type: 'any' },
        stream: true,
      },
      readSse,
    );
    const events = chunks(tool);
    const start = events.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use');
    expect(start.content_block).toMatchObject({ name: 'get_weather', id: expect.stringMatching(/^call_/) });
    expect(events.find((d) => d.type === 'message_delta')?.delta.stop_reason).toBe('tool_use');
  });
});
