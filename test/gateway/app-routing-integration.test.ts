import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp, isGatewayPath } from '../../src/app';
import { getDeps } from '../../src/deps';
import { requestPath } from '../../src/pipeline/router';
import { ADMIN_TOKEN } from './admin-helpers';
import { seedKey } from './helpers';

describe('the two routers behind the app', () => {
  it('sends only /v1/ paths to the gateway router', () => {
    expect(isGatewayPath('http://gw.example/v1/chat/completions')).toBe(true);
    expect(isGatewayPath('https://gw.example:8787/v1/models?x=1')).toBe(true);
    expect(isGatewayPath('http://gw.example/v1')).toBe(false);
    expect(isGatewayPath('http://gw.example/v10/chat')).toBe(false);
    expect(isGatewayPath('http://gw.example/admin/v1/x')).toBe(false);
    expect(isGatewayPath('http://gw.example/')).toBe(false);
    expect(isGatewayPath('http://gw.example')).toBe(false);
  });

  const call = async (path: string, init?: RequestInit) => {
    const ctx = createExecutionContext();
    const res = await createApp().request(path, init, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it('answers an unknown path in either with the one 404, in the API shape of its path', async () => {
    const v1 = await call('/v1/nope', { method: 'POST' });
    expect(v1.status).toBe(404);
    expect(await v1.json()).toMatchObject({ error: { code: 'unknown_route', type: 'not_found_error' } });
    const other = await call('/nope');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'unknown_route' } });
  });

  it('keeps the method rules and the request id on the gateway router', async () => {
    const res = await call('/v1/chat/completions', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('x-edgeway-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('routes every Responses API path: creating by POST, reading and deleting by id', async () => {
    // Without a key each reaches its handler and is refused there (401), never as an unknown route.
    for (const [path, method] of [
      ['/v1/responses', 'POST'],
      ['/v1/responses/resp_x', 'GET'],
      ['/v1/responses/resp_x', 'DELETE'],
      ['/v1/responses/resp_x/input_items', 'GET'],
    ] as const) {
      const res = await call(path, { method });
      expect([path, method, res.status]).toEqual([path, method, 401]);
    }
    const res = await call('/v1/responses', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('still serves the admin API and the health check from the other router', async () => {
    expect((await call('/healthz')).status).toBe(200);
    const admin = await call('/admin/me', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({ role: 'owner' });
  });

  it('reads the path as routers do: no query, escapes decoded, a trailing slash kept', () => {
    expect(requestPath('http://gw.example/v1/models?x=1')).toBe('/v1/models');
    expect(requestPath('http://gw.example/v1/chat%2Dx')).toBe('/v1/chat-x');
    expect(requestPath('http://gw.example/v1/%E0%A4%A')).toBe('/v1/%E0%A4%A');
    expect(requestPath('http://gw.example/v1/models/')).toBe('/v1/models/');
    expect(requestPath('http://gw.example')).toBe('/');
  });

  it('serves a /v1 path with a query string, and 404s one with a trailing slash', async () => {
    const { secret } = await seedKey();
    const auth = { authorization: `Bearer ${secret}` };
    const res = await call('/v1/models?limit=5', { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { object: string }).object).toBe('list');
    const slash = await call('/v1/models/', { headers: auth });
    expect(slash.status).toBe(404);
    expect(await slash.json()).toMatchObject({ error: { code: 'unknown_route' } });
  });

  it('answers HEAD on /v1/models as its GET, without the body', async () => {
    const { secret } = await seedKey();
    const res = await call('/v1/models', { method: 'HEAD', headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.text()).toBe('');
    const anonymous = await call('/v1/models', { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
  });

  it("answers an error that is not the gateway's as a 500 in the path's shape, with nothing of it leaked", async () => {
    const { secret } = await seedKey();
    const failing = createApp({
      deps: (e) => ({
        ...getDeps(e),
        keys: {
          findByHash: () => Promise.reject(new Error('secret detail')),
          invalidate: () => Promise.resolve(),
        },
      }),
    });
    const ctx = createExecutionContext();
    const res = await failing.request(
      '/v1/messages',
      {
        method: 'POST',
        headers: { 'x-api-key': secret, 'content-type': 'application/json' },
        body: '{}',
      },
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret detail');
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(res.headers.get('x-edgeway-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers in the path's shape when the adapters cannot be built", async () => {
    const broken = createApp({
      deps: () => {
        throw new Error('no adapters');
      },
    });
    const ctx = createExecutionContext();
    const res = await broken.request('/v1/chat/completions', { method: 'POST', body: '{}' }, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { code: 'internal_error' } });
  });
});
