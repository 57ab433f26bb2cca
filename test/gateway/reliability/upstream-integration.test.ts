/**
 * A misbehaving upstream costs its own request, never its neighbours': huge
 * and unterminated stream events, huge error bodies, error messages carrying
 * secrets, JSON bodies cut or stalled after the headers, stalled streams, and
 * slow clients. Through the real app against the mock LLM (its `mock`
 * controls), or against an in-test upstream where the mock cannot say it.
 */
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExactCache } from '../../../src/cache/exact-cache';
import type { Route } from '../../../src/pipeline/route/resolve';
import { dispatch } from '../../../src/pipeline/route/upstream';
import { tableAdapter } from '../../../src/providers/adapter';
import { harness } from '../exchange-harness';
import { chatBody, post, readSse, seedKey } from '../helpers';
import { bindings } from '../log-fixtures';

const CHAT = '/v1/chat/completions';
const ONE_TRY = { 'cf-aig-max-attempts': '1' };
const MiB = 1024 * 1024;

let key: string;
let cachedKey: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_upstream' })).secret;
  cachedKey = (await seedKey({ tenantId: 'ten_upstream', limits: { rpm: 100_000 }, cache: { exact: true } }))
    .secret;
});

const unique = (text: string) => `${text} ${crypto.randomUUID()}`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('stream events too large', () => {
  it('relays a valid 512 KiB event whole', async () => {
    const res = await post(
      CHAT,
      chatBody('x', { stream: true, mock: { huge_event_bytes: 512 * 1024 } }),
      key,
    );
    const events = await readSse(res);
    const huge = events.find((e) => e.data.length > 1000)!;
    expect(huge.data.length).toBeGreaterThan(500 * 1024);
    expect(events.at(-1)!.data).toBe('[DONE]');
  });

  it('ends a 16 MiB event with event_too_large, while /healthz and another chat answer promptly', async () => {
    const huge = post(CHAT, chatBody('x', { stream: true, mock: { huge_event_bytes: 16 * MiB } }), key);
    const health = timed(() => SELF.fetch('http://gw.test/healthz'));
    const neighbour = timed(() => post(CHAT, chatBody('neighbour'), key));
    const { value: res, ms: hugeMs } = await timed(async () => (await huge).text());
    expect(res).toContain('"code":"event_too_large"');
    expect(res.length).toBeLessThan(64 * 1024);
    expect((await health).value.status).toBe(200);
    const n = await neighbour;
    expect(n.value.status).toBe(200);
    // Before the fix the 16 MiB event alone took about 80 s; now it is stopped at the 1 MiB cap.
    expect(hugeMs).toBeLessThan(5_000);
    expect((await health).ms).toBeLessThan(5_000);
    expect(n.ms).toBeLessThan(5_000);
  });

  it('stops a 60 MiB event that never ends at the cap, with event_too_large', async () => {
    const { value: text, ms } = await timed(async () =>
      (await post(CHAT, chatBody('x', { stream: true, mock: { unterminated_bytes: 60 * MiB } }), key)).text(),
    );
    expect(text).toContain('"code":"event_too_large"');
    expect(ms).toBeLessThan(5_000);
  });

  it('ends a small event without its blank line as stream_incomplete', async () => {
    const res = await post(CHAT, chatBody('x', { stream: true, mock: { unterminated_bytes: 10_000 } }), key);
    const text = await res.text();
    expect(text).toContain('"code":"stream_incomplete"');
  });

  it('closes a stream that stalls with stream_idle_timeout', async () => {
    const res = await post(
      CHAT,
      chatBody('x', { stream: true, mock: { tokens: 10, stall_after: 2, stall_ms: 5000 } }),
      key,
    );
    expect(await res.text()).toContain('"code":"stream_idle_timeout"');
  });
});

