import { describe, expect, it } from 'vitest';
import { bedrockUpstream } from '../../../../src/codecs/bedrock/index';
import type { EncodeContext } from '../../../../src/codecs/codec';
import type { ChatRequest } from '../../../../src/codecs/ir';
import { GatewayError } from '../../../../src/core/errors';
import errorFixture from '../fixtures/bedrock-error-validation.json';
import textAnswer from '../fixtures/bedrock-converse-text.json';
import toolAnswer from '../fixtures/bedrock-converse-tool.json';
import cutStream from '../fixtures/bedrock-stream-cut.json';
import exceptionStream from '../fixtures/bedrock-stream-exception.json';
import toolStream from '../fixtures/bedrock-stream-tool.json';
import { concat, decodeAll, encodeEvent, type RecordedEvent, transformToSse } from '../fixtures/bedrock-wire';
import { canonicalRequest } from '../fixtures/canonical';

const CONTEXT: EncodeContext = {
  model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  providerId: 'bedrock',
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
};

const request = canonicalRequest;

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

const TOOL_TURN: ChatRequest['messages'] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool_call', id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        toolCallId: 'tooluse_1',
        content: [{ type: 'text', text: '18C' }],
        isError: false,
      },
    ],
  },
];

function refusal(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a GatewayError');
}

async function streamEvents(events: readonly unknown[]) {
  const bytes = concat((events as RecordedEvent[]).map(encodeEvent));
  const { events: sse } = await transformToSse([bytes]);
  return decodeAll(sse);
}

