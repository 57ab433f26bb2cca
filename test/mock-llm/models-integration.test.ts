import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { isServedModel } from '../../workers/mock-llm/src/models';
import { BASE, postAnthropic, postOpenAI, USER_HELLO } from './helpers';

describe('served models', () => {
  it('serves the listed ids and the known families, controls after ";" aside', () => {
    for (const id of [
      'echo',
      'echo-1',
      'mock-a',
      'claude-mock',
      'claude-sonnet-5',
      'gpt-4o',
      'o3',
      'gemini-2.5-pro',
      'text-embedding-3-large',
      'anthropic.claude-3',
      'us.anthropic.claude-3',
      'amazon.nova-pro',
      'meta.llama3',
      '@cf/meta/llama',
      'deepseek-reasoner',
      'qwen-think',
      'echo;tool_call=true',
    ])
      expect(isServedModel(id), id).toBe(true);
    for (const id of ['a', 'other', 'mockery', 'llama-3', 'omni', 'x;echo'])
      expect(isServedModel(id), id).toBe(false);
  });

  it("answers an unknown model with each provider's not-found error", async () => {
    const openai = await postOpenAI('/v1/chat/completions', { model: 'nope', messages: USER_HELLO });
    expect(openai.status).toBe(404);
    expect(((await openai.json()) as { error: unknown }).error).toMatchObject({
      code: 'model_not_found',
      type: 'invalid_request_error',
      message: 'The model `nope` does not exist or you do not have access to it.',
    });
    const embeddings = await postOpenAI('/v1/embeddings', { model: 'nope', input: 'x' });
    expect(embeddings.status).toBe(404);

    const anthropic = await postAnthropic('/v1/messages', {
      model: 'nope',
      max_tokens: 8,
      messages: USER_HELLO,
    });
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: 'model: nope' },
    });

    const gemini = await SELF.fetch(`${BASE}/v1beta/models/nope:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(404);
    expect(((await gemini.json()) as { error: { status: string; message: string } }).error).toMatchObject({
      status: 'NOT_FOUND',
      message: expect.stringMatching(/^models\/nope is not found for API version v1beta/),
    });

    const azure = await SELF.fetch(
      `${BASE}/openai/deployments/nope/chat/completions?api-version=2024-10-21`,
      {
        method: 'POST',
        headers: { 'api-key': 'k', 'content-type': 'application/json' },
        body: JSON.stringify({ messages: USER_HELLO }),
      },
    );
    expect(azure.status).toBe(404);
    expect(((await azure.json()) as { error: { code: string } }).error.code).toBe('DeploymentNotFound');
  });
});
