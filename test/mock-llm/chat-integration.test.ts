import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { chunksOf, parseSse, postOpenAI, streamedText, USER_HELLO, type Chunk } from './helpers';

interface ChatCompletion {
  id: string;
  object: string;
  created: number;
  model: string;
  system_fingerprint: string;
  choices: {
    index: number;
    message: {
      role: string;
      content: string | null;
      refusal: null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    logprobs: null;
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

async function chat(body: Record<string, unknown>): Promise<ChatCompletion> {
  const res = await postOpenAI('/v1/chat/completions', body);
  expect(res.status).toBe(200);
  return (await res.json()) as ChatCompletion;
}

async function streamChat(body: Record<string, unknown>): Promise<{ res: Response; text: string }> {
  const res = await postOpenAI('/v1/chat/completions', { ...body, stream: true });
  return { res, text: await res.text() };
}

const WEATHER_TOOLS = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
  { type: 'function', function: { name: 'other' } },
];

describe('POST /v1/chat/completions (JSON)', () => {
  it('returns a chat.completion with 16 generated words and usage by the documented rule', async () => {
    const res = await postOpenAI('/v1/chat/completions', { model: 'mock-small', messages: USER_HELLO });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await res.json()) as ChatCompletion;
    expect(body.object).toBe('chat.completion');
    expect(body.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(body.model).toBe('mock-small');
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
    expect(body.system_fingerprint).toMatch(/^fp_/);
    const choice = body.choices[0]!;
    expect(choice).toMatchObject({
      index: 0,
      logprobs: null,
      finish_reason: 'stop',
      message: { role: 'assistant', refusal: null },
    });
    const words = choice.message.content!.split(' ');
    expect(words).toHaveLength(16);
    expect(choice.message.content!.startsWith(' ')).toBe(false);
    // "Hello there, mock." is 18 chars: 4 + ceil(18/4) + 3 = 12.
    expect(body.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 16, total_tokens: 28 });
    expect(promptTokens(USER_HELLO)).toBe(12);
  });

  it('answers the same request with the same text and id, and another request differently', async () => {
    const req = { model: 'mock-small', messages: USER_HELLO };
    const [a, b] = await Promise.all([chat(req), chat(req)]);
    expect(a.id).toBe(b.id);
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
    const c = await chat({ model: 'mock-small', messages: [{ role: 'user', content: 'Something else' }] });
    expect(c.id).not.toBe(a.id);
    expect(c.choices[0]!.message.content).not.toBe(a.choices[0]!.message.content);
  });

  it('ignores key order and mock controls other than tokens when choosing the text', async () => {
    const a = await chat({ model: 'mock-small', messages: USER_HELLO });
    const b = await chat({ messages: USER_HELLO, model: 'mock-small', mock: { latency_ms: 1 } });
    expect(b.choices[0]!.message.content).toBe(a.choices[0]!.message.content);
    expect(b.id).toBe(a.id);
  });

  it('generates mock.tokens words', async () => {
    const body = await chat({ model: 'mock-large', messages: USER_HELLO, mock: { tokens: 3 } });
    expect(body.choices[0]!.message.content!.split(' ')).toHaveLength(3);
    expect(body.usage.completion_tokens).toBe(3);
  });

  it('echoes the last user message for echo models, string or text parts', async () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'an answer' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hello  ' },
          { type: 'image_url', image_url: { url: 'x' } },
          { type: 'text', text: 'world!' },
        ],
      },
    ];
    const body = await chat({ model: 'echo-1', messages });
    expect(body.choices[0]!.message.content).toBe('Hello  world!');
    expect(body.usage.completion_tokens).toBe(2);
    expect(body.usage.prompt_tokens).toBe(promptTokens(messages));
  });

  it('echoes an empty message as empty content with zero completion tokens', async () => {
    const body = await chat({ model: 'echo', messages: [{ role: 'user', content: '' }] });
    expect(body.choices[0]!.message.content).toBe('');
    expect(body.usage.completion_tokens).toBe(0);
    expect(body.choices[0]!.finish_reason).toBe('stop');
  });

  it('truncates at max_tokens or max_completion_tokens with finish_reason "length"', async () => {
    const a = await chat({
      model: 'echo',
      messages: [{ role: 'user', content: 'one two three four' }],
      max_tokens: 2,
    });
    expect(a.choices[0]!.message.content).toBe('one two');
    expect(a.choices[0]!.finish_reason).toBe('length');
    expect(a.usage.completion_tokens).toBe(2);
    const b = await chat({ model: 'mock-small', messages: USER_HELLO, max_completion_tokens: 5 });
    expect(b.choices[0]!.message.content!.split(' ')).toHaveLength(5);
    expect(b.choices[0]!.finish_reason).toBe('length');
    const c = await chat({ model: 'echo', messages: [{ role: 'user', content: 'one two' }], max_tokens: 2 });
    expect(c.choices[0]!.finish_reason).toBe('stop');
  });

  it('answers with a call to the first function tool when mock.tool_call is set', async () => {
    const body = await chat({
      model: 'mock-small',
      messages: USER_HELLO,
      tools: WEATHER_TOOLS,
      mock: { tool_call: true },
    });
    const choice = body.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{}' },
      },
    ]);
    expect(body.usage.completion_tokens).toBe(8);
    const again = await chat({
      model: 'mock-small',
      messages: USER_HELLO,
      tools: WEATHER_TOOLS,
      mock: { tool_call: true },
    });
    expect(again.choices[0]!.message.tool_calls![0]!.id).toBe(choice.message.tool_calls![0]!.id);
  });

  it('answers with text when mock.tool_call is set but the request has no tools', async () => {
    const body = await chat({ model: 'mock-small', messages: USER_HELLO, mock: { tool_call: true } });
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(typeof body.choices[0]!.message.content).toBe('string');
  });
});

