import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp, isGatewayPath } from '../../src/app';
import { ADMIN_TOKEN } from './admin-helpers';

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

  it('still serves the admin API and the health check from the other router', async () => {
    expect((await call('/healthz')).status).toBe(200);
    const admin = await call('/admin/me', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({ role: 'owner' });
  });
});
