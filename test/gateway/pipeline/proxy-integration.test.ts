import { beforeAll, describe, expect, it } from 'vitest';
import { chatBody, post, readSse, seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey()).secret;
});

type Chunk = { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown };

function contentOf(events: { data: string }[]): string {
  return events
    .filter((e) => e.data.startsWith('{'))
    .map((e) => (JSON.parse(e.data) as Chunk).choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe('POST /v1/chat/completions (JSON)', () => {
  it('returns the provider answer with usage and gateway headers', async () => {
    const res = await post('/v1/chat/completions', chatBody('Hello there, gateway'), key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-request-id')).toBeTruthy();
    expect(res.headers.get('cf-aig-log-id')).toBe(res.headers.get('x-edgeway-request-id'));
    // Present, and a non-negative decimal with one digit (toFixed(1)): Number(null) would be 0 and pass.
    const overhead = res.headers.get('x-edgeway-overhead-ms');
    expect(overhead).toMatch(/^\d+\.\d$/);
    expect(Number(overhead)).toBeGreaterThanOrEqual(0);
    const body = (await res.json()) as {
      object: string;
      model: string;
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('echo');
    expect(body.choices[0]!.message.content).toBe('Hello there, gateway');
    expect(body.usage.completion_tokens).toBe(3);
    expect(body.usage.prompt_tokens).toBe(4 + Math.ceil('Hello there, gateway'.length / 4) + 3);
  });

  it("passes a provider error through with its status, marked as the provider's", async () => {
    const res = await post('/v1/chat/completions', chatBody('x', { mock: { status: 429 } }), key);
    expect(res.status).toBe(429);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('maps a provider 500 to the same status, never a 200', async () => {
    const res = await post('/v1/chat/completions', chatBody('x', { mock: { status: 503 } }), key);
    expect(res.status).toBe(503);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
  });

  it("never relays the provider's own auth failure as the caller's 401", async () => {
    const res = await post('/v1/chat/completions', chatBody('x', { mock: { status: 401 } }), key);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { code: 'provider_auth_failed' } });
  });

  it('retries a retryable failure when cf-aig-max-attempts allows it', async () => {
    const mock = { fail_first: 1, key: crypto.randomUUID(), status: 503 };
    const res = await post('/v1/chat/completions', chatBody('retry me', { mock }), key, {
      'cf-aig-max-attempts': '2',
    });
    expect(res.status).toBe(200);
    expect(
      ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    ).toBe('retry me');
  });

  it('does not retry a non-retryable 400', async () => {
    const mock = { fail_first: 1, key: crypto.randomUUID(), status: 400 };
    const res = await post('/v1/chat/completions', chatBody('x', { mock }), key, {
      'cf-aig-max-attempts': '3',
    });
    expect(res.status).toBe(400);
  });

  it('times out a slow provider with 504 after cf-aig-request-timeout', async () => {
    const res = await post('/v1/chat/completions', chatBody('x', { mock: { latency_ms: 2000 } }), key, {
      'cf-aig-request-timeout': '100',
    });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
  });
});

describe('POST /v1/chat/completions (stream)', () => {
  it('streams the deltas through, strips the usage chunk the client did not ask for, ends with [DONE]', async () => {
    const res = await post('/v1/chat/completions', chatBody('one two three four', { stream: true }), key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    expect(contentOf(events)).toBe('one two three four');
    expect(events.at(-1)!.data).toBe('[DONE]');
    expect(
      events.some((e) => e.data.startsWith('{') && (JSON.parse(e.data) as Chunk).choices.length === 0),
    ).toBe(false);
  });

  it('keeps the usage chunk when the client asked for it', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('a b', { stream: true, stream_options: { include_usage: true } }),
      key,
    );
    const events = await readSse(res);
    const usage = events
      .filter((e) => e.data.startsWith('{'))
      .map((e) => JSON.parse(e.data) as Chunk)
      .find((c) => c.choices.length === 0);
    expect(usage?.usage).toMatchObject({ completion_tokens: 2 });
  });

  it('ends a stream cut midway with an error frame and no [DONE]', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', { model: 'mock/mock-small', stream: true, mock: { tokens: 10, cut_after: 3 } }),
      key,
    );
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.some((e) => e.data === '[DONE]')).toBe(false);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ error: { code: 'stream_incomplete' } });
  });

  it('ends a reset stream with an error frame', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', { model: 'mock/mock-small', stream: true, mock: { tokens: 10, reset_after: 2 } }),
      key,
    );
    const events = await readSse(res);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ error: { code: 'stream_interrupted' } });
  });

  it('closes a stalled stream after the idle timeout with an error frame', async () => {
    // UPSTREAM_IDLE_TIMEOUT_MS is lowered for the test worker in vitest.config.ts.
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', {
        model: 'mock/mock-small',
        stream: true,
        mock: { tokens: 10, stall_after: 2, stall_ms: 5000 },
      }),
      key,
    );
    const events = await readSse(res);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ error: { code: 'stream_idle_timeout' } });
  });

  it('stops at a malformed chunk with an error frame rather than relaying it', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', { model: 'mock/mock-small', stream: true, mock: { tokens: 10, malformed_after: 2 } }),
      key,
    );
    const events = await readSse(res);
    for (const e of events) expect(() => e.data === '[DONE]' || JSON.parse(e.data)).not.toThrow();
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ error: { code: 'malformed_chunk' } });
  });

  it('retries a stream whose provider fails before the first byte', async () => {
    const mock = { fail_first: 1, key: crypto.randomUUID(), status: 500 };
    const res = await post('/v1/chat/completions', chatBody('again', { stream: true, mock }), key, {
      'cf-aig-max-attempts': '2',
    });
    expect(res.status).toBe(200);
    expect(contentOf(await readSse(res))).toBe('again');
  });

  it('returns a provider failure before the first byte as an error status, not a 200 stream', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', { stream: true, mock: { status: 500 } }),
      key,
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('aborts the upstream when the client cancels', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('x', { model: 'mock/mock-small', stream: true, mock: { tokens: 200, pace_ms: 20 } }),
      key,
    );
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    // A second request still works: the cancelled relay released everything.
    const again = await post('/v1/chat/completions', chatBody('still here'), key);
    expect(again.status).toBe(200);
  });
});