describe('POST /v1/chat/completions (stream)', () => {
  it('streams chunks whose deltas concatenate to the JSON content, then [DONE]', async () => {
    const req = { model: 'mock-small', messages: USER_HELLO };
    const json = await chat(req);
    const { res, text } = await streamChat(req);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);

    const events = parseSse(text);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = chunksOf(events);
    expect(chunks).toHaveLength(1 + 16 + 1);
    for (const c of chunks) {
      expect(c).toMatchObject({ id: json.id, object: 'chat.completion.chunk', model: 'mock-small' });
      expect(c.created).toBe(chunks[0]!.created);
      expect('usage' in c).toBe(false);
    }
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: '' });
    expect(chunks.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(streamedText(chunks)).toBe(json.choices[0]!.message.content);
  });

  it('adds usage:null to every chunk and a final choices:[] usage chunk with include_usage', async () => {
    const { text } = await streamChat({
      model: 'mock-small',
      messages: USER_HELLO,
      stream_options: { include_usage: true },
      mock: { tokens: 4 },
    });
    const events = parseSse(text);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = chunksOf(events);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(
      expect.objectContaining({ prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 }),
    );
    const rest = chunks.slice(0, -1);
    expect(rest.every((c) => c.usage === null)).toBe(true);
    expect(rest.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('sends no usage when include_usage is false', async () => {
    const { text } = await streamChat({
      model: 'mock-small',
      messages: USER_HELLO,
      stream_options: { include_usage: false },
    });
    expect(chunksOf(parseSse(text)).some((c) => 'usage' in c)).toBe(false);
  });

  it('streams echo tokens one per event with whitespace leading each word', async () => {
    const { text } = await streamChat({
      model: 'echo',
      messages: [{ role: 'user', content: 'Hello world, again ' }],
    });
    const deltas = chunksOf(parseSse(text)).map((c) => c.choices[0]!.delta.content);
    expect(deltas).toEqual(['', 'Hello', ' world,', ' again', ' ', undefined]);
  });

  it('reports finish_reason "length" when max_tokens truncates the stream', async () => {
    const { text } = await streamChat({ model: 'mock-small', messages: USER_HELLO, max_tokens: 3 });
    const chunks = chunksOf(parseSse(text));
    expect(chunks).toHaveLength(1 + 3 + 1);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
  });

  it('streams a tool call as tool_calls deltas with an index', async () => {
    const { text } = await streamChat({
      model: 'mock-small',
      messages: USER_HELLO,
      tools: WEATHER_TOOLS,
      mock: { tool_call: true },
    });
    const chunks: Chunk[] = chunksOf(parseSse(text));
    const first = chunks[0]!.choices[0]!.delta;
    expect(first).toMatchObject({ role: 'assistant', content: null });
    expect(first.tool_calls).toEqual([
      {
        index: 0,
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      },
    ]);
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t) => t.function.arguments)
      .join('');
    expect(args).toBe('{}');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });
});
