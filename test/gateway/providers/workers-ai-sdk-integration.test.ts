/**
 * The official `openai` and `@anthropic-ai/sdk` clients against Workers AI
 * through the real gateway, inside the Workers runtime: the clients' `fetch`
 * calls the app with the test env plus the fake `AI` binding (Workers AI has
 * no local emulation, so the e2e stack cannot serve it; everything but the
 * binding is as deployed). JSON, streams and tools, both clients.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { Bindings } from '../../../src/env';
import { FakeWorkersAi } from '../fakes/workers-ai';
import { seedKey } from '../helpers';

const LLAMA = 'workers-ai/@cf/meta/llama-3.3-70b-instruct-fp8-fast';
const HERMES = 'workers-ai/@hf/nousresearch/hermes-2-pro-mistral-7b';

/** A fetch that runs the gateway in this isolate, waiting for its background work after the body is read. */
function gatewayFetch(): typeof fetch {
  const bindings = { ...env, AI: new FakeWorkersAi() } as unknown as Bindings;
  const app = createApp();
  return async (input, init) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(input, init), bindings, ctx);
    const body = await res.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(body, res);
  };
}

let openai: OpenAI;
let anthropic: Anthropic;
beforeAll(async () => {
  const { secret } = await seedKey({ tenantId: 'ten_workers_ai_sdk' });
  const fetch = gatewayFetch();
  openai = new OpenAI({ apiKey: secret, baseURL: 'http://gw.test/v1', fetch, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: secret, baseURL: 'http://gw.test', fetch, maxRetries: 0 });
});

describe('openai client → Workers AI', () => {
  it('gets a chat completion and a stream', async () => {
    const res = await openai.chat.completions.create({
      model: LLAMA,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(res.choices[0]?.message.content).toBe('Workers AI echo: Hi');
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);

    let text = '';
    for await (const chunk of await openai.chat.completions.create({
      model: LLAMA,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    }))
      text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Workers AI echo: Hi');
  });

  it('gets a tool call, streamed too', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const res = await openai.chat.completions.create({
      model: HERMES,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools,
    });
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    const final = await openai.chat.completions
      .stream({ model: HERMES, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools })
      .finalChatCompletion();
    expect(final.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('get_weather');
  });
});

describe('anthropic client → Workers AI', () => {
  it('gets a message and a stream', async () => {
    const msg = await anthropic.messages.create({
      model: LLAMA,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(msg.content).toEqual([{ type: 'text', text: 'Workers AI echo: Hi' }]);
    const final = await anthropic.messages
      .stream({ model: LLAMA, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Workers AI echo: Hi' });
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it('gets a tool_use block, streamed too', async () => {
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } }];
    const final = await anthropic.messages
      .stream({ model: HERMES, max_tokens: 64, messages: [{ role: 'user', content: 'Weather?' }], tools })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather' });
  });
});
