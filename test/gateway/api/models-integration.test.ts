/**
 * GET /v1/models and /v1/models/{id} through the worker: OpenAI's shapes by default, Anthropic's (with its
 * pagination and error envelope) when the request carries `anthropic-version`; the key as a bearer token
 * or `x-api-key`; named routes listed by name; a model the key may not use is a 404 like an unknown one.
 */
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedKey } from '../helpers';

const TENANT = 'ten_models_api';
const ANTHROPIC = { 'anthropic-version': '2023-06-01' };
let key: string;
let narrow: string;

function get(path: string, headers: Record<string, string>): Promise<Response> {
  return SELF.fetch(`http://gw.test${path}`, { headers });
}
const bearer = (secret: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${secret}`,
  ...extra,
});

beforeAll(async () => {
  key = (await seedKey({ tenantId: TENANT })).secret;
  narrow = (await seedKey({ tenantId: TENANT, models: ['mock/echo'] })).secret;
  const now = Date.UTC(2026, 0, 2, 3, 4, 5);
  const spec = JSON.stringify({ strategy: 'fallback', targets: [{ model: 'mock/echo' }] });
  await env.DB.prepare(
    'INSERT INTO routes (id, tenant_id, name, spec, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
    .bind('rte_models_api_fast', TENANT, 'models-api-fast', spec, now, now)
    .run();
});

describe('GET /v1/models in OpenAI shape', () => {
  it('lists provider models and the tenant routes, each as the id a client sends', async () => {
    const res = await get('/v1/models', bearer(key));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe('list');
    const ids = body.data.map((m) => m.id);
    expect(ids).toContain('mock/echo');
    expect(ids).toContain('models-api-fast');
    expect(ids).toEqual([...ids].sort());
    expect(body.data.find((m) => m.id === 'mock/echo')).toEqual({
      id: 'mock/echo',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'mock',
    });
    expect(body.data.find((m) => m.id === 'models-api-fast')).toMatchObject({
      owned_by: 'edgeway',
      created: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
    });
  });

  it('keeps to the allow-list: neither other providers nor routes it does not name', async () => {
    const body = (await (await get('/v1/models', bearer(narrow))).json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(['mock/echo']);
  });

  it('takes the key as x-api-key too', async () => {
    const res = await get('/v1/models', { 'x-api-key': key });
    expect(res.status).toBe(200);
  });

  it('refuses a missing key with a 401 in OpenAI shape', async () => {
    const res = await get('/v1/models', {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'missing_api_key' } });
  });
});

describe('GET /v1/models/{id} in OpenAI shape', () => {
  it('retrieves a model whose id holds a slash, plain or percent-encoded', async () => {
    for (const path of ['/v1/models/mock/echo', '/v1/models/mock%2Fecho']) {
      const res = await get(path, bearer(key));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        id: 'mock/echo',
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'mock',
      });
    }
  });

  it('retrieves a named route by its name', async () => {
    const res = await get('/v1/models/models-api-fast', bearer(key));
    expect(await res.json()).toMatchObject({ id: 'models-api-fast', object: 'model', owned_by: 'edgeway' });
  });

  it('answers 404 model_not_found for an unknown model and, alike, for one the key may not use', async () => {
    const unknown = await get('/v1/models/mock/nope', bearer(narrow));
    const hidden = await get('/v1/models/models-api-fast', bearer(narrow));
    for (const [res, id] of [
      [unknown, 'mock/nope'],
      [hidden, 'models-api-fast'],
    ] as const) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: {
          message: `The model '${id}' does not exist or you do not have access to it.`,
          type: 'invalid_request_error',
          param: 'model',
          code: 'model_not_found',
        },
      });
    }
  });
  it('does not echo an id longer than any model id a request may name', async () => {
    const res = await get(`/v1/models/mock/${'x'.repeat(300)}`, bearer(key));
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { message: string; code: string } };
    expect(body.error).toMatchObject({ code: 'model_not_found' });
    expect(body.error.message).not.toContain('xxxx');
  });
});

describe('/v1/models in Anthropic shape (anthropic-version sent)', () => {
  it('lists a page of typed models with RFC 3339 dates and the page bounds', async () => {
    const res = await get('/v1/models?limit=2', { 'x-api-key': key, ...ANTHROPIC });
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      data: Record<string, unknown>[];
      has_more: boolean;
      first_id: string;
      last_id: string;
    };
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    expect(page.data[0]).toEqual({
      type: 'model',
      id: page.first_id,
      display_name: page.first_id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const next = (await (
      await get(`/v1/models?limit=2&after_id=${encodeURIComponent(page.last_id)}`, {
        'x-api-key': key,
        ...ANTHROPIC,
      })
    ).json()) as { data: { id: string }[] };
    expect(next.data[0]!.id > page.last_id).toBe(true);
  });

  it('retrieves one model as {type, id, display_name, created_at}', async () => {
    const res = await get('/v1/models/models-api-fast', { 'x-api-key': key, ...ANTHROPIC });
    expect(await res.json()).toEqual({
      type: 'model',
      id: 'models-api-fast',
      display_name: 'models-api-fast',
      created_at: '2026-01-02T03:04:05Z',
    });
  });

  it("answers errors in Anthropic's envelope: 404, 400 for a bad limit, 401 without a key", async () => {
    const missing = await get('/v1/models/mock/nope', { 'x-api-key': key, ...ANTHROPIC });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const limit = await get('/v1/models?limit=0', { 'x-api-key': key, ...ANTHROPIC });
    expect(limit.status).toBe(400);
    expect(await limit.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const anonymous = await get('/v1/models', ANTHROPIC);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