describe('Bedrock codec: requests', () => {
  it('writes system, messages, inference settings and tools in the Converse shape', () => {
    const body = bedrockUpstream.encodeRequest(
      request({
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          ...TOOL_TURN,
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' } },
            ],
          },
        ],
        maxTokens: 300,
        temperature: 0.2,
        topP: 0.9,
        stop: ['###'],
        tools: [WEATHER],
        toolChoice: { type: 'required' },
      }),
      CONTEXT,
    );
    expect(body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'tooluse_1', content: [{ text: '18C' }] } },
            { image: { format: 'png', source: { bytes: 'iVBORw0K' } } },
          ],
        },
      ],
      inferenceConfig: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['###'] },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'get_weather',
              description: 'Current weather',
              inputSchema: { json: WEATHER.parameters },
            },
          },
        ],
        toolChoice: { any: {} },
      },
    });
    expect(body).not.toHaveProperty('modelId');
  });

  it('maps each tool choice and marks failed tool results', () => {
    const tools = [WEATHER];
    const choice = (toolChoice: ChatRequest['toolChoice']) =>
      (
        bedrockUpstream.encodeRequest(request({ tools, toolChoice }), CONTEXT).toolConfig as {
          toolChoice?: unknown;
        }
      ).toolChoice;
    expect(choice({ type: 'auto' })).toEqual({ auto: {} });
    expect(choice({ type: 'tool', name: 'get_weather' })).toEqual({ tool: { name: 'get_weather' } });
    expect(choice(null)).toBeUndefined();
    const failed = bedrockUpstream.encodeRequest(
      request({
        messages: [
          TOOL_TURN[0]!,
          TOOL_TURN[1]!,
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'tooluse_1',
                content: [{ type: 'text', text: 'down' }],
                isError: true,
              },
            ],
          },
        ],
        tools,
      }),
      CONTEXT,
    );
    expect(JSON.stringify(failed.messages)).toContain('"status":"error"');
  });

  it("omits the tools for tool_choice 'none' with no tool history, and refuses it with one", () => {
    const none = { type: 'none' } as const;
    expect(
      bedrockUpstream.encodeRequest(request({ tools: [WEATHER], toolChoice: none }), CONTEXT),
    ).not.toHaveProperty('toolConfig');
    const err = refusal(() =>
      bedrockUpstream.encodeRequest(
        request({ messages: TOOL_TURN, tools: [WEATHER], toolChoice: none }),
        CONTEXT,
      ),
    );
    expect(err).toMatchObject({ status: 400, param: 'tool_choice', code: 'unsupported_parameter' });
  });

  it('joins consecutive turns of one role and drops empty text blocks', () => {
    const body = bedrockUpstream.encodeRequest(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'One' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: '' },
              { type: 'text', text: 'Two' },
            ],
          },
        ],
      }),
      CONTEXT,
    );
    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'One' }, { text: 'Two' }] }]);
  });

  it('sends the reserved output cap only when asked to enforce it', () => {
    expect(bedrockUpstream.encodeRequest(request(), CONTEXT)).not.toHaveProperty('inferenceConfig');
    expect(
      bedrockUpstream.encodeRequest(request(), { ...CONTEXT, enforceCap: true, dropped: [] }).inferenceConfig,
    ).toEqual({
      maxTokens: 4096,
    });
  });

  it('passes top_k to Anthropic models and refuses it for others', () => {
    expect(
      bedrockUpstream.encodeRequest(request({ topK: 40 }), CONTEXT).additionalModelRequestFields,
    ).toEqual({
      top_k: 40,
    });
    expect(
      bedrockUpstream.encodeRequest(request({ topK: 5 }), {
        ...CONTEXT,
        model: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
      }).additionalModelRequestFields,
    ).toEqual({ top_k: 5 });
    const err = refusal(() =>
      bedrockUpstream.encodeRequest(request({ topK: 40 }), {
        ...CONTEXT,
        model: 'meta.llama3-1-8b-instruct-v1:0',
      }),
    );
    expect(err).toMatchObject({ status: 400, param: 'top_k', code: 'unsupported_parameter' });
  });

  it('refuses what Converse cannot carry, naming the field', () => {
    const cases: [Partial<ChatRequest>, string][] = [
      [{ n: 2 }, 'n'],
      [{ responseFormat: { type: 'json_object' }, tools: [WEATHER] }, 'response_format'],
      [
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is this?' },
                { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
              ],
            },
          ],
        },
        'messages[0].content[1]',
      ],
      [
        {
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/tiff', data: 'AAAA' } }],
            },
          ],
        },
        'messages[0].content[0]',
      ],
    ];
    for (const [overrides, param] of cases) {
      const err = refusal(() => bedrockUpstream.encodeRequest(request(overrides), CONTEXT));
      expect(err).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
    }
  });

  it('refuses tool-call arguments that are not a JSON object', () => {
    const err = refusal(() =>
      bedrockUpstream.encodeRequest(
        request({
          messages: [
            TOOL_TURN[0]!,
            { role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '[1]' }] },
          ],
        }),
        CONTEXT,
      ),
    );
    expect(err).toMatchObject({ status: 400, param: 'messages[1].content[0].arguments' });
  });
});

