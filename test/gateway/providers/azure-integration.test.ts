/**
 * Azure OpenAI through the real gateway against the mock LLM's fake of its
 * deployment routes (vitest.config.ts points AZURE_OPENAI_BASE_URL at the mock):
 * OpenAI clients pass through, Anthropic clients are translated.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from '../answer-helpers';
import { post, readSse, seedKey } from '../helpers';

const MODEL = 'azure/gpt-4o-prod';
const USER = [{ role: 'user', content: 'Hello there, mock.' }];

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_azure' })).secret;
});

describe('Azure OpenAI behind /v1/chat/completions', () => {
  it('answers from the deployment, with Azure’s request id relayed', async () => {
    const res = await post('/v1/chat/completions', { model: MODEL, messages: USER }, key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-upstream-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body: Loose = await res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('gpt-4o-prod');
    expect(body.choices[0].message.content).toEqual(expect.any(String));
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('streams chunks to [DONE], with usage when asked', async () => {
    const res = await post(
      '/v1/chat/completions',
      { model: MODEL, messages: USER, stream: true, stream_options: { include_usage: true } },
      key,
    );
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(JSON.parse(events.at(-2)?.data ?? '{}').usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('relays the deployment’s errors with their status', async () => {
    const res = await post(
      '/v1/chat/completions',
      { model: MODEL, messages: USER, mock: { status: 400 } },
      key,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
  });

  it('embeds at the deployment', async () => {
    const res = await post('/v1/embeddings', { model: 'azure/text-embedding-small', input: ['a', 'b'] }, key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Loose).data).toHaveLength(2);
  });
});

describe('Azure OpenAI behind /v1/messages', () => {
  it('answers an Anthropic message, translated from the deployment’s chat completion', async () => {
    const res = await post('/v1/messages', { model: MODEL, max_tokens: 64, messages: USER }, key);
    expect(res.status).toBe(200);
    const body: Loose = await res.json();
    expect(body).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
    expect(body.content[0]).toMatchObject({ type: 'text', text: expect.any(String) });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams Anthropic events from message_start to message_stop', async () => {
    const res = await post(
      '/v1/messages',
      { model: MODEL, max_tokens: 64, messages: USER, stream: true },
      key,
    );
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events[0]?.event).toBe('message_start');
    expect(events.at(-1)?.event).toBe('message_stop');
    expect(events.some((e) => e.event === 'content_block_delta')).toBe(true);
  });
});
