import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { BASE, tryJson } from './helpers';

const KEY = { 'x-goog-api-key': 'test-gemini-key' };

function call(path: string, body: unknown, headers: Record<string, string> = KEY): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const generate = (model: string, body: unknown, headers?: Record<string, string>) =>
  call(`/v1beta/models/${model}:generateContent`, body, headers);
const streamSse = (model: string, body: unknown) =>
  call(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, body);

const HELLO = { contents: [{ role: 'user', parts: [{ text: 'Hello there, mock.' }] }] };
const WEATHER_TOOL = {
  functionDeclarations: [
    { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  ],
};

interface GeminiAnswer {
  candidates: {
    content: { parts: Record<string, unknown>[]; role: string };
    finishReason?: string;
    index: number;
  }[];
  usageMetadata: { promptTokenCount: number; candidatesTokenCount?: number; totalTokenCount: number };
  modelVersion: string;
  responseId: string;
}

async function errorOf(res: Response): Promise<{ code: number; message: string; status: string }> {
  return ((await res.json()) as { error: { code: number; message: string; status: string } }).error;
}

/** The data events of a Gemini SSE body, checking Google's CRLF framing. */
function sseChunks(text: string): string[] {
  expect(text.endsWith('\r\n\r\n') || text === '').toBe(true);
  return text
    .split('\r\n\r\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice(6);
    });
}

describe('Gemini fake: generateContent', () => {
  it('echoes the last user text with usage by the mock rules', async () => {
    const res = await generate('echo', HELLO);
    expect(res.status).toBe(200);
    const body = (await res.json()) as GeminiAnswer;
    expect(body.candidates).toEqual([
      { content: { parts: [{ text: 'Hello there, mock.' }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ]);
    const prompt = promptTokens([{ content: 'Hello there, mock.' }]);
    expect(body.usageMetadata).toMatchObject({
      promptTokenCount: prompt,
      candidatesTokenCount: 3,
      totalTokenCount: prompt + 3,
    });
    expect(body.modelVersion).toBe('echo');
    expect(body.responseId).toMatch(/^\w{22}$/);
  });

  it('counts the system instruction as one more message and stops at maxOutputTokens', async () => {
    const res = await generate('gemini-2.0-flash', {
      ...HELLO,
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 3 },
    });
    const body = (await res.json()) as GeminiAnswer;
    expect(body.candidates[0]?.finishReason).toBe('MAX_TOKENS');
    expect(body.usageMetadata.candidatesTokenCount).toBe(3);
    expect(body.usageMetadata.promptTokenCount).toBe(
      promptTokens([{ content: 'Be brief.' }, { content: 'Hello there, mock.' }]),
    );
  });

  it('calls a function when the config forces it (ANY), without an id, as 2.x models do', async () => {
    const body = (await (
      await generate('gemini-2.0-flash', {
        ...HELLO,
        tools: [WEATHER_TOOL],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      })
    ).json()) as GeminiAnswer;
    expect(body.candidates[0]?.content.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'string' } } },
    ]);
    expect(body.candidates[0]?.finishReason).toBe('STOP');
  });

  it('calls a function on mock.tool_call, but never in NONE mode', async () => {
    const asked = (await (
      await generate('gemini-m', { ...HELLO, tools: [WEATHER_TOOL], mock: { tool_call: true } })
    ).json()) as GeminiAnswer;
    expect(asked.candidates[0]?.content.parts[0]).toHaveProperty('functionCall');
    const none = (await (
      await generate('gemini-m', {
        ...HELLO,
        tools: [WEATHER_TOOL],
        toolConfig: { functionCallingConfig: { mode: 'NONE' } },
        mock: { tool_call: true },
      })
    ).json()) as GeminiAnswer;
    expect(none.candidates[0]?.content.parts[0]).toHaveProperty('text');
  });

  it('accepts a replayed call and its functionResponse, with a thought signature', async () => {
    const res = await generate('echo', {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: 'skip_thought_signature_validator',
            },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { output: '18°C' } } }],
        },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(res.status).toBe(200);
  });
});

describe('Gemini fake: validation as the real API does it', () => {
  it.each([
    ['no contents', {}, 'contents is not specified'],
    ['an unknown field', { ...HELLO, messages: [] }, 'Unknown name "messages"'],
    [
      'a bad role',
      { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] },
      'Please use a valid role: user, model.',
    ],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, 'contents.parts must not be empty'],
    [
      'a part with two kinds of data',
      {
        contents: [
          { role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: 'AA==' } }] },
        ],
      },
      'exactly one',
    ],
    [
      'additionalProperties in a schema',
      {
        ...HELLO,
        tools: [
          {
            functionDeclarations: [
              {
                name: 'f',
                parameters: {
                  type: 'object',
                  properties: { a: { type: 'string' } },
                  additionalProperties: false,
                },
              },
            ],
          },
        ],
      },
      'Unknown name "additionalProperties"',
    ],
    [
      'an OBJECT without properties',
      {
        ...HELLO,
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: {} } }] }],
      },
      'should be non-empty for OBJECT type',
    ],
    [
      'allowed names outside ANY',
      {
        ...HELLO,
        tools: [WEATHER_TOOL],
        toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['get_weather'] } },
      },
      'only be set when the Mode is ANY',
    ],
    [
      'six stop sequences',
      { ...HELLO, generationConfig: { stopSequences: ['1', '2', '3', '4', '5', '6'] } },
      'stop sequences',
    ],
    [
      'a schema without JSON mime type',
      { ...HELLO, generationConfig: { responseSchema: { type: 'string' } } },
      'response_mime_type',
    ],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_name, body, message) => {
    const res = await generate('gemini-2.0-flash', body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(error.message).toContain(message);
  });

  it('refuses malformed JSON', async () => {
    const res = await generate('gemini-2.0-flash', '{"contents": [');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^Invalid JSON payload received/);
  });

  it('refuses a call with no API key with 403 PERMISSION_DENIED, and takes ?key= as the real API does', async () => {
    const res = await generate('gemini-2.0-flash', HELLO, {});
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    expect((await call('/v1beta/models/echo:generateContent?key=k', HELLO, {})).status).toBe(200);
  });

  it('answers an unknown method with 404 NOT_FOUND', async () => {
    const res = await call('/v1beta/models/echo:embedContent', HELLO);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).status).toBe('NOT_FOUND');
  });
});

