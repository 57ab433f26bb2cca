import { describe, expect, it } from 'vitest';
import type { EncodeContext } from '../../../../src/codecs/codec';
import type { ChatRequest, Message, StreamEvent } from '../../../../src/codecs/ir';
import { workersAiUpstream } from '../../../../src/codecs/workers-ai/index';
import { GatewayError } from '../../../../src/core/errors';
import { SseFramer } from '../../../../src/sse/framer';
import {
  BARE_STREAM,
  CAPPED_STREAM,
  CUT_STREAM,
  FLAT_TOOL_ANSWER,
  FLAT_TOOL_STREAM,
  JSON_MODE_ANSWER,
  MALFORMED_STREAM,
  OPENAI_TOOL_ANSWER,
  STAMP,
  TEXT_ANSWER,
  TEXT_STREAM,
  TOOL_DELTA_STREAM,
} from '../fixtures/workers-ai-wire';
import { canonicalRequest } from '../fixtures/canonical';

const LLAMA = '@cf/meta/llama-3.1-8b-instruct';
const context = (model = LLAMA): EncodeContext => ({
  model,
  providerId: 'workers-ai',
  outputCap: 512,
  enforceCap: false,
  dropped: [],
});

const request = canonicalRequest;

const encode = (r: ChatRequest, model = LLAMA) => workersAiUpstream.encodeRequest(r, context(model));

function refusal(fn: () => unknown): { status: number; param: string | null; code: string | null } {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return { status: err.status, param: err.param, code: err.code };
    throw err;
  }
  throw new Error('expected a refusal');
}

const WEATHER = {
  name: 'get_weather',
  description: null,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Every canonical event a stream decodes to, fed in small byte pieces as the binding would deliver it. */
function decodeStream(text: string, pieceBytes = 5): (readonly StreamEvent[] | 'malformed')[] {
  const bytes = new TextEncoder().encode(text);
  const framer = new SseFramer();
  const decoder = workersAiUpstream.streamDecoder();
  const out: (readonly StreamEvent[] | 'malformed')[] = [];
  for (let i = 0; i < bytes.length; i += pieceBytes)
    for (const frame of framer.push(bytes.subarray(i, i + pieceBytes))) out.push(decoder.decode(frame.event));
  return out;
}
const flat = (results: (readonly StreamEvent[] | 'malformed')[]): StreamEvent[] =>
  results.flatMap((r) => (r === 'malformed' ? [] : r));

describe('Workers AI codec: requests', () => {
  it('writes the system prompt first, the turns as messages, and always a max_tokens (the cap when none is set)', () => {
    const body = encode(
      request({
        system: [{ type: 'text', text: 'Be brief.' }],
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        stream: true,
      }),
    );
    expect(body).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 512,
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stream: true,
    });
    expect(encode(request({ maxTokens: 7 })).max_tokens).toBe(7);
  });

  it('replays tool calls as OpenAI-shaped assistant tool_calls and results as tool messages, in order', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_1',
            content: [{ type: 'text', text: '18C' }],
            isError: false,
          },
          {
            type: 'tool_result',
            toolCallId: 'call_2',
            content: [{ type: 'text', text: 'timeout' }],
            isError: true,
          },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ];
    expect(encode(request({ messages })).messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '18C' },
      { role: 'tool', tool_call_id: 'call_2', name: 'get_weather', content: '{"error":"timeout"}' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
  });

  it('sends tools in the function shape, filling the descriptions the schema requires with empty text', () => {
    const body = encode(request({ tools: [WEATHER], toolChoice: { type: 'auto' } }));
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: '',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string', description: '' } },
            required: ['city'],
          },
        },
      },
    ]);
  });

  it("leaves the tools out for tool_choice 'none'", () => {
    expect(encode(request({ tools: [WEATHER], toolChoice: { type: 'none' } })).tools).toBeUndefined();
  });

  it('maps JSON mode: json_object as is, json_schema with its schema', () => {
    expect(encode(request({ responseFormat: { type: 'json_object' } })).response_format).toEqual({
      type: 'json_object',
    });
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const format = { type: 'json_schema', name: 'country', schema, strict: true } as const;
    expect(encode(request({ responseFormat: format })).response_format).toEqual({
      type: 'json_schema',
      json_schema: schema,
    });
  });

  it('joins text parts into the one string text-only models take, and sends parts with images to a vision model', () => {
    const content = [
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0' } },
    ] as const;
    const scout = '@cf/meta/llama-4-scout-17b-16e-instruct';
    expect(encode(request({ messages: [{ role: 'user', content }] }), scout).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0' } },
        ],
      },
    ]);
    const texts = [
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ] as const;
    expect(encode(request({ messages: [{ role: 'user', content: texts }] })).messages).toEqual([
      { role: 'user', content: 'one\ntwo' },
    ]);
  });

  it('refuses what Workers AI cannot honour with a 400 naming the field', () => {
    const image = { type: 'image', source: { kind: 'url', url: 'https://x.test/a.png' } } as const;
    const cases: [ChatRequest, string, string?][] = [
      [request({ n: 2 }), 'n'],
      [request({ stop: ['END'] }), 'stop'],
      [request({ messages: [{ role: 'user', content: [image] }] }), 'messages[0].content'],
      [request({ tools: [WEATHER], toolChoice: { type: 'required' } }), 'tool_choice'],
      [request({ tools: [WEATHER], toolChoice: { type: 'tool', name: 'get_weather' } }), 'tool_choice'],
      [request({ responseFormat: { type: 'json_object' }, stream: true }), 'response_format'],
      [
        request({ responseFormat: { type: 'json_object' } }),
        'response_format',
        '@cf/mistralai/mistral-small-3.1-24b-instruct',
      ],
      [
        request({
          messages: [
            {
              role: 'user',
              content: [{ type: 'tool_result', toolCallId: 'c', content: [image], isError: false }],
            },
          ],
        }),
        'messages[0].content[0].content',
      ],
    ];
    for (const [r, param, model] of cases) {
      expect(refusal(() => encode(r, model))).toEqual({ status: 400, param, code: 'unsupported_parameter' });
    }
  });
});

