import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { postAnthropic, postOpenAI } from './helpers';

/** A text of about `tokens` prompt tokens, unique to this call so tests never share cache entries. */
const filler = (tokens: number) => `${crypto.randomUUID()} ${'x'.repeat(tokens * 4)}`;

interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

async function usageOf(body: Record<string, unknown>): Promise<AnthropicUsage> {
  const res = await postAnthropic('/v1/messages', { model: 'claude-mock', max_tokens: 64, ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { usage: AnthropicUsage }).usage;
}

describe('Anthropic prompt caching', () => {
  it('writes the prefix up to the breakpoint the first time and reads it after', async () => {
    const system = [{ type: 'text', text: filler(1100), cache_control: { type: 'ephemeral' } }];
    const messages = [{ role: 'user', content: 'Hello there, mock.' }];
    const total = promptTokens([{ content: system }, ...messages]);
    const prefix = promptTokens([{ content: system }]);
    const first = await usageOf({ system, messages });
    expect(first).toMatchObject({
      input_tokens: total - prefix,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
    });
    const second = await usageOf({ system, messages: [{ role: 'user', content: 'Another question.' }] });
    expect(second.cache_read_input_tokens).toBe(prefix);
    expect(second.cache_creation_input_tokens).toBe(0);
  });

  it('caches nothing below 1024 tokens unless mock.cache_min_tokens lowers the minimum', async () => {
    const system = [{ type: 'text', text: filler(50), cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const messages = [{ role: 'user', content: 'hi' }];
    expect((await usageOf({ system, messages })).cache_creation_input_tokens).toBe(0);
    const lowered = await usageOf({ system, messages, mock: { cache_min_tokens: 0 } });
    expect(lowered.cache_creation.ephemeral_1h_input_tokens).toBe(promptTokens([{ content: system }]));
  });

  it('reads the last turn’s prefix when the breakpoint moves on, and writes only the new part', async () => {
    const mock = { cache_min_tokens: 0 };
    const opening = {
      role: 'user',
      content: [{ type: 'text', text: filler(20), cache_control: { type: 'ephemeral' } }],
    };
    const first = await usageOf({ messages: [opening], mock });
    const written = first.cache_creation_input_tokens;
    expect(written).toBeGreaterThan(0);
    const next = [
      { role: 'user', content: [{ type: 'text', text: (opening.content[0] as { text: string }).text }] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] },
    ];
    const second = await usageOf({ messages: next, mock });
    expect(second.cache_read_input_tokens).toBe(written);
    expect(second.input_tokens + second.cache_read_input_tokens + second.cache_creation_input_tokens).toBe(
      promptTokens(next),
    );
  });

  it('refuses more than 4 cache_control blocks, and a bad ttl', async () => {
    const block = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const res = await postAnthropic('/v1/messages', {
      model: 'claude-mock',
      max_tokens: 8,
      messages: [{ role: 'user', content: [block, block, block, block, block] }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    const ttl = await postAnthropic('/v1/messages', {
      model: 'claude-mock',
      max_tokens: 8,
      messages: [{ role: 'user', content: [{ ...block, cache_control: { type: 'ephemeral', ttl: '2h' } }] }],
    });
    expect(ttl.status).toBe(400);
  });
});

describe('OpenAI automatic prompt caching', () => {
  it('reports cached_tokens in 128-token steps for a repeated prompt of 1024+ tokens', async () => {
    const messages = [
      { role: 'system', content: filler(1500) },
      { role: 'user', content: 'hi' },
    ];
    const usage = async (body: Record<string, unknown>) =>
      (
        (await (
          await postOpenAI('/v1/chat/completions', { model: 'mock-small', messages, ...body })
        ).json()) as {
          usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
        }
      ).usage;
    expect((await usage({})).prompt_tokens_details.cached_tokens).toBe(0);
    const again = await usage({});
    expect(again.prompt_tokens_details.cached_tokens).toBe(Math.floor(again.prompt_tokens / 128) * 128);
    expect((await usage({ prompt_cache_key: 'other-tenant' })).prompt_tokens_details.cached_tokens).toBe(0);
  });
});
