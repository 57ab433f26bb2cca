import { env, listDurableObjectIds } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chatBody, post } from '../helpers';
import { limitedKey, settledDump } from '../limits-helpers';

type ErrorBody = {
  error: {
    message: string;
    type: string;
    code: string;
    param: null;
    limit: { scope: string; kind: string; limit: number; used: number };
  };
};

const chat = (secret: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post('/v1/chat/completions', chatBody('count me', extra), secret, headers);

describe('request rate limits through the gateway', () => {
  it('lets exactly N requests per minute through, then answers 429 with retry-after and the limit', async () => {
    const { secret } = await limitedKey({ limits: { rpm: 5 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await chat(secret);
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe('5');
      expect(res.headers.get('x-ratelimit-remaining-requests')).toBe(String(4 - i));
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const denied = await chat(secret);
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(denied.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(denied.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+m?\d*s$/);
    expect(denied.headers.get('x-edgeway-error-source')).toBe('gateway');
    const body = (await denied.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      param: null,
      limit: { scope: 'key', kind: 'rpm', limit: 5, used: 5 },
    });
  });

  it('applies the tenant limit across all its keys', async () => {
    const a = await limitedKey({ tenantLimits: { rpm: 3 } });
    const b = await limitedKey({ tenantId: a.tenantId });
    expect((await chat(a.secret)).status).toBe(200);
    expect((await chat(b.secret)).status).toBe(200);
    expect((await chat(a.secret)).status).toBe(200);
    const denied = await chat(b.secret);
    expect(denied.status).toBe(429);
    expect(((await denied.json()) as ErrorBody).error.limit).toMatchObject({
      scope: 'tenant',
      kind: 'rpm',
      limit: 3,
    });
  });

  it("applies a key's own limit inside a roomier tenant limit, leaving the tenant's other keys alone", async () => {
    const tight = await limitedKey({ limits: { rpm: 2 }, tenantLimits: { rpm: 100 } });
    const other = await limitedKey({ tenantId: tight.tenantId });
    expect((await chat(tight.secret)).status).toBe(200);
    expect((await chat(tight.secret)).status).toBe(200);
    const denied = await chat(tight.secret);
    expect(denied.status).toBe(429);
    expect(((await denied.json()) as ErrorBody).error.limit).toMatchObject({
      scope: 'key',
      kind: 'rpm',
      limit: 2,
    });
    const res = await chat(other.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit-requests')).toBe('100');
    // Two of the tight key's and this one: a refused request reserves nothing, not even at the tenant.
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('97');
  });

  it('reports tokens per minute in headers and refuses a request whose worst case does not fit', async () => {
    const { secret } = await limitedKey({ limits: { tpm: 100 } });
    const ok = await chat(secret, { max_tokens: 20 });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    expect(Number(ok.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(100);
    expect(ok.headers.get('x-ratelimit-limit-requests')).toBeNull();
    const tooBig = await chat(secret, { max_tokens: 500 });
    expect(tooBig.status).toBe(429);
    expect(tooBig.headers.get('retry-after')).toBeNull();
    expect(((await tooBig.json()) as ErrorBody).error.limit).toMatchObject({ kind: 'tpm', limit: 100 });
  });

  it('refuses max_tokens above the key limit with a 400, before any reservation', async () => {
    const { secret } = await limitedKey({ limits: { max_tokens: 50 } });
    const res = await chat(secret, { max_tokens: 51 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'max_tokens_exceeded', param: 'max_tokens' } });
    expect((await chat(secret, { max_tokens: 50 })).status).toBe(200);
  });

  it('answers a concurrency limit with 429 while another request is in flight', async () => {
    const { secret, tenantId } = await limitedKey({ limits: { concurrent: 1 } });
    // Both are slow upstream, so whichever is admitted first is still in flight when the other asks.
    const [a, b] = await Promise.all([
      chat(secret, { mock: { latency_ms: 1000 } }),
      chat(secret, { mock: { latency_ms: 1000 } }),
    ]);
    const denied = a.status === 429 ? a : b;
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    expect(((await denied.json()) as ErrorBody).error.limit).toMatchObject({
      kind: 'concurrent',
      limit: 1,
      used: 1,
    });
    await settledDump(tenantId);
    expect((await chat(secret)).status).toBe(200);
  });

  it('puts the rate-limit headers on errors after auth too', async () => {
    const { secret } = await limitedKey({ limits: { rpm: 10 } });
    await (await chat(secret)).arrayBuffer();
    const badBody = await post('/v1/chat/completions', '{"model": 1}', secret);
    expect(badBody.status).toBe(400);
    expect(badBody.headers.get('x-ratelimit-limit-requests')).toBe('10');
    expect(badBody.headers.get('x-ratelimit-remaining-requests')).toBe('9');
    const providerError = await chat(secret, { mock: { status: 503 } });
    expect(providerError.status).toBe(503);
    expect(providerError.headers.get('x-ratelimit-remaining-requests')).toBe('8');
  });

  it('answers a 429 on /v1/messages in the Anthropic error shape, naming the limit', async () => {
    const { secret } = await limitedKey({ limits: { rpm: 1 } });
    const body = { model: 'mock/echo', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] };
    expect((await post('/v1/messages', body, secret)).status).toBe(200);
    const denied = await post('/v1/messages', body, secret);
    expect(denied.status).toBe(429);
    expect(await denied.json()).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', limit: { kind: 'rpm', scope: 'key' } },
    });
  });

  it('never creates a Limiter object for a key and tenant without limits or budgets', async () => {
    const free = await limitedKey({ limits: { max_tokens: 1000 } });
    for (let i = 0; i < 3; i++) expect((await chat(free.secret)).status).toBe(200);
    const target = env.LIMITER.idFromName(free.tenantId);
    const ids = await listDurableObjectIds(env.LIMITER);
    expect(ids.some((id) => id.equals(target))).toBe(false);
  });
});