describe('a slow client is not a stalled upstream', () => {
  it('completes a healthy stream whose client pauses longer than the idle timeout', async () => {
    const res = await post(
      CHAT,
      chatBody('x', { model: 'mock/mock-small', stream: true, mock: { tokens: 20, pace_ms: 1 } }),
      key,
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    await new Promise((resolve) => setTimeout(resolve, 800));
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    expect(text).not.toContain('stream_idle_timeout');
    expect(text).toContain('[DONE]');
  });

  it('a request waiting on an identical one in flight gives up after the wait and calls upstream itself', async () => {
    const { call } = harness({ inflightWaitMs: 200 });
    const body = chatBody(unique('slow twin'), { mock: { latency_ms: 1500 } });
    const leader = call(body, cachedKey);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { value: waiter, ms } = await timed(() => call(body, cachedKey));
    expect(waiter.res.status).toBe(200);
    // It did not get the leader's answer: it called the provider itself (MISS) after waiting 200 ms.
    expect(waiter.res.headers.get('x-edgeway-cache')).toBe('MISS');
    expect(ms).toBeGreaterThanOrEqual(1500 + 150);
    expect((await leader).res.status).toBe(200);
  });

  it('a leader that finishes after a waiter took over does not clear the new mark', async () => {
    const cache = new ExactCache(bindings.KV_CACHE, { inflightWaitMs: 20 });
    const k = `k-${crypto.randomUUID()}`;
    const first = cache.lead(k);
    expect(await cache.joinInflight(k)).toBeNull();
    const second = cache.lead(k);
    first(null);
    const waiting = cache.joinInflight(k);
    expect(waiting).not.toBeNull();
    second(null);
    expect(await waiting).toBeNull();
    expect(cache.joinInflight(k)).toBeNull();
  });
});

describe('error bodies', () => {
  it('reads at most 16 KiB of a 60 MiB error body', async () => {
    const { value: res, ms } = await timed(() =>
      post(CHAT, chatBody('x', { mock: { status: 500, error_body_bytes: 60 * MiB } }), key, ONE_TRY),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe('The provider returned HTTP 500.');
    expect(ms).toBeLessThan(5_000);
  });

  it.each([400, 429])(
    'never relays the provider key in a %i message, nor anything shaped like a key',
    async (status) => {
      const message =
        'Incorrect API key provided: {key}. Try sk-proj-abcdefghijklmnop1234 or ?key=AIzaSyA12345678901234567890';
      const res = await post(CHAT, chatBody('x', { mock: { status, error_message: message } }), key, ONE_TRY);
      expect(res.status).toBe(status);
      const text = await res.text();
      expect(text).not.toContain('mock-key');
      expect(text).not.toContain('sk-proj-abcdefghijklmnop1234');
      expect(text).not.toContain('AIzaSy');
      expect(text).toContain('Incorrect API key provided: [redacted]');
    },
  );

  it('never relays the key of a real-shaped provider, and caps the message', async () => {
    const secret = 'sk-test-0123456789abcdefABCDEF';
    const adapter = tableAdapter(
      {
        id: 'acme',
        baseUrl: 'https://acme.test/v1',
        keySecret: 'PROVIDER_KEY_ACME',
        serves: { chat: 'openai' },
      },
      secret,
      async () =>
        Response.json(
          {
            error: {
              message: `Quota exceeded for ${secret}. ${'more '.repeat(2000)}`,
              type: 'insufficient_quota',
            },
          },
          { status: 429 },
        ),
    );
    const route: Route = {
      providerId: 'acme',
      upstreamModel: 'm',
      adapter,
      target: adapter.prepare({ endpoint: 'chat', model: 'm', stream: false, passHeaders: [] })!,
      tenantKey: false,
    };
    const error = await dispatch(route, {
      body: '{}',
      maxAttempts: 1,
      ttfbTimeoutMs: 1000,
      awaitFirstChunk: false,
    })
      .then(() => null)
      .catch((e: Error) => e);
    expect(error?.message).toMatch(/^Quota exceeded for \[redacted\]\. /);
    expect(error?.message.length).toBeLessThan(1100);
  });

  it('reports every attempt made, even when the dispatch fails', async () => {
    const attempts: number[] = [];
    const adapter = tableAdapter(
      {
        id: 'acme',
        baseUrl: 'https://acme.test/v1',
        keySecret: 'PROVIDER_KEY_ACME',
        serves: { chat: 'openai' },
      },
      'k',
      async () => new Response('busy', { status: 503, headers: { 'retry-after': '0' } }),
    );
    const route: Route = {
      providerId: 'acme',
      upstreamModel: 'm',
      adapter,
      target: adapter.prepare({ endpoint: 'chat', model: 'm', stream: false, passHeaders: [] })!,
      tenantKey: false,
    };
    await expect(
      dispatch(route, {
        body: '{}',
        maxAttempts: 3,
        ttfbTimeoutMs: 1000,
        awaitFirstChunk: false,
        onAttempt: (n) => attempts.push(n),
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(attempts).toEqual([1, 2, 3]);
  });
});

describe('JSON bodies that fail after the headers', () => {
  it('a body cut mid-way (reset) is a 502 upstream_interrupted; nothing leaks and waiters are released', async () => {
    const { counts, call } = harness();
    const body = chatBody(unique('cut'), { mock: { latency_ms: 100, body_reset_bytes: 40 } });
    const [a, b] = await Promise.all([call(body, cachedKey), call(body, cachedKey)]);
    for (const { res, body: text } of [a, b]) {
      expect(res.status).toBe(502);
      expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'upstream_interrupted' } });
    }
    // Each request settled once with nothing spent, and each lease it took was released with nothing.
    expect(counts.settles.map((s) => s.usage)).toEqual([null, null]);
    expect(counts.releases.every((entry) => entry === null)).toBe(true);
    expect(counts.releases.length).toBeGreaterThanOrEqual(1);
    expect(counts.events.map((e) => [e.status, e.errorSource, e.errorCode])).toEqual([
      [502, 'provider', 'upstream_interrupted'],
      [502, 'provider', 'upstream_interrupted'],
    ]);
  });

  it('a body that ends cleanly mid-way is a 502 bad_upstream_response', async () => {
    const res = await post(CHAT, chatBody('x', { mock: { body_cut_bytes: 40 } }), key);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_upstream_response' } });
  });

  it('a body that stalls after the headers times out as a 504 within the idle timeout', async () => {
    const { counts, call } = harness();
    const { value, ms } = await timed(() =>
      call(chatBody(unique('stall'), { mock: { body_stall_after: 10, stall_ms: 10_000 } }), cachedKey),
    );
    expect(value.res.status).toBe(504);
    expect(JSON.parse(value.body)).toMatchObject({ error: { code: 'upstream_body_timeout' } });
    expect(ms).toBeLessThan(3_000);
    expect(counts.settles.map((s) => s.usage)).toEqual([null]);
    expect(counts.releases).toEqual([null]);
  });

  it('a body of declared length that stalls times out the same way (read in one call, bounded in time)', async () => {
    const { counts, call } = harness();
    const { value, ms } = await timed(() =>
      call(
        chatBody(unique('stall-declared'), {
          mock: { body_stall_after: 10, stall_ms: 10_000, body_declared: true },
        }),
        cachedKey,
      ),
    );
    expect(value.res.status).toBe(504);
    expect(JSON.parse(value.body)).toMatchObject({ error: { code: 'upstream_body_timeout' } });
    expect(ms).toBeLessThan(3_000);
    expect(counts.settles.map((s) => s.usage)).toEqual([null]);
  });
});
