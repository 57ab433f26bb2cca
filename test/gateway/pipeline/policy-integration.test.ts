/** Policy runs before the route is resolved: a key learns nothing about providers it may not use. */
import { describe, expect, it } from 'vitest';
import { chatBody, post, seedKey } from '../helpers';

describe('policy before route', () => {
  it('refuses a model outside the allow-list with 403 model_not_allowed, even when its provider is not configured', async () => {
    const key = await seedKey({ models: ['mock/*'] });
    const res = await post(
      '/v1/chat/completions',
      chatBody('hi', { model: 'openai/gpt-4o-mini' }),
      key.secret,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'model_not_allowed', param: 'model' } });
  });

  it('refuses an unknown provider outside the allow-list the same way, without naming it as unknown', async () => {
    const key = await seedKey({ models: ['mock/echo'] });
    const res = await post('/v1/chat/completions', chatBody('hi', { model: 'nope/none' }), key.secret);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'model_not_allowed' } });
  });

  it('tells a key that may use the model that its provider is not configured', async () => {
    const key = await seedKey({ models: null });
    const res = await post(
      '/v1/chat/completions',
      chatBody('hi', { model: 'openai/gpt-4o-mini' }),
      key.secret,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'provider_not_configured', param: 'model' } });
  });
});