describe('other endpoints', () => {
  it('proxies embeddings', async () => {
    const res = await post(
      '/v1/embeddings',
      { model: 'mock/text-embedding-3-small', input: ['a', 'b'], dimensions: 8 },
      key,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { embedding: number[] }[]; usage: { prompt_tokens: number } };
    expect(body.data).toHaveLength(2);
    expect(body.data[0]!.embedding).toHaveLength(8);
  });

  it('proxies the Anthropic Messages API, JSON and stream', async () => {
    const json = await post(
      '/v1/messages',
      { model: 'mock/echo', max_tokens: 50, messages: [{ role: 'user', content: 'bonjour le monde' }] },
      key,
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'bonjour le monde' }],
    });
    const stream = await post(
      '/v1/messages',
      { model: 'mock/echo', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'salut' }] },
      key,
    );
    const events = await readSse(stream);
    expect(events[0]!.event).toBe('message_start');
    expect(events.at(-1)!.event).toBe('message_stop');
  });

  it('lists the models the key may use', async () => {
    const { secret } = await seedKey({ models: ['mock/echo', 'mock/mock-small'] });
    const res = await (await import('cloudflare:test')).SELF.fetch('http://gw.test/v1/models', {
      headers: { authorization: `Bearer ${secret}` },
    });
    const body = (await res.json()) as { object: string; data: { id: string }[] };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toEqual(['mock/echo', 'mock/mock-small']);
  });
});