describe('Gemini fake: streamGenerateContent', () => {
  it('streams one chunk per token and a last chunk with the finish reason and full usage, no terminator', async () => {
    const res = await streamSse('echo', HELLO);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = sseChunks(await res.text()).map((d) => JSON.parse(d) as GeminiAnswer);
    expect(chunks.map((c) => c.candidates[0]?.content.parts[0]?.text).join('')).toBe('Hello there, mock.');
    const last = chunks.at(-1) as GeminiAnswer;
    expect(last.candidates[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata.candidatesTokenCount).toBe(3);
    expect(chunks.slice(0, -1).every((c) => c.candidates[0]?.finishReason === undefined)).toBe(true);
    expect(chunks[0]?.usageMetadata).toMatchObject({ promptTokenCount: last.usageMetadata.promptTokenCount });
    expect(new Set(chunks.map((c) => c.responseId)).size).toBe(1);
  });

  it('streams a function call whole in one chunk', async () => {
    const res = await streamSse('gemini-m', {
      ...HELLO,
      tools: [WEATHER_TOOL],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    const chunks = sseChunks(await res.text()).map((d) => JSON.parse(d) as GeminiAnswer);
    expect(chunks[0]?.candidates[0]?.content.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'string' } } },
    ]);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('cuts a stream before the finish chunk with mock.cut_after', async () => {
    const res = await streamSse('echo', { ...HELLO, mock: { cut_after: 2 } });
    const chunks = sseChunks(await res.text()).map((d) => JSON.parse(d) as GeminiAnswer);
    expect(chunks).toHaveLength(2);
    expect(chunks.some((c) => c.candidates[0]?.finishReason)).toBe(false);
  });

  it('sends a truncated event with mock.malformed_after', async () => {
    const res = await streamSse('echo', { ...HELLO, mock: { malformed_after: 1 } });
    const data = sseChunks(await res.text());
    expect(data.filter((d) => tryJson(d) === undefined)).toHaveLength(1);
  });

  it('answers one JSON array without alt=sse', async () => {
    const res = await call('/v1beta/models/echo:streamGenerateContent', HELLO);
    const body = (await res.json()) as GeminiAnswer[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });
});

describe('Gemini fake: faults', () => {
  it.each([
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('injects %i in Google’s envelope with status %s', async (status, word) => {
    const res = await generate('echo', { ...HELLO, mock: { status } });
    expect(res.status).toBe(status);
    expect(await errorOf(res)).toMatchObject({ code: status, status: word });
  });

  it('fails the first N requests of a key, then answers', async () => {
    const body = { ...HELLO, mock: { status: 503, fail_first: 1, key: `gemini-${crypto.randomUUID()}` } };
    expect((await generate('echo', body)).status).toBe(503);
    expect((await generate('echo', body)).status).toBe(200);
  });

  it('echoes the key in a custom error message when asked (for scrubbing tests)', async () => {
    const res = await generate('echo', {
      ...HELLO,
      mock: { status: 400, error_message: 'API key not valid: {key}' },
    });
    expect((await errorOf(res)).message).toBe('API key not valid: test-gemini-key');
  });

  it('pads an error body to about error_body_bytes', async () => {
    const res = await generate('echo', { ...HELLO, mock: { status: 500, error_body_bytes: 100_000 } });
    const text = await res.text();
    expect(text.length).toBeGreaterThanOrEqual(99_000);
    expect((JSON.parse(text) as { error: { status: string } }).error.status).toBe('INTERNAL');
  });

  it('refuses an unknown mock control, naming it', async () => {
    const res = await generate('echo', { ...HELLO, mock: { nope: 1 } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain('mock.nope');
  });
});

describe('Gemini fake: batchEmbedContents', () => {
  const embed = (model: string, body: unknown) => call(`/v1beta/models/${model}:batchEmbedContents`, body);
  const request = (text: string, extra: Record<string, unknown> = {}) => ({
    model: 'models/text-embedding-004',
    content: { parts: [{ text }] },
    ...extra,
  });

  it('answers one deterministic unit vector per request, no usage', async () => {
    const body = { requests: [request('a'), request('b', { outputDimensionality: 8 })] };
    const res = await embed('text-embedding-004', body);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { embeddings: { values: number[] }[] };
    expect(Object.keys(answer)).toEqual(['embeddings']);
    expect(answer.embeddings.map((e) => e.values.length)).toEqual([768, 8]);
    const norm = Math.hypot(...(answer.embeddings[1]?.values ?? []));
    expect(norm).toBeCloseTo(1, 5);
    expect(await (await embed('text-embedding-004', body)).json()).toEqual(answer);
  });

  it('refuses a request naming another model, and more than 100 requests', async () => {
    const wrong = await embed('text-embedding-004', {
      requests: [{ ...request('a'), model: 'models/other' }],
    });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toContain('Model names should match');
    const many = await embed('text-embedding-004', {
      requests: Array.from({ length: 101 }, () => request('a')),
    });
    expect((await errorOf(many)).message).toContain('at most 100 requests');
  });
});