describe('Bedrock codec: answers and errors', () => {
  it('reads a text answer, counting cache reads into the input tokens', () => {
    const answer = bedrockUpstream.decodeResponse(textAnswer);
    expect(answer).toMatchObject({
      content: [{ type: 'text', text: 'The capital of France is Paris.' }],
      finish: 'end',
      stopSequence: null,
      usage: { input: 1038, output: 10, cacheRead: 1024, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
    });
    expect(answer.id).toMatch(/^bedrock-/);
  });

  it('reads a tool-use answer with its arguments as JSON text', () => {
    const answer = bedrockUpstream.decodeResponse(toolAnswer);
    expect(answer.content).toEqual([
      { type: 'text', text: "I'll look up the weather in Paris for you." },
      {
        type: 'tool_call',
        id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
        name: 'get_weather',
        arguments: '{"city":"Paris","unit":"celsius"}',
      },
    ]);
    expect(answer.finish).toBe('tool_calls');
    expect(answer.usage).toEqual({
      input: 412,
      output: 76,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite1h: 0,
      reasoning: 0,
    });
  });

  it('maps every stop reason', () => {
    const finish = (stopReason: string) =>
      bedrockUpstream.decodeResponse({ ...textAnswer, stopReason }).finish;
    expect(finish('max_tokens')).toBe('length');
    expect(finish('stop_sequence')).toBe('stop_sequence');
    expect(finish('guardrail_intervened')).toBe('content_filter');
    expect(finish('content_filtered')).toBe('content_filter');
  });

  it('answers 502 bad_upstream_response for a body that is not a Converse answer', () => {
    const err = refusal(() => bedrockUpstream.decodeResponse({ message: 'hi' }));
    expect(err).toMatchObject({ status: 502, code: 'bad_upstream_response', source: 'provider' });
  });

  it('reads the error type from x-amzn-errortype and the message from the body', () => {
    const fault = bedrockUpstream.decodeError(errorFixture.body, new Headers(errorFixture.headers));
    expect(fault).toEqual({ type: 'ValidationException', message: errorFixture.body.message });
    expect(
      bedrockUpstream.decodeError(
        { __type: 'com.amazon.coral#ThrottlingException', Message: 'slow down' },
        new Headers(),
      ),
    ).toEqual({
      type: 'ThrottlingException',
      message: 'slow down',
    });
    expect(bedrockUpstream.decodeError(null, new Headers())).toEqual({ type: null, message: null });
  });
});

describe('Bedrock codec: streams', () => {
  it('decodes a recorded stream with text and two tool calls, ending after metadata', async () => {
    const events = await streamEvents(toolStream);
    expect(events[0]).toMatchObject({ type: 'start', model: '' });
    expect(events.slice(1)).toEqual([
      { type: 'text', text: 'Let me check' },
      { type: 'text', text: ' the weather.' },
      { type: 'tool_call', index: 0, id: 'tooluse_3xXUx7MhQ2yRBMRJkb3x1w', name: 'get_weather' },
      { type: 'tool_arguments', index: 0, arguments: '{"city": "Pa' },
      { type: 'tool_arguments', index: 0, arguments: 'ris"}' },
      { type: 'tool_call', index: 1, id: 'tooluse_Q8GpxY0QQ9qtdz1OiiQJ9A', name: 'get_time' },
      { type: 'tool_arguments', index: 1, arguments: '{"tz": "Europe/Paris"}' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 436, output: 118, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });

  it('never ends a stream cut after messageStop, before its metadata', async () => {
    const events = await streamEvents(cutStream);
    expect(events.map((e) => (e === 'malformed' ? e : e.type))).toEqual(['start', 'text', 'text', 'finish']);
  });

  it('turns an exception message into an error event', async () => {
    const events = await streamEvents(exceptionStream);
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Too many tokens, please wait before trying again.',
      errorType: 'throttlingException',
    });
  });

  it('reports a tool delta for a block that never started, and a non-JSON payload, as malformed', () => {
    const decoder = bedrockStreamDecoderFor();
    expect(decoder.decode({ event: 'messageStart', data: '{"role":"assistant"}' })).not.toBe('malformed');
    expect(
      decoder.decode({
        event: 'contentBlockDelta',
        data: '{"contentBlockIndex":3,"delta":{"toolUse":{"input":"{}"}}}',
      }),
    ).toBe('malformed');
    expect(
      bedrockStreamDecoderFor().decode({ event: 'contentBlockDelta', data: '{"contentBlockIndex":' }),
    ).toBe('malformed');
    expect(bedrockStreamDecoderFor().decode({ event: 'malformed', data: '{"reason":"crc"}' })).toBe(
      'malformed',
    );
  });

  it('ignores event types it does not know', () => {
    const decoder = bedrockStreamDecoderFor();
    expect(decoder.decode({ event: 'messageStart', data: '{"role":"assistant"}' })).toHaveLength(1);
    expect(decoder.decode({ event: 'somethingNew', data: '{}' })).toEqual([]);
  });
});

const bedrockStreamDecoderFor = () => bedrockUpstream.streamDecoder();
