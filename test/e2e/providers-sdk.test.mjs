// End to end: the official openai and @anthropic-ai/sdk clients reach every provider through
// Edgeway, whatever format the provider speaks: JSON, streams and tools, against the mock LLM's
// faithful fakes of each provider's API (Anthropic- and OpenAI-only views of the mock, Gemini,
// Azure OpenAI, Bedrock). The gateway translates; the clients never know.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startTestStack } from './stack.mjs';

const PORT = 19187;
const MOCK = `http://127.0.0.1:${PORT + 1}`;

/** Every provider pointed at the mock: two one-format views of it, and the fakes of the native APIs. */
const VARS = {
  EDGEWAY_PROVIDERS: JSON.stringify([
    {
      id: 'claude-only',
      base_url: `${MOCK}/v1`,
      format: 'anthropic',
      api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
    },
    { id: 'gpt-only', base_url: `${MOCK}/v1`, api_key_secret: 'PROVIDER_KEY_GPT_ONLY' },
  ]),
  PROVIDER_KEY_CLAUDE_ONLY: 'claude-only-key',
  PROVIDER_KEY_GPT_ONLY: 'gpt-only-key',
  GEMINI_API_KEY: 'e2e-gemini-key',
  GEMINI_BASE_URL: MOCK,
  AZURE_OPENAI_API_KEY: 'e2e-azure-key',
  AZURE_OPENAI_BASE_URL: MOCK,
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'us-east-1',
  BEDROCK_BASE_URL: MOCK,
};

/** One model per provider; `;tool_call=true` asks the mock's fakes to call the first tool. */
const MODELS = {
  'anthropic format': 'claude-only/echo',
  'openai format': 'gpt-only/echo',
  gemini: 'gemini/echo',
  azure: 'azure/echo',
  bedrock: 'bedrock/echo',
};

let stack;
let openai;
let anthropic;

before(
  async () => {
    stack = await startTestStack(PORT, VARS);
    openai = new OpenAI({ apiKey: stack.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: stack.key, baseURL: stack.url, maxRetries: 0 });
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

for (const [provider, model] of Object.entries(MODELS)) {
  describe(`openai client → ${provider}`, () => {
    test('chat completion (JSON) with usage', async () => {
      const res = await openai.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Hello from the SDK' },
        ],
      });
      assert.equal(res.choices[0].message.content, 'Hello from the SDK');
      assert.equal(res.choices[0].finish_reason, 'stop');
      assert.equal(res.usage.completion_tokens, 4);
      assert.ok(res.usage.prompt_tokens > 0);
    });

    test('stream: deltas concatenate to the text, usage chunk when asked', async () => {
      const text = 'Streaming across formats works';
      let joined = '';
      let usage = null;
      for await (const chunk of await openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: text }],
        stream: true,
        stream_options: { include_usage: true },
      })) {
        joined += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      assert.equal(joined, text);
      assert.equal(usage?.completion_tokens, 4);
    });

    test('tools: the call comes back as tool_calls, streamed too', async () => {
      const res = await openai.chat.completions.create({
        model: `${model};tool_call=true`,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [weather],
      });
      assert.equal(res.choices[0].finish_reason, 'tool_calls');
      assert.equal(res.choices[0].message.tool_calls?.[0]?.function.name, 'get_weather');

      const stream = openai.chat.completions.stream({
        model: `${model};tool_call=true`,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [weather],
      });
      const final = await stream.finalChatCompletion();
      const call = final.choices[0].message.tool_calls?.[0];
      assert.equal(call?.function.name, 'get_weather');
      assert.doesNotThrow(() => JSON.parse(call.function.arguments));
    });
  });

  describe(`anthropic client → ${provider}`, () => {
    test('message (JSON) with usage', async () => {
      const msg = await anthropic.messages.create({
        model,
        max_tokens: 64,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello from the SDK' }],
      });
      assert.deepEqual(msg.content, [{ type: 'text', text: 'Hello from the SDK' }]);
      assert.equal(msg.stop_reason, 'end_turn');
      assert.equal(msg.usage.output_tokens, 4);
    });

    test('stream: finalMessage has the text and usage', async () => {
      const stream = anthropic.messages.stream({
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Streaming across formats works' }],
      });
      let joined = '';
      stream.on('text', (t) => {
        joined += t;
      });
      const final = await stream.finalMessage();
      assert.equal(joined, 'Streaming across formats works');
      assert.equal(final.stop_reason, 'end_turn');
      assert.equal(final.usage.output_tokens, 4);
    });

    test('tools: a tool_use block, streamed too', async () => {
      const tools = [
        { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: {} } },
      ];
      const msg = await anthropic.messages.create({
        model: `${model};tool_call=true`,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools,
      });
      assert.equal(msg.stop_reason, 'tool_use');
      assert.equal(msg.content.find((b) => b.type === 'tool_use')?.name, 'get_weather');

      const final = await anthropic.messages
        .stream({
          model: `${model};tool_call=true`,
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Weather?' }],
          tools,
        })
        .finalMessage();
      const use = final.content.find((b) => b.type === 'tool_use');
      assert.equal(use?.name, 'get_weather');
      assert.equal(typeof use?.input, 'object');
    });
  });
}

describe('errors across formats', () => {
  test("the openai client gets the Anthropic-format provider's 429 as a RateLimitError", async () => {
    await assert.rejects(
      openai.chat.completions.create({
        model: 'claude-only/echo;status=429',
        messages: [{ role: 'user', content: 'hi' }],
      }),
      (err) => err instanceof OpenAI.RateLimitError && err.status === 429,
    );
  });

  test('the anthropic client gets a refused parameter as a BadRequestError naming it', async () => {
    await assert.rejects(
      anthropic.messages.create({
        model: 'gpt-only/echo',
        max_tokens: 16,
        top_k: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
      (err) => err instanceof Anthropic.BadRequestError && /top_k/.test(err.message),
    );
  });
});
