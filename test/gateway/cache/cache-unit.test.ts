import { describe, expect, it } from 'vitest';
import { cacheDirectives } from '../../../src/cache/directives';
import { canonicalJson, exactCacheKey } from '../../../src/cache/key';
import { replaySse } from '../../../src/cache/replay';
import { openAiAssembler } from '../../../src/codecs/openai/assemble';

const keyInput = {
  tenantId: 't1',
  provider: 'mock',
  endpoint: 'chat',
  model: 'mock/echo',
  namespace: null,
  body: { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] },
};

describe('cache keys', () => {
  it('writes canonical JSON with sorted keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives different keys for different tenants, providers, endpoints, models and namespaces', async () => {
    const base = await exactCacheKey(keyInput);
    for (const change of [
      { tenantId: 't2' },
      { provider: 'openai' },
      { endpoint: 'messages' },
      { model: 'mock/other' },
      { namespace: 'ns' },
    ]) {
      expect(await exactCacheKey({ ...keyInput, ...change })).not.toBe(base);
    }
    expect(base.startsWith('v1:t1:')).toBe(true);
  });

  it('ignores delivery-only fields and null values', async () => {
    const base = await exactCacheKey(keyInput);
    const noisy = {
      ...keyInput,
      body: {
        ...keyInput.body,
        stream: true,
        stream_options: { include_usage: true },
        user: 'u',
        temperature: null,
      },
    };
    expect(await exactCacheKey(noisy)).toBe(base);
  });
});

describe('cache directives', () => {
  const h = (e: Record<string, string>) => new Headers(e);
  it('is off without a key setting or a TTL header', () => {
    expect(cacheDirectives(h({}), {})).toMatchObject({ lookup: false, store: false });
  });
  it("turns on with the key setting, with the TTL from the header, the key, or the default, floored at KV's 60 s", () => {
    expect(cacheDirectives(h({}), { exact: true })).toMatchObject({
      lookup: true,
      store: true,
      ttlSeconds: 3600,
    });
    expect(cacheDirectives(h({}), { exact: true, ttl_seconds: 600 }).ttlSeconds).toBe(600);
    expect(cacheDirectives(h({ 'cf-aig-cache-ttl': '5' }), {})).toMatchObject({
      lookup: true,
      store: true,
      ttlSeconds: 60,
    });
  });
  it('reads no-cache, no-store and cf-aig-skip-cache', () => {
    expect(cacheDirectives(h({ 'x-edgeway-cache': 'no-cache' }), { exact: true })).toMatchObject({
      lookup: false,
      store: true,
    });
    expect(cacheDirectives(h({ 'x-edgeway-cache': 'no-store' }), { exact: true })).toMatchObject({
      lookup: true,
      store: false,
    });
    expect(cacheDirectives(h({ 'cf-aig-skip-cache': 'true' }), { exact: true })).toMatchObject({
      lookup: false,
    });
  });
});

describe('replaying a cached answer', () => {
  it('replays an OpenAI entry as chunks whose deltas rebuild the same completion', () => {
    const body = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    const sse = replaySse(
      {
        v: 1,
        format: 'openai',
        endpoint: 'chat',
        body,
        usage: {
          inputTokens: 1,
          outputTokens: 1,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          cacheWrite1hTokens: 0,
          reasoningTokens: 0,
        },
        storedAt: 0,
      },
      true,
    );
    const a = openAiAssembler();
    const frames = sse
      .split('\n\n')
      .filter(Boolean)
      .map((f) => f.slice('data: '.length));
    expect(frames.at(-1)).toBe('[DONE]');
    for (const f of frames.slice(0, -1)) a.push(JSON.parse(f) as Record<string, unknown>, null);
    expect(a.result()).toMatchObject({
      id: 'c1',
      choices: [{ message: { content: 'Hello' }, finish_reason: 'stop' }],
      usage: body.usage,
    });
  });
});
