import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE, parseSse, tryJson, USER_HELLO } from './helpers';

const CHAT = '/openai/deployments/gpt-4o-prod/chat/completions';

function azure(path: string, body: unknown, headers: Record<string, string> = { 'api-key': 'azure-key' }) {
  return SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('Azure OpenAI deployment routes', () => {
  it('answers a chat completion in OpenAI format, named after the deployment, with apim-request-id', async () => {
    const res = await azure(`${CHAT}?api-version=2024-10-21`, { messages: USER_HELLO });
    expect(res.status).toBe(200);
    expect(res.headers.get('apim-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as {
      object: string;
      model: string;
      choices: { message: { content: string } }[];
    };
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('gpt-4o-prod');
    expect(body.choices[0]?.message.content).toEqual(expect.any(String));
  });

  it('ignores the body model: the deployment decides', async () => {
    const res = await azure(`${CHAT}?api-version=2024-10-21`, { model: 'gpt-3.5', messages: USER_HELLO });
    expect(((await res.json()) as { model: string }).model).toBe('gpt-4o-prod');
  });

  it('streams chat.completion.chunk events ending in [DONE], usage included when asked', async () => {
    const res = await azure(`${CHAT}?api-version=2025-01-01-preview`, {
      messages: USER_HELLO,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.at(-1)?.data).toBe('[DONE]');
    const usage = tryJson(events.at(-2)?.data ?? '') as { usage?: { prompt_tokens: number } };
    expect(usage.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('answers embeddings at the deployment', async () => {
    const res = await azure('/openai/deployments/text-embedding-small/embeddings?api-version=2024-10-21', {
      input: ['a', 'b'],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: string; data: { embedding: number[] }[] };
    expect(body.model).toBe('text-embedding-small');
    expect(body.data).toHaveLength(2);
  });

  it('without api-version answers 404 Resource not found, as Azure does', async () => {
    const res = await azure(CHAT, { messages: USER_HELLO });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  it('refuses an api-version that is not one with 400 in Azure shape', async () => {
    const res = await azure(`${CHAT}?api-version=latest`, { messages: USER_HELLO });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'BadRequest', message: 'API version not supported' } });
  });

  it('without api-key answers 401 in Azure shape; a Bearer token is not an api-key', async () => {
    for (const headers of [{}, { authorization: 'Bearer azure-key' }] as Record<string, string>[]) {
      const res = await azure(`${CHAT}?api-version=2024-10-21`, { messages: USER_HELLO }, headers);
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('401');
      expect(body.error.message).toMatch(/^Access denied due to invalid subscription key/);
    }
  });

  it('passes body errors through in OpenAI shape, as Azure relays them', async () => {
    const res = await azure(`${CHAT}?api-version=2024-10-21`, { messages: [] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('keeps the mock faults working (mock.status)', async () => {
    const res = await azure(`${CHAT}?api-version=2024-10-21`, {
      messages: USER_HELLO,
      mock: { status: 429 },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('answers an unknown path under /openai/deployments/ with 404', async () => {
    const res = await azure('/openai/deployments/x/completions?api-version=2024-10-21', { prompt: 'x' });
    expect(res.status).toBe(404);
  });
});
