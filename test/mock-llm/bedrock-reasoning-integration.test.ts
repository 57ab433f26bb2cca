import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { converse, decodeStream, signed } from './bedrock-helpers';

const HELLO = [{ role: 'user', content: [{ text: 'Hello there, mock.' }] }];
const THINKING = { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } };
type Json = Record<string, unknown>;

async function answer(body: Json, model?: string): Promise<Json> {
  const res = await converse(body, model ? { model } : {});
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Json;
}

const contentOf = (body: Json) => (body.output as { message: { content: Json[] } }).message.content;

describe('Bedrock fake: reasoning for Anthropic models', () => {
  it('answers reasoningContent with a signed reasoningText first, counted in outputTokens', async () => {
    const body = await answer({ messages: HELLO, inferenceConfig: { maxTokens: 4096 }, ...THINKING });
    const [reasoning, text] = contentOf(body) as [Json, Json];
    const block = (reasoning.reasoningContent as { reasoningText: { text: string; signature: string } })
      .reasoningText;
    expect(block.text.split(' ')).toHaveLength(24);
    expect(block.signature).toEqual(expect.any(String));
    expect(text).toHaveProperty('text');
    expect((body.usage as { outputTokens: number }).outputTokens).toBe(16 + 24);
  });

  it('streams reasoningContent.text deltas, then the signature, then the answer at index 1', async () => {
    const res = await converse(
      { messages: HELLO, ...THINKING, mock: { redacted_thinking: true } },
      { stream: true },
    );
    const events = decodeStream(new Uint8Array(await res.arrayBuffer()));
    const deltas = events.filter((e) => e.type === 'contentBlockDelta').map((e) => e.payload);
    const reasoning = deltas.filter((d) => 'reasoningContent' in (d.delta as Json));
    expect(reasoning.filter((d) => 'text' in ((d.delta as Json).reasoningContent as Json))).toHaveLength(24);
    const last = reasoning.at(-1) as Json;
    expect(last.contentBlockIndex).toBe(1);
    expect((last.delta as Json).reasoningContent).toHaveProperty('redactedContent');
    expect(reasoning.some((d) => 'signature' in ((d.delta as Json).reasoningContent as Json))).toBe(true);
    expect(deltas.filter((d) => 'text' in (d.delta as Json)).every((d) => d.contentBlockIndex === 2)).toBe(
      true,
    );
  });

  it('accepts its own reasoning back and refuses a modified one', async () => {
    const first = await answer({ messages: HELLO, ...THINKING });
    const turn = (content: Json[]) => ({
      ...THINKING,
      messages: [...HELLO, { role: 'assistant', content }, { role: 'user', content: [{ text: 'again' }] }],
    });
    await answer(turn(contentOf(first)));
    const [reasoning, text] = contentOf(first) as [Json, Json];
    const edited = {
      reasoningContent: {
        reasoningText: {
          ...(reasoning.reasoningContent as { reasoningText: Json }).reasoningText,
          text: 'edited',
        },
      },
    };
    const res = await converse(turn([edited, text]));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toMatch(/^ValidationException/);
    expect(((await res.json()) as { message: string }).message).toBe(
      'The model returned the following errors: messages.1.content.0: Invalid `signature` in `thinking` block',
    );
  });

  it('refuses thinking for a model that is not Anthropic, and a budget below 1024', async () => {
    expect((await converse({ messages: HELLO, ...THINKING }, { model: 'amazon.nova-pro-v1:0' })).status).toBe(
      400,
    );
    const low = await converse({
      messages: HELLO,
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 100 } },
    });
    expect(low.status).toBe(400);
  });
});

describe('Bedrock fake: cache points, structured output, CountTokens, unknown models', () => {
  it('reports a cache write, then a read, for the prefix up to a cachePoint', async () => {
    const system = [
      { text: `${crypto.randomUUID()} ${'x'.repeat(80)}` },
      { cachePoint: { type: 'default' } },
    ];
    const body = { system, messages: HELLO, mock: { cache_min_tokens: 0 } };
    const prefix = promptTokens([{ content: [system[0]] }]);
    const total = promptTokens([{ content: system }, ...HELLO]);
    const first = (await answer(body)).usage as Json;
    expect(first).toMatchObject({
      cacheWriteInputTokens: prefix,
      cacheReadInputTokens: 0,
      inputTokens: total - prefix,
    });
    expect(first.cacheDetails).toEqual([{ ttl: '5m', inputTokens: prefix }]);
    expect((await answer(body)).usage).toMatchObject({
      cacheReadInputTokens: prefix,
      cacheWriteInputTokens: 0,
    });
  });

  it('answers outputConfig.textFormat json_schema with JSON valid for the schema', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name', 'age'],
    };
    const body = await answer({
      messages: HELLO,
      outputConfig: {
        textFormat: {
          type: 'json_schema',
          structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'person' } },
        },
      },
    });
    expect(JSON.parse((contentOf(body)[0] as { text: string }).text)).toEqual({ name: 'string', age: 0 });
  });

  it('counts tokens for a converse input and an invokeModel body', async () => {
    const count = async (input: Json) =>
      SELF.fetch(await signed({ input }, { operation: 'count-tokens' })).then(async (r) => {
        expect(r.status).toBe(200);
        return ((await r.json()) as { inputTokens: number }).inputTokens;
      });
    const system = [{ text: 'Be brief.' }];
    expect(await count({ converse: { messages: HELLO, system } })).toBe(
      promptTokens([{ content: system }, ...HELLO]),
    );
    const invoke = btoa(
      JSON.stringify({
        anthropic_version: 'bedrock-2023-05-31',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(await count({ invokeModel: { body: invoke } })).toBe(promptTokens([{ content: 'hi' }]));
  });

  it('answers an unknown model id with ValidationException', async () => {
    const res = await converse({ messages: HELLO }, { model: 'cohere.command-r' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'The provided model identifier is invalid.',
    );
  });
});
