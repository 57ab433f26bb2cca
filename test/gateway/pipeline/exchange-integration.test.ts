/**
 * Every way a /v1 request can end, through the real app, the real Limiter
 * Durable Object, KV cache and the mock LLM: the reservation is settled
 * exactly once, the cache lease released exactly once, and exactly one log
 * event is emitted, with the right status and usage. The adapters are the
 * real ones, wrapped to count (and, for one test, to fail).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_USAGE } from '../../../src/core/usage';
import { harness } from '../exchange-harness';
import { chatBody, seedKey } from '../helpers';

let limited: { secret: string };
let cachedAndLimited: { secret: string };
let overBudget: { secret: string };
let restricted: { secret: string };
beforeAll(async () => {
  limited = await seedKey({ tenantId: 'ten_exchange', limits: { rpm: 100_000 } });
  cachedAndLimited = await seedKey({
    tenantId: 'ten_exchange',
    limits: { rpm: 100_000 },
    cache: { exact: true },
  });
  overBudget = await seedKey({
    tenantId: 'ten_exchange_poor',
    budgets: { tokens: { total: 1 } },
    cache: { exact: true },
  });
  restricted = await seedKey({ tenantId: 'ten_exchange', models: ['mock/other'], limits: { rpm: 100_000 } });
});

const unique = (text: string) => `${text} ${crypto.randomUUID()}`;

describe('one exchange per request, one exit', () => {
  it('denied by policy: nothing reserved, nothing leased, one 403 log event', async () => {
    const { counts, call } = harness();
    const { res } = await call(chatBody('hi'), restricted.secret);
    expect(res.status).toBe(403);
    expect(counts.settles).toEqual([]);
    expect(counts.releases).toEqual([]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({ status: 403, errorCode: 'model_not_allowed', inputTokens: 0 });
  });

  it('denied by the limiter: the cache lease taken in parallel is released once, with nothing', async () => {
    const { counts, call } = harness();
    const { res } = await call(chatBody(unique('poor')), overBudget.secret);
    expect(res.status).toBe(429);
    expect(counts.settles).toEqual([]);
    expect(counts.releases).toEqual([null]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({ status: 429, errorCode: 'budget_exceeded', inputTokens: 0 });
  });

  it('a JSON answer: settled once with its usage, released once with the entry, one log event', async () => {
    const { counts, call } = harness();
    const { res, body } = await call(chatBody(unique('json')), cachedAndLimited.secret, (r) => r.json());
    const usage = (body as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(res.status).toBe(200);
    expect(counts.settles).toHaveLength(1);
    expect(counts.settles[0]!.usage).toMatchObject({
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
    });
    expect(counts.releases).toHaveLength(1);
    expect(counts.releases[0]).toMatchObject({
      endpoint: 'chat',
      usage: { inputTokens: usage.prompt_tokens },
    });
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({
      status: 200,
      cache: 'MISS',
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
    });
  });

  it('a cache hit: settled once spending no tokens, no lease, one log event with the entry usage', async () => {
    const { counts, call } = harness();
    const body = chatBody(unique('hit'));
    await call(body, cachedAndLimited.secret);
    counts.settles.length = 0;
    counts.releases.length = 0;
    counts.events.length = 0;
    const { res } = await call(body, cachedAndLimited.secret);
    expect(res.headers.get('x-edgeway-cache')).toBe('HIT');
    expect(counts.settles).toEqual([{ usage: NO_USAGE, stream: undefined }]);
    expect(counts.releases).toEqual([]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({ status: 200, cache: 'HIT', costUsd: 0 });
    expect(counts.events[0]!.inputTokens).toBeGreaterThan(0);
  });

  it('an upstream error before the first byte: settled once with nothing, released once with nothing', async () => {
    const { counts, call } = harness();
    const { res } = await call(
      chatBody(unique('fail'), { mock: { status: 503 } }),
      cachedAndLimited.secret,
      (r) => r.text(),
      { 'cf-aig-max-attempts': '1' },
    );
    expect(res.status).toBe(503);
    expect(counts.settles).toEqual([{ usage: null, stream: undefined }]);
    expect(counts.releases).toEqual([null]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({ status: 503, errorSource: 'provider', inputTokens: 0 });
  });

  it('a stream that completes: settled once with the usage chunk, released once with the assembled entry', async () => {
    const { counts, call } = harness();
    const { res } = await call(chatBody(unique('one two three'), { stream: true }), cachedAndLimited.secret);
    expect(res.status).toBe(200);
    expect(counts.settles).toHaveLength(1);
    expect(counts.settles[0]!.stream).toMatchObject({ completed: true });
    expect(counts.settles[0]!.usage!.outputTokens).toBeGreaterThan(0);
    expect(counts.releases).toHaveLength(1);
    expect(counts.releases[0]).toMatchObject({ endpoint: 'chat' });
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({
      status: 200,
      stream: true,
      streamCompleted: true,
      errorCode: null,
    });
    expect(counts.events[0]!.outputTokens).toBe(counts.settles[0]!.usage!.outputTokens);
  });

  it('a stream cut by the upstream: settled once with what was delivered, released once with nothing', async () => {
    const { counts, call } = harness();
    await call(
      chatBody(unique('a b c d e f g h'), { stream: true, mock: { cut_after: 2 } }),
      cachedAndLimited.secret,
    );
    expect(counts.settles).toHaveLength(1);
    expect(counts.settles[0]!.stream).toMatchObject({ completed: false });
    expect(counts.settles[0]!.stream!.deliveredChars).toBeGreaterThan(0);
    expect(counts.releases).toEqual([null]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({
      status: 200,
      streamCompleted: false,
      errorSource: 'provider',
      errorCode: 'stream_incomplete',
    });
  });

  it('a client that goes away mid-stream: settled once, released once with nothing, logged as disconnected', async () => {
    const { counts, call } = harness();
    // Reads past the role chunk until some content arrived, then goes away.
    const abandon = async (res: Response) => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      for (let got = ''; !/"content":"[^"]/.test(got); ) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended before any content');
        got += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
    };
    await call(
      chatBody(unique('slow'), { stream: true, mock: { tokens: 50, pace_ms: 20 } }),
      cachedAndLimited.secret,
      abandon,
    );
    expect(counts.settles).toHaveLength(1);
    expect(counts.settles[0]!.stream).toMatchObject({ completed: false, cancelledByClient: true });
    expect(counts.releases).toEqual([null]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({
      status: 200,
      streamCompleted: false,
      errorSource: 'client',
      errorCode: 'client_disconnected',
    });
    // Charged (and logged) what it was delivered, not nothing.
    expect(counts.events[0]!.outputTokens).toBeGreaterThan(0);
    expect(counts.settles[0]!.usage).toMatchObject({ outputTokens: counts.events[0]!.outputTokens });
  });

  it('an exception in our own code after the reservation: 500, settled once with nothing, one log event', async () => {
    const { counts, call } = harness({ lookup: true });
    const { res, body } = await call(chatBody(unique('boom')), cachedAndLimited.secret, (r) => r.json());
    expect(res.status).toBe(500);
    expect(body).toMatchObject({ error: { code: 'internal_error', type: 'server_error' } });
    expect(JSON.stringify(body)).not.toContain('Cannot read');
    expect(counts.settles).toEqual([{ usage: null, stream: undefined }]);
    expect(counts.releases).toEqual([]);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({
      status: 500,
      errorSource: 'gateway',
      errorCode: 'internal_error',
    });
  });

  it('a failing exit step (the cache store) still lets the others run: settled once, released once, logged once', async () => {
    const { counts, call } = harness({ store: true });
    const { res } = await call(chatBody(unique('store fails')), cachedAndLimited.secret);
    expect(res.status).toBe(200);
    expect(counts.settles).toHaveLength(1);
    expect(counts.releases).toHaveLength(1);
    expect(counts.events).toHaveLength(1);
    expect(counts.events[0]).toMatchObject({ status: 200 });
  });

  it('a request with limits and no cache: settled once, nothing leased, one log event', async () => {
    const { counts, call } = harness();
    const { res } = await call(chatBody(unique('plain')), limited.secret, (r) => r.text(), {
      'x-edgeway-cache': 'no-store',
    });
    expect(res.status).toBe(200);
    expect(counts.settles).toHaveLength(1);
    expect(counts.releases).toEqual([]);
    expect(counts.events).toHaveLength(1);
  });
});
