import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatBody, post, seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey()).secret;
});

async function expectOpenAiError(res: Response, status: number, code: string | null, param?: string | null) {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-edgeway-error-source')).toBe('gateway');
  expect(res.headers.get('x-edgeway-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  const body = (await res.json()) as {
    error: { message: string; type: string; param: string | null; code: string | null };
  };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.error.code).toBe(code);
  if (param !== undefined) expect(body.error.param).toBe(param);
  return body.error;
}

describe('bad input gets a 4xx in the OpenAI envelope, never a 500', () => {
  it('rejects malformed JSON with 400 invalid_json', async () => {
    await expectOpenAiError(await post('/v1/chat/completions', '{"model": ', key), 400, 'invalid_json');
  });

  it('never quotes the malformed body back (it may hold a prompt or a secret)', async () => {
    const body = '[{"role":"user","content":"my key is sk-live-0123456789abcdef"},]';
    const err = await expectOpenAiError(await post('/v1/chat/completions', body, key), 400, 'invalid_json');
    expect(err.message).not.toContain('sk-live');
    expect(err.message).toMatch(/^Request body is not valid JSON: Unexpected token/);
  });

  it('rejects a JSON body that is not an object', async () => {
    await expectOpenAiError(await post('/v1/chat/completions', '[1,2]', key), 400, 'invalid_type');
  });

  it('names a missing required field', async () => {
    const err = await expectOpenAiError(
      await post('/v1/chat/completions', { model: 'mock/echo' }, key),
      400,
      'missing_required_parameter',
      'messages',
    );
    expect(err.message).toContain('messages');
  });

  it('names a field of the wrong type', async () => {
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { max_tokens: 'ten' }), key),
      400,
      'invalid_value',
      'max_tokens',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { stream: 'yes' }), key),
      400,
      'invalid_value',
      'stream',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', { model: 'mock/echo', messages: [] }, key),
      400,
      'invalid_value',
      'messages',
    );
  });

  it('rejects bad UTF-8', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"model":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: bytes,
    });
    await expectOpenAiError(res, 400, 'invalid_encoding');
  });

  it('rejects an oversized body with 413, with or without content-length', async () => {
    const big = chatBody('x'.repeat(1_100_000));
    await expectOpenAiError(await post('/v1/chat/completions', big, key), 413, 'request_too_large');
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        c.close();
      },
    });
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: stream,
    });
    await expectOpenAiError(res, 413, 'request_too_large');
  });

  it('rejects a wrong content type with 415', async () => {
    await expectOpenAiError(
      await post('/v1/chat/completions', JSON.stringify(chatBody('hi')), key, {
        'content-type': 'text/plain',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('rejects a wrong method with 405 and an Allow header', async () => {
    const res = await SELF.fetch('http://gw.test/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.headers.get('allow')).toBe('POST');
    await expectOpenAiError(res, 405, 'method_not_allowed');
  });

  it('answers 404 for an unknown provider, an unconfigured one and a model without a provider', async () => {
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { model: 'nope/gpt' }), key),
      404,
      'model_not_found',
      'model',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { model: 'openai/gpt-4o' }), key),
      404,
      'provider_not_configured',
      'model',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { model: 'gpt-4o' }), key),
      404,
      'model_not_found',
      'model',
    );
  });

  it('refuses a model id over 256 characters or with a control or non-ASCII character, in each envelope', async () => {
    const long = `mock/${'m'.repeat(300_000)}`;
    for (const model of [
      `mock/${'m'.repeat(252)}`,
      long,
      'mock/ec\u0000ho',
      'mock/echo\r\nx-evil: 1',
      'mock/échо',
    ]) {
      const error = await expectOpenAiError(
        await post('/v1/chat/completions', chatBody('hi', { model }), key),
        400,
        'invalid_value',
        'model',
      );
      expect(error.message.length).toBeLessThan(200);
      const embeddings = await post('/v1/embeddings', { model, input: 'a' }, key);
      expect(embeddings.status).toBe(400);
      expect(((await embeddings.json()) as { error: { param: string } }).error.param).toBe('model');
      const message = await post('/v1/messages', { ...chatBody('hi', { model }), max_tokens: 8 }, key);
      expect(message.status).toBe(400);
      expect(message.headers.get('x-edgeway-target')).toBeNull();
      const body = (await message.json()) as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(body.error.message).toContain('model');
      expect(body.error.message.length).toBeLessThan(200);
    }
    // 256 characters is the documented bound, and allowed: this id then just names no provider.
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi', { model: `nope/${'m'.repeat(251)}` }), key),
      404,
      'model_not_found',
      'model',
    );
  });

  it('rejects stream on embeddings and bad control headers', async () => {
    await expectOpenAiError(
      await post('/v1/embeddings', { model: 'mock/text-embedding-3-small', input: 'a', stream: true }, key),
      400,
      'invalid_value',
      'stream',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi'), key, { 'cf-aig-request-timeout': '-1' }),
      400,
      'invalid_header',
    );
    await expectOpenAiError(
      await post('/v1/chat/completions', chatBody('hi'), key, { 'cf-aig-metadata': '{"a":[1]}' }),
      400,
      'invalid_header',
    );
  });

  it('answers unknown routes with a 404 in the right shape', async () => {
    await expectOpenAiError(await SELF.fetch('http://gw.test/v1/nothing'), 404, 'unknown_route');
    const res = await SELF.fetch('http://gw.test/v1/messages/batches', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});
