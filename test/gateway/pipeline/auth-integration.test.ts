import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chatBody, post, seedKey } from '../helpers';

describe('authentication on /v1', () => {
  it('refuses a request without a key', async () => {
    const res = await post('/v1/chat/completions', chatBody('hi'), null);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: 'missing_api_key', type: 'invalid_request_error' },
    });
  });

  it('refuses an unknown key, twice (the negative cache answers the same)', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post('/v1/chat/completions', chatBody('hi'), 'ew_not-a-real-key');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
  });

  it('refuses revoked and expired keys with their own codes', async () => {
    const revoked = await seedKey({ status: 'revoked' });
    const expired = await seedKey({ expiresAt: Date.now() - 1000 });
    expect(await (await post('/v1/chat/completions', chatBody('hi'), revoked.secret)).json()).toMatchObject({
      error: { code: 'key_revoked' },
    });
    expect(await (await post('/v1/chat/completions', chatBody('hi'), expired.secret)).json()).toMatchObject({
      error: { code: 'key_expired' },
    });
  });

  it('accepts x-api-key only on the Anthropic route', async () => {
    const { secret } = await seedKey();
    const openai = await post('/v1/chat/completions', chatBody('hi'), null, { 'x-api-key': secret });
    expect(openai.status).toBe(401);
    const anthropic = await post(
      '/v1/messages',
      { model: 'mock/echo', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
      null,
      { 'x-api-key': secret },
    );
    expect(anthropic.status).toBe(200);
  });

  it('uses the Anthropic error shape on /v1/messages', async () => {
    const res = await post('/v1/messages', { model: 'mock/echo' }, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('serves /healthz without a key', async () => {
    const res = await SELF.fetch('http://gw.test/healthz');
    expect(await res.json()).toEqual({ ok: true });
  });
});
