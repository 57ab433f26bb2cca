/**
 * Named routes through the real gateway: a client calls a route by name; a
 * primary that fails before its first byte (503, 429 with retry-after, a
 * timeout, an unreachable host) is followed by its fallback, which serves
 * the answer; the headers and the log show every call; an error after the
 * first streamed byte is never retried; a fallback may cross wire formats;
 * limits and the log charge the model that answered; the cache keys on the
 * route's name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, createTenant } from '../admin-helpers';
import { asJson, eventData, type Loose } from '../answer-helpers';
import { harness } from '../exchange-harness';
import { readSse, seedKey } from '../helpers';
import { echoCost } from '../log-fixtures';
import { MIN_CALLS } from '../../../src/routing/breaker';

let tenantId: string;
let key: string;

async function route(name: string, spec: Record<string, unknown>): Promise<void> {
  const res = await admin('POST', '/routes', { name, tenant_id: tenantId, spec });
  expect(res.status, res.text).toBe(201);
}

const hello = (extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content: 'Hello there, mock.' }],
  ...extra,
});

beforeAll(async () => {
  tenantId = (await createTenant('routes-fallback')).id;
  key = (await seedKey({ tenantId, limits: { rpm: 10_000 } })).secret;
  await route('primary-503', {
    strategy: 'fallback',
    targets: [{ model: 'mock/mock-large;status=503' }, { model: 'mock/echo' }],
  });
  await route('primary-429', {
    strategy: 'fallback',
    targets: [{ model: 'mock/echo;status=429' }, { model: 'mock/echo' }],
  });
  await route('primary-slow', {
    strategy: 'fallback',
    targets: [{ model: 'mock/echo;latency_ms=3000', ttfb_timeout_ms: 150 }, { model: 'mock/echo' }],
  });
  await route('primary-dead', {
    strategy: 'fallback',
    targets: [{ model: 'dead/x' }, { model: 'mock/echo' }],
  });
  await route('primary-cut', {
    strategy: 'fallback',
    targets: [{ model: 'mock/echo;cut_after=2' }, { model: 'mock/mock-small' }],
  });
  await route('primary-400', {
    strategy: 'fallback',
    targets: [{ model: 'mock/echo;status=400' }, { model: 'mock/mock-small' }],
  });
  await route('breaker-route', {
    strategy: 'fallback',
    targets: [{ model: 'mock/echo;status=503;key=breaker' }, { model: 'mock/echo' }],
  });
  await route('cross-format', {
    strategy: 'fallback',
    targets: [{ model: 'gpt-only/echo;status=503' }, { model: 'claude-only/echo' }],
  });
});

describe('a route whose primary fails before the first byte', () => {
  it.each([
    ['primary-503', 'mock/mock-large;status=503', 503],
    ['primary-429', 'mock/echo;status=429', 429],
    ['primary-slow', 'mock/echo;latency_ms=3000', 0],
    ['primary-dead', 'dead/x', 0],
  ])(
    '%s: the fallback answers, and the headers and the log show both calls',
    async (name, primary, status) => {
      const h = harness();
      const { res, body } = await h.call({ model: name, ...hello() }, key, asJson);
      expect(res.status).toBe(200);
      expect(body.choices[0].message.content).toBe('Hello there, mock.');
      expect(res.headers.get('x-edgeway-route')).toBe(name);
      expect(res.headers.get('x-edgeway-target')).toBe('mock/echo');
      expect(res.headers.get('x-edgeway-attempts')).toBe('2');
      const event = h.counts.events[0] as Loose;
      expect(event.route).toBe(name);
      expect(event.model).toBe(name);
      expect(event.tries).toMatchObject([
        { target: primary, status, error: expect.any(String) },
        { target: 'mock/echo', status: 200, error: null },
      ]);
    },
  );

  it('charges the model that answered, at its price, in the limits and the log', async () => {
    const h = harness();
    await h.call({ model: 'primary-503', ...hello() }, key);
    const event = h.counts.events[0] as Loose;
    expect(event.provider).toBe('mock');
    expect(event.costUsd).toBeCloseTo(echoCost(event.inputTokens, event.outputTokens), 12);
    expect(h.counts.settles[0]?.usage).toMatchObject({ inputTokens: event.inputTokens });
  });

  it('streams the fallback, translated across wire formats (OpenAI client, Anthropic-format fallback)', async () => {
    const h = harness();
    const { res, body } = await h.call(
      { model: 'cross-format', ...hello({ stream: true, stream_options: { include_usage: true } }) },
      key,
      readSse,
    );
    expect(res.headers.get('x-edgeway-target')).toBe('claude-only/echo');
    const chunks = eventData(body);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello there, mock.');
    expect(body.at(-1)?.data).toBe('[DONE]');
    expect((h.counts.events[0] as Loose).tries.map((t: Loose) => t.target)).toEqual([
      'gpt-only/echo;status=503',
      'claude-only/echo',
    ]);
  });
});

describe('the circuit breaker', () => {
  it(`opens after ${MIN_CALLS} failures: the next requests skip the target with no upstream call`, async () => {
    for (let i = 0; i < MIN_CALLS; i++) {
      const h = harness();
      await h.call({ model: 'breaker-route', ...hello() }, key);
      expect((h.counts.events[0] as Loose).tries[0]).toMatchObject({ status: 503 });
    }
    const h = harness();
    const { res } = await h.call({ model: 'breaker-route', ...hello() }, key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-attempts')).toBe('1');
    expect((h.counts.events[0] as Loose).tries).toEqual([
      { target: 'mock/echo;status=503;key=breaker', status: 0, ttfbMs: 0, error: 'circuit_open' },
      expect.objectContaining({ target: 'mock/echo', status: 200, error: null }),
    ]);
  });
});

describe('what never falls back', () => {
  it('an error after the first streamed byte: not retried, the stream ends with its error frame', async () => {
    const h = harness();
    const { body } = await h.call({ model: 'primary-cut', ...hello({ stream: true }) }, key, readSse);
    expect(JSON.parse(body.at(-1)?.data ?? '{}').error?.code).toBe('stream_incomplete');
    expect((h.counts.events[0] as Loose).tries).toHaveLength(1);
  });

  it("a provider's 400 about the request: the client gets it, the fallback is not called", async () => {
    const h = harness();
    const { res } = await h.call({ model: 'primary-400', ...hello() }, key);
    expect(res.status).toBe(400);
    expect((h.counts.events[0] as Loose).tries).toHaveLength(1);
  });

  it('an unknown route name: 404 model_not_found naming the model', async () => {
    const { res, body } = await harness().call({ model: 'no-such-route', ...hello() }, key, asJson);
    expect(res.status).toBe(404);
    expect(body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });
});

describe('the cache and the allow-list', () => {
  it('keys cached answers on the route name, so a fallback answer is served for the route', async () => {
    const cachedKey = (await seedKey({ tenantId, cache: { exact: true } })).secret;
    const body = {
      model: 'primary-503',
      messages: [{ role: 'user', content: `cache ${crypto.randomUUID()}` }],
    };
    const first = await harness().call(body, cachedKey);
    expect(first.res.headers.get('x-edgeway-cache')).toBe('MISS');
    const second = await harness().call(body, cachedKey);
    expect(second.res.headers.get('x-edgeway-cache')).toBe('HIT');
    expect(second.res.headers.get('x-edgeway-route')).toBe('primary-503');
  });

  it('lets a key whose allow-list names the route call it, and nothing else', async () => {
    const scoped = (await seedKey({ tenantId, models: ['primary-503'] })).secret;
    expect((await harness().call({ model: 'primary-503', ...hello() }, scoped)).res.status).toBe(200);
    expect((await harness().call({ model: 'mock/echo', ...hello() }, scoped)).res.status).toBe(403);
  });
});
