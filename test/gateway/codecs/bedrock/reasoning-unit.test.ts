/**
 * The Bedrock codec's reasoning, cache-point, system-turn and structured-output translation:
 * Claude's thinking and Nova 2's reasoningConfig, `reasoningContent` both ways (signatures and
 * redacted bytes byte for byte, streamed through the binary event stream too), `cachePoint`
 * blocks, `outputConfig.textFormat` and the forced-tool fallback.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bedrockUpstream } from '../../../../src/codecs/bedrock/index';
import { JSON_ANSWER_TOOL } from '../../../../src/codecs/json-answer';
import type { EncodeContext } from '../../../../src/codecs/codec';
import type { ChatRequest, Message, Reasoning } from '../../../../src/codecs/ir';
import { concat, decodeAll, encodeEvent, type RecordedEvent, transformToSse } from '../fixtures/bedrock-wire';
import { canonicalRequest } from '../fixtures/canonical';

type Json = Record<string, unknown>;

const SONNET_45 = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const SONNET_37 = 'anthropic.claude-3-7-sonnet-20250219-v1:0';
const HAIKU_35 = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const NOVA_2 = 'global.amazon.nova-2-lite-v1:0';
const NOVA_PRO = 'amazon.nova-pro-v1:0';
const LLAMA = 'meta.llama3-1-70b-instruct-v1:0';

function encode(over: Partial<ChatRequest>, model = SONNET_45) {
  const context: EncodeContext = {
    model,
    providerId: 'bedrock',
    outputCap: 8000,
    enforceCap: false,
    dropped: [],
  };
  const body = bedrockUpstream.encodeRequest(canonicalRequest(over), context);
  return { body, dropped: context.dropped };
}

const on = (over: Partial<Reasoning> = {}): Reasoning => ({
  mode: 'on',
  effort: null,
  budgetTokens: null,
  display: null,
  ...over,
});

describe('Bedrock codec: reasoning requests', () => {
  it('asks Claude for thinking with the budget, sending the reserved cap when the client set none', () => {
    const { body, dropped } = encode({ reasoning: on({ budgetTokens: 3000 }) }, SONNET_37);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 3000 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8000 });
    expect(dropped).toEqual([]);
  });

  it('keeps the budget below maxTokens, and drops the reasoning when no budget of 1024 fits', () => {
    const fits = encode({ reasoning: on({ effort: 'high' }), maxTokens: 5000 });
    expect(fits.body.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 4999 },
    });
    const tight = encode({ reasoning: on({ effort: 'high' }), maxTokens: 1000 });
    expect(tight.body).not.toHaveProperty('additionalModelRequestFields');
    expect(tight.dropped).toEqual(['reasoning']);
  });

  it('drops and names top_k beside thinking (Claude refuses it there)', () => {
    const { body, dropped } = encode({ reasoning: on({ budgetTokens: 2048 }), topK: 5 });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(dropped).toEqual(['top_k']);
  });

  it('asks Nova 2 for reasoning by effort', () => {
    const { body } = encode({ reasoning: on({ effort: 'xhigh' }) }, NOVA_2);
    expect(body.additionalModelRequestFields).toEqual({
      reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' },
    });
    expect(
      encode({ reasoning: on({ budgetTokens: 1500 }) }, NOVA_2).body.additionalModelRequestFields,
    ).toEqual({
      reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' },
    });
  });

  it("asks gpt-oss for OpenAI's reasoning_effort", () => {
    const { body } = encode({ reasoning: on({ effort: 'medium' }) }, 'openai.gpt-oss-120b-1:0');
    expect(body.additionalModelRequestFields).toEqual({ reasoning_effort: 'medium' });
    // It cannot stop reasoning: off is dropped and named.
    const off = encode({ reasoning: on({ mode: 'off' }) }, 'openai.gpt-oss-120b-1:0');
    expect(off.body).not.toHaveProperty('additionalModelRequestFields');
    expect(off.dropped).toEqual(['reasoning']);
  });

  it('drops and names reasoning a model cannot take, with a forced tool, or as an effort alone on Claude', () => {
    for (const [over, model] of [
      [{ reasoning: on() }, HAIKU_35],
      [{ reasoning: on() }, LLAMA],
      [{ reasoning: on(), tools: [TOOL], toolChoice: { type: 'required' } }, SONNET_45],
      [{ reasoning: on({ mode: 'default', effort: 'high' }) }, SONNET_45],
    ] as [Partial<ChatRequest>, string][]) {
      const { body, dropped } = encode(over, model);
      expect(body).not.toHaveProperty('additionalModelRequestFields');
      expect(dropped).toEqual(['reasoning']);
    }
  });

  it('sends nothing for reasoning turned off (the default everywhere)', () => {
    const { body, dropped } = encode({ reasoning: on({ mode: 'off' }) });
    expect(body).not.toHaveProperty('additionalModelRequestFields');
    expect(body).not.toHaveProperty('inferenceConfig');
    expect(dropped).toEqual([]);
  });
});

const TOOL = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } };

const SIGNATURE = 'EqQBCkgIARABGAIiQL+/sig==\u00e9';
const REDACTED = 'AAECAwQFBgcICQ==';

const history = (assistant: Message['content']): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
  { role: 'assistant', content: assistant },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'Sunny' }], isError: false },
    ],
  },
];

describe('Bedrock codec: reasoning in the history', () => {
  it("sends Bedrock's signed reasoning first in the assistant turn, byte for byte, and nobody else's", () => {
    const { body } = encode({
      messages: history([
        { type: 'text', text: 'Let me check.' },
        { type: 'reasoning', text: 'The user wants weather.', signature: SIGNATURE, issuer: 'bedrock' },
        { type: 'redacted_reasoning', data: REDACTED, issuer: 'bedrock' },
        { type: 'reasoning', text: 'Gemini thought', signature: 'gsig', issuer: 'gemini' },
        { type: 'reasoning', text: 'unsigned', signature: null, issuer: 'bedrock' },
        { type: 'redacted_reasoning', data: 'xx', issuer: 'anthropic' },
        { type: 'tool_call', id: 't1', name: 'get_weather', arguments: '{}' },
      ]),
    });
    const messages = body.messages as { role: string; content: Json[] }[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'The user wants weather.', signature: SIGNATURE } } },
        { reasoningContent: { redactedContent: REDACTED } },
        { text: 'Let me check.' },
        { toolUse: { toolUseId: 't1', name: 'get_weather', input: {} } },
      ],
    });
  });

  it('round-trips any signature and redacted data from an answer to the next request unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.base64String({ minLength: 4 }),
        (signature, text, data) => {
          const answer = bedrockUpstream.decodeResponse({
            output: {
              message: {
                role: 'assistant',
                content: [
                  { reasoningContent: { reasoningText: { text, signature } } },
                  { reasoningContent: { redactedContent: data } },
                  { text: 'ok' },
                ],
              },
            },
            stopReason: 'end_turn',
          });
          const { body } = encode({ messages: [...history(answer.content).slice(0, 2)] });
          const sent = (body.messages as { content: Json[] }[])[1]?.content;
          expect(sent?.slice(0, 2)).toEqual([
            { reasoningContent: { reasoningText: { text, signature } } },
            { reasoningContent: { redactedContent: data } },
          ]);
        },
      ),
    );
  });
});

describe('Bedrock codec: reasoning in answers', () => {
  it('reads reasoningContent as reasoning parts issued by bedrock', () => {
    const answer = bedrockUpstream.decodeResponse({
      output: {
        message: {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'Thinking…', signature: SIGNATURE } } },
            { reasoningContent: { redactedContent: REDACTED } },
            { text: 'Sunny.' },
          ],
        },
      },
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 20 },
    });
    expect(answer.content).toEqual([
      { type: 'reasoning', text: 'Thinking…', signature: SIGNATURE, issuer: 'bedrock' },
      { type: 'redacted_reasoning', data: REDACTED, issuer: 'bedrock' },
      { type: 'text', text: 'Sunny.' },
    ]);
  });

  it('streams reasoning deltas, the signature and redacted bytes through the binary event stream', async () => {
    const recorded: RecordedEvent[] = [
      { event: 'messageStart', payload: { role: 'assistant' } },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Thinking' } } },
      },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { reasoningContent: { text: '…' } } },
      },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { reasoningContent: { signature: SIGNATURE } } },
      },
      { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: REDACTED } } },
      },
      { event: 'contentBlockDelta', payload: { contentBlockIndex: 2, delta: { text: 'Sunny.' } } },
      { event: 'messageStop', payload: { stopReason: 'end_turn' } },
      {
        event: 'metadata',
        payload: { usage: { inputTokens: 5, outputTokens: 9 }, metrics: { latencyMs: 10 } },
      },
    ];
    const { events } = await transformToSse([concat(recorded.map(encodeEvent))]);
    const decoded = decodeAll(events);
    expect(decoded.slice(1)).toEqual([
      { type: 'reasoning', text: 'Thinking' },
      { type: 'reasoning', text: '…' },
      { type: 'reasoning_signature', signature: SIGNATURE, issuer: 'bedrock' },
      { type: 'redacted_reasoning', data: REDACTED, issuer: 'bedrock' },
      { type: 'text', text: 'Sunny.' },
      { type: 'finish', reason: 'end', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 5, output: 9, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });
});

describe('Bedrock codec: cache points', () => {
  const marked = (): Partial<ChatRequest> => ({
    system: [
      { type: 'text', text: 'Rules.', cache: { ttl: '1h' } },
      { type: 'text', text: 'More.' },
    ],
    tools: [{ ...TOOL, cache: { ttl: '5m' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Long document', cache: { ttl: '5m' } },
          { type: 'text', text: 'Question' },
        ],
      },
    ],
  });

  it('writes a cachePoint after each marked system block, tool and content block', () => {
    const { body, dropped } = encode(marked());
    expect(body.system).toEqual([
      { text: 'Rules.' },
      { cachePoint: { type: 'default', ttl: '1h' } },
      { text: 'More.' },
    ]);
    expect((body.toolConfig as Json).tools).toEqual([
      { toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: TOOL.parameters } } },
      { cachePoint: { type: 'default' } },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [{ text: 'Long document' }, { cachePoint: { type: 'default' } }, { text: 'Question' }],
      },
    ]);
    expect(dropped).toEqual([]);
  });

  it('caches for 5 minutes on models without the hour, and drops the points where the model takes none', () => {
    expect(encode(marked(), NOVA_PRO).body.system).toEqual([
      { text: 'Rules.' },
      { cachePoint: { type: 'default' } },
      { text: 'More.' },
    ]);
    const { body, dropped } = encode(marked(), LLAMA);
    expect(JSON.stringify(body)).not.toContain('cachePoint');
    expect(dropped).toEqual(['cache_control']);
  });

  it('drops prompt_cache_key and names it', () => {
    expect(encode({ promptCacheKey: 'k' }).dropped).toEqual(['prompt_cache_key']);
  });
});

describe('Bedrock codec: system turns', () => {
  it('sends a system turn mid-conversation as user text, after the tool results that lead the turn', () => {
    const { body } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 't1', name: 'get_weather', arguments: '{}' }],
        },
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: 't1',
              content: [{ type: 'text', text: 'Sunny' }],
              isError: false,
            },
          ],
        },
      ],
    });
    expect((body.messages as Json[])[2]).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'Sunny' }] } }, { text: 'Be brief.' }],
    });
  });
});

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('Bedrock codec: structured output', () => {
  it('sends a JSON schema as outputConfig.textFormat, the schema as JSON text, to models that take it', () => {
    const { body } = encode({
      responseFormat: { type: 'json_schema', name: 'weather', schema: SCHEMA, strict: true },
    });
    expect(body.outputConfig).toEqual({
      textFormat: {
        type: 'json_schema',
        structure: { jsonSchema: { schema: JSON.stringify(SCHEMA), name: 'weather' } },
      },
    });
    expect(body).not.toHaveProperty('toolConfig');
  });

  it('forces an answer tool on older Claude and Nova models, and for json_object', () => {
    for (const [format, model, schema] of [
      [{ type: 'json_schema', name: 'w', schema: SCHEMA, strict: false }, HAIKU_35, SCHEMA],
      [{ type: 'json_object' }, SONNET_45, { type: 'object' }],
      [{ type: 'json_object' }, NOVA_PRO, { type: 'object' }],
    ] as [ChatRequest['responseFormat'], string, Json][]) {
      const { body } = encode({ responseFormat: format }, model);
      expect(body.toolConfig).toEqual({
        tools: [
          {
            toolSpec: {
              name: JSON_ANSWER_TOOL,
              description: expect.any(String),
              inputSchema: { json: schema },
            },
          },
        ],
        toolChoice: { tool: { name: JSON_ANSWER_TOOL } },
      });
      expect(body).not.toHaveProperty('outputConfig');
    }
  });

  it('refuses structured output where neither way exists, and the forced tool beside other tools', () => {
    expect(() => encode({ responseFormat: { type: 'json_object' } }, LLAMA)).toThrow(/response_format/);
    expect(() => encode({ responseFormat: { type: 'json_object' }, tools: [TOOL] }, HAIKU_35)).toThrow(
      /response_format/,
    );
  });

  it("reads the answer tool's call as the answer's text with a natural end, whole and streamed", async () => {
    const answer = bedrockUpstream.decodeResponse({
      output: {
        message: {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'x', name: JSON_ANSWER_TOOL, input: { city: 'Paris' } } }],
        },
      },
      stopReason: 'tool_use',
    });
    expect(answer.content).toEqual([{ type: 'text', text: '{"city":"Paris"}' }]);
    expect(answer.finish).toBe('end');

    const recorded: RecordedEvent[] = [
      { event: 'messageStart', payload: { role: 'assistant' } },
      {
        event: 'contentBlockStart',
        payload: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'x', name: JSON_ANSWER_TOOL } } },
      },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":' } } },
      },
      {
        event: 'contentBlockDelta',
        payload: { contentBlockIndex: 0, delta: { toolUse: { input: '"Paris"}' } } },
      },
      { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
      { event: 'messageStop', payload: { stopReason: 'tool_use' } },
      { event: 'metadata', payload: { usage: { inputTokens: 5, outputTokens: 9 } } },
    ];
    const { events } = await transformToSse([concat(recorded.map(encodeEvent))]);
    expect(decodeAll(events).slice(1)).toEqual([
      { type: 'text', text: '{"city":' },
      { type: 'text', text: '"Paris"}' },
      { type: 'finish', reason: 'end', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 5, output: 9, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 },
      },
      { type: 'end' },
    ]);
  });
});

describe("Bedrock codec: Claude's rules for thinking, met instead of refused", () => {
  it('drops and names the sampling settings thinking does not take; keeps them without thinking', () => {
    const { body, dropped } = encode({
      reasoning: on({ budgetTokens: 2048 }),
      maxTokens: 8000,
      temperature: 0.2,
      topP: 0.5,
      topK: 5,
    });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8000 });
    expect(dropped).toEqual(['temperature', 'top_p', 'top_k']);
    const plain = encode({ maxTokens: 8000, temperature: 0.2, topP: 0.5, topK: 5 });
    expect(plain.body.inferenceConfig).toEqual({ maxTokens: 8000, temperature: 0.2, topP: 0.5 });
    expect(plain.body.additionalModelRequestFields).toEqual({ top_k: 5 });
  });

  it('drops the reasoning when the tool turn it continues has no thinking Bedrock signed', () => {
    const call = { type: 'tool_call' as const, id: 'c1', name: 'get_weather', arguments: '{}' };
    const history = (first: Message['content']): Message[] => [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [...first, call] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'c1',
            content: [{ type: 'text', text: 'Sunny' }],
            isError: false,
          },
        ],
      },
    ];
    const tools = [
      {
        name: 'get_weather',
        description: null,
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const unsigned = encode({ reasoning: on(), maxTokens: 8000, tools, messages: history([]) });
    expect(unsigned.body.additionalModelRequestFields).toBeUndefined();
    expect(unsigned.dropped).toEqual(['reasoning']);
    const signed = encode({
      reasoning: on(),
      maxTokens: 8000,
      tools,
      messages: history([{ type: 'reasoning', text: 't', signature: 's', issuer: 'bedrock' }]),
    });
    expect(signed.body.additionalModelRequestFields).toMatchObject({ thinking: { type: 'enabled' } });
  });
});
