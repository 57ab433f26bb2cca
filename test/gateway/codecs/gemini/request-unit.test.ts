import { describe, expect, it } from 'vitest';
import type { EncodeContext } from '../../../../src/codecs/codec';
import { geminiUpstream } from '../../../../src/codecs/gemini/index';
import { REPLAYED_SIGNATURE } from '../../../../src/codecs/gemini/request';
import type { ChatRequest, Message } from '../../../../src/codecs/ir';
import { canonicalRequest } from '../fixtures/canonical';

const CONTEXT: EncodeContext = {
  model: 'gemini-2.0-flash',
  providerId: 'gemini',
  outputCap: 4096,
  enforceCap: true,
  dropped: [],
};

const request = canonicalRequest;

const encode = (over: Partial<ChatRequest> = {}, context = CONTEXT) =>
  geminiUpstream.encodeRequest(request(over), context);

/** The 400 a request is refused with. */
function refusal(over: Partial<ChatRequest>): {
  status: number;
  param: string | null;
  code: string | null;
  message: string;
} {
  try {
    encode(over);
  } catch (e) {
    return e as { status: number; param: string | null; code: string | null; message: string };
  }
  throw new Error('expected a refusal');
}

const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: ['string', 'null'], enum: ['c', 'f'] } },
    required: ['city'],
    additionalProperties: false,
  },
};

const CALL_TURN: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and London?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '' },
    ],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        toolCallId: 'call_1',
        content: [{ type: 'text', text: '18°C' }],
        isError: false,
      },
      {
        type: 'tool_result',
        toolCallId: 'call_2',
        content: [{ type: 'text', text: 'no clock' }],
        isError: true,
      },
    ],
  },
];

describe('Gemini request mapping', () => {
  it('writes the system prompt as systemInstruction and roles as user/model, merging consecutive turns', () => {
    const body = encode({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'A' }] },
        { role: 'user', content: [{ type: 'text', text: 'B' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'C' }] },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
      ],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'A' }, { text: 'B' }] },
      { role: 'model', parts: [{ text: 'C' }] },
    ]);
  });

  it('maps sampling parameters, stop sequences and the output cap into generationConfig', () => {
    expect(
      encode({ maxTokens: 50, temperature: 0.2, topP: 0.9, topK: 40, stop: ['END'] }).generationConfig,
    ).toEqual({
      maxOutputTokens: 50,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
    });
  });

  it('sends the reserved output cap only when the request set none and the cap is enforced', () => {
    expect(encode().generationConfig).toEqual({ maxOutputTokens: 4096 });
    expect(encode({}, { ...CONTEXT, enforceCap: false, dropped: [] }).generationConfig).toBeUndefined();
  });

  it('inlines base64 images and refuses image URLs, naming the part', () => {
    const image = (
      source: { kind: 'base64'; mediaType: string; data: string } | { kind: 'url'; url: string },
    ) =>
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is it?' },
              { type: 'image', source },
            ],
          },
        ],
      });
    const body = geminiUpstream.encodeRequest(
      image({ kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }),
      CONTEXT,
    );
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [{ text: 'What is it?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
      },
    ]);
    expect(() =>
      geminiUpstream.encodeRequest(image({ kind: 'url', url: 'https://x.test/cat.png' }), CONTEXT),
    ).toThrow(
      expect.objectContaining({
        status: 400,
        param: 'messages[0].content[1]',
        code: 'unsupported_parameter',
      }),
    );
  });

  it('writes tool calls as functionCall with parsed args, and results as functionResponse named after their call', () => {
    const body = encode({ messages: CALL_TURN });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and London?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: REPLAYED_SIGNATURE,
          },
          { functionCall: { name: 'get_time', args: {} }, thoughtSignature: REPLAYED_SIGNATURE },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '18°C' } } },
          { functionResponse: { name: 'get_time', response: { error: 'no clock' } } },
        ],
      },
    ]);
  });

  it('refuses tool-call arguments that are not a JSON object, naming them', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"city":' }] },
    ];
    expect(refusal({ messages })).toMatchObject({ status: 400, param: 'messages[0].content[0].arguments' });
  });

  it('refuses a tool result that answers no earlier call, naming its id', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'nope', content: [], isError: false }] },
    ];
    expect(refusal({ messages })).toMatchObject({
      status: 400,
      param: 'messages[0].content[0].tool_call_id',
    });
  });

  it('declares tools with Gemini schemas: nullable types, dropped additionalProperties, no empty parameters', () => {
    const body = encode({
      tools: [
        WEATHER,
        { name: 'get_time', description: null, parameters: { type: 'object', properties: {} } },
      ],
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string' },
                unit: { type: 'string', nullable: true, enum: ['c', 'f'] },
              },
              required: ['city'],
            },
          },
          { name: 'get_time' },
        ],
      },
    ]);
  });

  it.each([
    [{ type: 'auto' } as const, { mode: 'AUTO' }],
    [{ type: 'none' } as const, { mode: 'NONE' }],
    [{ type: 'required' } as const, { mode: 'ANY' }],
    [{ type: 'tool', name: 'get_weather' } as const, { mode: 'ANY', allowedFunctionNames: ['get_weather'] }],
  ])('maps tool_choice %j to functionCallingConfig %j', (toolChoice, config) => {
    expect(encode({ tools: [WEATHER], toolChoice }).toolConfig).toEqual({ functionCallingConfig: config });
  });

  it('sends parallel_tool_calls=false nowhere (Gemini has no switch; documented)', () => {
    const body = encode({ tools: [WEATHER], parallelToolCalls: false });
    expect(JSON.stringify(body)).not.toMatch(/parallel/i);
  });

  it('maps JSON mode and JSON schemas to responseMimeType and responseSchema', () => {
    expect(encode({ responseFormat: { type: 'json_object' } }).generationConfig).toMatchObject({
      responseMimeType: 'application/json',
    });
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        kind: { const: 'fixed' },
        tags: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
      },
    };
    const config = encode({
      responseFormat: { type: 'json_schema', name: 'x', schema, strict: true },
    }).generationConfig;
    expect(config).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'object',
        properties: {
          n: { type: 'integer' },
          kind: { enum: ['fixed'] },
          tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        },
      },
    });
  });

  it('refuses schema features Gemini cannot express, naming where they are', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/A' } } };
    expect(
      refusal({ responseFormat: { type: 'json_schema', name: 'x', schema, strict: true } }),
    ).toMatchObject({
      status: 400,
      param: 'response_format.json_schema.schema.properties.a.$ref',
      code: 'unsupported_parameter',
    });
    const tool = { ...WEATHER, parameters: { type: 'object', properties: { n: { enum: [1, 2] } } } };
    expect(refusal({ tools: [tool] })).toMatchObject({
      param: 'tools[0].function.parameters.properties.n.enum',
    });
  });

  it('refuses n > 1 and more than five stop sequences, naming them', () => {
    expect(refusal({ n: 2 })).toMatchObject({ status: 400, param: 'n', code: 'unsupported_parameter' });
    expect(refusal({ stop: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatchObject({ param: 'stop' });
  });

  it('drops the end-user id (Gemini has no field for it)', () => {
    expect(JSON.stringify(encode({ user: 'u-42' }))).not.toContain('u-42');
  });
});
