import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../admin-helpers';
import { chatBody, post, readSse } from '../helpers';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

function preflight(path: string, origin: string): Promise<Response> {
  return SELF.fetch(`http://gw.test${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

async function browserKey(extra: Record<string, unknown> = {}): Promise<string> {
  const tenant = await createTenant(`cors-${crypto.randomUUID()}`);
  return (await createKey(tenant.id, { origins: [APP, 'http://localhost:5173'], ...extra })).key;
}

const messagesBody = { model: 'mock/echo', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };

describe('CORS preflight', () => {
  it('answers 204 before auth, with no key, echoing the origin', async () => {
    const res = await preflight('/v1/chat/completions', OTHER);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(OTHER);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    const allowed = res.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    for (const name of ['authorization', 'content-type', 'x-api-key', 'anthropic-version', 'cf-aig-metadata'])
      expect(allowed).toContain(name);
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('vary')).toBe('origin');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('x-edgeway-request-id')).toBeNull();
  });

  it('answers for /v1/messages too', async () => {
    expect((await preflight('/v1/messages', APP)).status).toBe(204);
  });

  it('leaves an OPTIONS that is not a preflight to the routes (405)', async () => {
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', { method: 'OPTIONS' });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on actual requests', () => {
  it('gives an allowed origin its headers on a JSON answer', async () => {
    const key = await browserKey();
    const res = await post('/v1/chat/completions', chatBody('hi'), key, { origin: APP });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    const exposed = res.headers.get('access-control-expose-headers')?.split(', ') ?? [];
    for (const name of ['x-edgeway-request-id', 'x-ratelimit-remaining-requests', 'retry-after'])
      expect(exposed).toContain(name);
    expect(res.headers.get('vary')).toContain('origin');
    await res.text();
  });

  it('gives an allowed origin its headers on a stream', async () => {
    const key = await browserKey();
    const res = await post('/v1/chat/completions', chatBody('hi', { stream: true }), key, {
      origin: 'http://localhost:5173',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await readSse(res)).at(-1)?.data).toBe('[DONE]');
  });

  it('gives an allowed origin its headers on a 429, so the page can read retry-after', async () => {
    const key = await browserKey({ limits: { rpm: 1 } });
    const first = await post('/v1/chat/completions', chatBody('hi'), key, { origin: APP });
    expect(first.status).toBe(200);
    await first.text();
    const denied = await post('/v1/chat/completions', chatBody('hi'), key, { origin: APP });
    expect(denied.status).toBe(429);
    expect(denied.headers.get('access-control-allow-origin')).toBe(APP);
    expect(denied.headers.get('access-control-expose-headers')).toContain('retry-after');
    await denied.text();
  });

  it('refuses an origin the key does not list with a 403 in the OpenAI shape and no CORS headers', async () => {
    const key = await browserKey();
    const res = await post('/v1/chat/completions', chatBody('hi'), key, { origin: OTHER });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: { type: 'permission_error', code: 'origin_not_allowed' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('refuses it in the Anthropic shape on /v1/messages', async () => {
    const key = await browserKey();
    const res = await post('/v1/messages', messagesBody, null, { 'x-api-key': key, origin: OTHER });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses every browser origin for a key with none (the default)', async () => {
    const tenant = await createTenant(`cors-${crypto.randomUUID()}`);
    const { key } = await createKey(tenant.id);
    const res = await post('/v1/chat/completions', chatBody('hi'), key, { origin: APP });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.text();
  });

  it('leaves requests without Origin alone, whatever the key lists', async () => {
    const tenant = await createTenant(`cors-${crypto.randomUUID()}`);
    for (const key of [await browserKey(), (await createKey(tenant.id)).key]) {
      const res = await post('/v1/chat/completions', chatBody('hi'), key);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      await res.text();
    }
  });

  it('applies a changed origin list from the next request', async () => {
    const tenant = await createTenant(`cors-${crypto.randomUUID()}`);
    const created = await createKey(tenant.id, { origins: [APP] });
    const before = await post('/v1/chat/completions', chatBody('hi'), created.key, { origin: OTHER });
    expect(before.status).toBe(403);
    await before.text();
    expect((await admin('PATCH', `/keys/${created.id}`, { origins: [OTHER] })).status).toBe(200);
    const after = await post('/v1/chat/completions', chatBody('hi'), created.key, { origin: OTHER });
    expect(after.status).toBe(200);
    expect(after.headers.get('access-control-allow-origin')).toBe(OTHER);
    await after.text();
  });
});