describe('Workers AI codec: whole answers', () => {
  it('reads text and usage, with the id, model and time of the stamp', () => {
    const r = workersAiUpstream.decodeResponse({ ...TEXT_ANSWER, edgeway: STAMP });
    expect(r).toEqual({
      id: STAMP.id,
      model: STAMP.model,
      created: STAMP.created,
      content: [{ type: 'text', text: TEXT_ANSWER.response }],
      finish: 'end',
      stopSequence: null,
      usage: { input: 21, output: 11, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
    });
  });

  it('reads flat tool calls with made-up stable ids and their arguments as JSON text', () => {
    const r = workersAiUpstream.decodeResponse({ ...FLAT_TOOL_ANSWER, edgeway: STAMP });
    expect(r.content).toEqual([
      {
        type: 'tool_call',
        id: 'call_wai0123456789abcdef_0',
        name: 'get_weather',
        arguments: '{"city":"Paris","unit":"celsius"}',
      },
    ]);
    expect(r.finish).toBe('tool_calls');
  });

  it('reads OpenAI-shaped tool calls with their own ids, and cached prompt tokens', () => {
    const r = workersAiUpstream.decodeResponse({ ...OPENAI_TOOL_ANSWER, edgeway: STAMP });
    expect(r.content.map((p) => (p.type === 'tool_call' ? [p.id, p.name, p.arguments] : p))).toEqual([
      ['chatcmpl-tool-9a1b2c3d4e5f', 'get_weather', '{"city": "Paris"}'],
      ['chatcmpl-tool-0f1e2d3c4b5a', 'get_time', '{"zone": "Europe/Paris"}'],
    ]);
    expect(r.usage).toEqual({
      input: 240,
      output: 40,
      cacheRead: 128,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 0,
    });
  });

  it('reads JSON mode’s object answer as its JSON text', () => {
    const r = workersAiUpstream.decodeResponse(JSON_MODE_ANSWER);
    expect(r.content).toEqual([{ type: 'text', text: '{"name":"India","capital":"New Delhi"}' }]);
  });

  it('says length when the answer used every token the stamp says was allowed', () => {
    const usage = { prompt_tokens: 5, completion_tokens: 64, total_tokens: 69 };
    expect(workersAiUpstream.decodeResponse({ response: 'x', usage, edgeway: STAMP }).finish).toBe('length');
  });

  it('refuses a body that is not an answer as a 502 from the provider', () => {
    for (const body of [null, 'text', { result: {} }, { tool_calls: [{ arguments: {} }] }]) {
      const err = (() => {
        try {
          workersAiUpstream.decodeResponse(body);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 502, code: 'bad_upstream_response', source: 'provider' });
    }
  });

  it("reads the adapter's error envelope: the message and Workers AI's code", () => {
    const body = { success: false, errors: [{ code: 5007, message: 'No such model @cf/x or task' }] };
    expect(workersAiUpstream.decodeError(body, new Headers())).toEqual({
      message: 'No such model @cf/x or task',
      type: '5007',
    });
    expect(workersAiUpstream.decodeError(null, new Headers())).toEqual({ message: null, type: null });
  });
});

describe('Workers AI codec: streams', () => {
  it('decodes a text stream: start from the stamp, text, then finish before usage, then end', () => {
    expect(flat(decodeStream(TEXT_STREAM))).toEqual([
      { type: 'start', id: STAMP.id, model: STAMP.model },
      { type: 'text', text: 'The' },
      { type: 'text', text: ' sky' },
      { type: 'text', text: ' is' },
      { type: 'text', text: ' blue.' },
      { type: 'finish', reason: 'end', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 21, output: 4, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });

  it('starts an unstamped stream unnamed', () => {
    expect(flat(decodeStream(BARE_STREAM))[0]).toEqual({ type: 'start', id: '', model: '' });
  });

  it('says length when the stream used the whole cap', () => {
    expect(flat(decodeStream(CAPPED_STREAM)).find((e) => e.type === 'finish')).toMatchObject({
      reason: 'length',
    });
  });

  it('decodes indexed tool-call deltas, skipping the null sentinel, and finishes with tool_calls', () => {
    const events = flat(decodeStream(TOOL_DELTA_STREAM)).filter((e) => e.type !== 'usage');
    expect(events.slice(1)).toEqual([
      { type: 'tool_call', index: 0, id: 'chatcmpl-tool-9a1b2c3d4e5f', name: 'get_weather' },
      { type: 'tool_arguments', index: 0, arguments: '{"city": ' },
      { type: 'tool_arguments', index: 0, arguments: '"Paris"}' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      { type: 'end' },
    ]);
  });

  it('decodes whole flat calls as consecutive tool calls with their arguments in one piece', () => {
    const events = flat(decodeStream(FLAT_TOOL_STREAM)).filter((e) => e.type.startsWith('tool'));
    expect(events).toEqual([
      { type: 'tool_call', index: 0, id: 'call_wai0123456789abcdef_0', name: 'get_weather' },
      { type: 'tool_arguments', index: 0, arguments: '{"city":"Paris"}' },
      { type: 'tool_call', index: 1, id: 'call_wai0123456789abcdef_1', name: 'get_time' },
      { type: 'tool_arguments', index: 1, arguments: '{}' },
    ]);
  });

  it('never ends a cut stream, so the relay reports it as cut', () => {
    const events = flat(decodeStream(CUT_STREAM));
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'text']);
  });

  it('reports a malformed event', () => {
    expect(decodeStream(MALFORMED_STREAM)).toContain('malformed');
  });

  it('turns an error event into an error', () => {
    const decoder = workersAiUpstream.streamDecoder();
    const events = decoder.decode({ event: null, data: '{"error":"3040: Capacity temporarily exceeded"}' });
    expect(events).toContainEqual({
      type: 'error',
      message: '3040: Capacity temporarily exceeded',
      errorType: 'api_error',
    });
  });
});

describe('Workers AI codec: embeddings', () => {
  const embeddings = workersAiUpstream.embeddings;
  const ctx = context('@cf/baai/bge-base-en-v1.5');

  it('sends the texts as `text` and reads the vectors, with usage as reported or else estimated', () => {
    expect(embeddings?.encodeRequest({ inputs: ['a', 'b'], dimensions: null }, ctx)).toEqual({
      text: ['a', 'b'],
    });
    expect(embeddings?.encodeRequest({ inputs: ['a'], dimensions: 768 }, ctx)).toEqual({ text: ['a'] });
    const answer = {
      shape: [2, 2],
      data: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      usage: { prompt_tokens: 3 },
    };
    const asked = { inputs: ['abcd', 'efgh'], dimensions: null };
    expect(embeddings?.decodeResponse(answer, '@cf/baai/bge-base-en-v1.5', asked)).toEqual({
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      model: '@cf/baai/bge-base-en-v1.5',
      inputTokens: 3,
    });
    const { usage: _, ...unreported } = answer;
    expect(embeddings?.decodeResponse(unreported, 'm', asked).inputTokens).toBe(2);
  });

  it('refuses more than 100 inputs naming `input`, and a size the model does not have naming `dimensions`', () => {
    const many = { inputs: Array(101).fill('x'), dimensions: null };
    expect(refusal(() => embeddings?.encodeRequest(many, ctx))).toMatchObject({
      status: 400,
      param: 'input',
    });
    const small = { inputs: ['x'], dimensions: 256 };
    expect(refusal(() => embeddings?.encodeRequest(small, ctx))).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
  });

  it('refuses an answer without vectors, or with a vector count not the input count, as a 502', () => {
    const asked = { inputs: ['a', 'b'], dimensions: null };
    expect(() => embeddings?.decodeResponse({ shape: [0] }, 'm', asked)).toThrow(GatewayError);
    expect(() => embeddings?.decodeResponse({ data: [[0.1]] }, 'm', asked)).toThrow(
      /1 embeddings for 2 inputs/,
    );
  });
});
