import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE } from './helpers';

async function errorBody(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as Record<string, unknown>;
}

describe('routing', () => {
  it('answers unknown paths with 404 in the OpenAI envelope', async () => {
    const body = await errorBody(await SELF.fetch(`${BASE}/v1/completions`, { method: 'POST' }), 404);
    expect(body).toEqual({
      error: {
        type: 'invalid_request_error',
        message: 'Invalid URL (POST /v1/completions)',
        param: null,
        code: null,
      },
    });
  });

  it("answers unknown /v1/messages paths with 404 in Anthropic's envelope", async () => {
    const body = await errorBody(await SELF.fetch(`${BASE}/v1/messages/batches`), 404);
    expect(body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('answers a wrong method on a known path with 405 and allow', async () => {
    const chat = await SELF.fetch(`${BASE}/v1/chat/completions`);
    expect(chat.headers.get('allow')).toBe('POST');
    expect(await errorBody(chat, 405)).toMatchObject({ error: { type: 'invalid_request_error' } });
    const models = await SELF.fetch(`${BASE}/v1/models`, { method: 'POST' });
    expect(models.headers.get('allow')).toBe('GET');
    expect(await errorBody(models, 405)).toHaveProperty('error.type', 'invalid_request_error');
    expect(await errorBody(await SELF.fetch(`${BASE}/v1/messages`, { method: 'GET' }), 405)).toMatchObject({
      type: 'error',
    });
  });
});

describe('GET /v1/models', () => {
  it('lists the mock models with either credential style', async () => {
    const credentials: Record<string, string>[] = [{ authorization: 'Bearer k' }, { 'x-api-key': 'k' }];
    for (const headers of credentials) {
      const res = await SELF.fetch(`${BASE}/v1/models`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        object: string;
        data: { id: string; object: string; created: number; owned_by: string }[];
      };
      expect(body.object).toBe('list');
      expect(body.data.map((m) => m.id)).toEqual([
        'echo',
        'mock-small',
        'mock-large',
        'text-embedding-3-small',
        'claude-mock',
      ]);
      for (const model of body.data)
        expect(model).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: 'mock' });
    }
  });

  it('requires a credential', async () => {
    expect((await SELF.fetch(`${BASE}/v1/models`)).status).toBe(401);
  });
});
