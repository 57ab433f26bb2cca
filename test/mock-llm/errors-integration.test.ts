import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE, postAnthropic, postOpenAI, USER_HELLO } from './helpers';

interface OpenAIError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

interface AnthropicError {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

async function openaiError(res: Response, status: number): Promise<OpenAIError['error']> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as OpenAIError;
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return body.error;
}

async function anthropicError(res: Response, status: number): Promise<AnthropicError['error']> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as AnthropicError;
  expect(body.type).toBe('error');
  expect(body.request_id).toMatch(/^req_/);
  return body.error;
}

describe('authentication', () => {
  it('rejects chat and embeddings without a bearer key as 401 invalid_api_key', async () => {
    for (const path of ['/v1/chat/completions', '/v1/embeddings']) {
      const res = await SELF.fetch(`${BASE}${path}`, { method: 'POST', body: '{}' });
      expect(await openaiError(res, 401)).toMatchObject({
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      });
    }
    const empty = await postOpenAI(
      '/v1/chat/completions',
      { model: 'm', messages: USER_HELLO },
      { authorization: 'Bearer ' },
    );
    expect(empty.status).toBe(401);
  });

  it('rejects messages without x-api-key as 401 authentication_error, even with a bearer key', async () => {
    const res = await SELF.fetch(`${BASE}/v1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'claude-mock', max_tokens: 5, messages: USER_HELLO }),
    });
    expect(await anthropicError(res, 401)).toMatchObject({ type: 'authentication_error' });
  });
});

describe('OpenAI request validation', () => {
  const cases: [string, unknown, Partial<OpenAIError['error']>][] = [
    ['malformed JSON', '{"model":', { param: null, code: null }],
    ['a non-object body', '[1,2]', { param: null }],
    ['a missing model', { messages: USER_HELLO }, { message: 'you must provide a model parameter' }],
    ['missing messages', { model: 'm' }, { param: 'messages', code: 'missing_required_parameter' }],
    ['empty messages', { model: 'm', messages: [] }, { param: 'messages', code: 'empty_array' }],
    [
      'a bad role',
      { model: 'm', messages: [{ role: 'robot', content: 'x' }] },
      { param: 'messages[0].role', code: 'invalid_value' },
    ],
    [
      'max_tokens of 0',
      { model: 'm', messages: USER_HELLO, max_tokens: 0 },
      { param: 'max_tokens', code: 'integer_below_min_value' },
    ],
    [
      'stream_options without stream',
      { model: 'm', messages: USER_HELLO, stream_options: { include_usage: true } },
      { param: 'stream_options' },
    ],
    [
      'an unknown mock control',
      { model: 'm', messages: USER_HELLO, mock: { explode: true } },
      { param: 'mock.explode' },
    ],
    [
      'a mock control of the wrong type',
      { model: 'm', messages: USER_HELLO, mock: { pace_ms: 'fast' } },
      { param: 'mock.pace_ms' },
    ],
    [
      'a status out of range',
      { model: 'm', messages: USER_HELLO, mock: { status: 200 } },
      { param: 'mock.status' },
    ],
    [
      'fail_first without key',
      { model: 'm', messages: USER_HELLO, mock: { fail_first: 1 } },
      { param: 'mock.key' },
    ],
  ];
  for (const [name, body, expected] of cases) {
    it(`rejects ${name} on chat with 400 invalid_request_error`, async () => {
      const error = await openaiError(await postOpenAI('/v1/chat/completions', body), 400);
      expect(error).toMatchObject({ type: 'invalid_request_error', ...expected });
    });
  }

  it('names the control in the message', async () => {
    const error = await openaiError(
      await postOpenAI('/v1/chat/completions', { model: 'm', messages: USER_HELLO, mock: { explode: 1 } }),
      400,
    );
    expect(error.message).toContain('mock.explode');
  });

  const embeddingCases: [string, unknown, Partial<OpenAIError['error']>][] = [
    ['a missing model', { input: 'x' }, {}],
    ['a missing input', { model: 'm' }, { param: 'input' }],
    ['an empty string', { model: 'm', input: '' }, {}],
    ['an empty array', { model: 'm', input: [] }, {}],
    ['mixed input', { model: 'm', input: ['a', 1] }, {}],
    [
      'a bad encoding_format',
      { model: 'm', input: 'x', encoding_format: 'hex' },
      { param: 'encoding_format' },
    ],
    ['bad dimensions', { model: 'm', input: 'x', dimensions: 0 }, { param: 'dimensions' }],
    [
      'a bad mock control',
      { model: 'm', input: 'x', mock: { latency_ms: -1 } },
      { param: 'mock.latency_ms' },
    ],
  ];
  for (const [name, body, expected] of embeddingCases) {
    it(`rejects ${name} on embeddings with 400 invalid_request_error`, async () => {
      const error = await openaiError(await postOpenAI('/v1/embeddings', body), 400);
      expect(error).toMatchObject({ type: 'invalid_request_error', ...expected });
    });
  }
});

describe('Anthropic request validation', () => {
  const base = { model: 'claude-mock', max_tokens: 10, messages: USER_HELLO };
  const cases: [string, unknown, RegExp][] = [
    ['malformed JSON', '{', /JSON/],
    ['a missing model', { max_tokens: 10, messages: USER_HELLO }, /^model: Field required/],
    ['a missing max_tokens', { model: 'claude-mock', messages: USER_HELLO }, /^max_tokens: Field required/],
    ['a non-integer max_tokens', { ...base, max_tokens: 1.5 }, /^max_tokens:/],
    ['missing messages', { model: 'claude-mock', max_tokens: 10 }, /^messages: Field required/],
    ['empty messages', { ...base, messages: [] }, /^messages:/],
    [
      'a tool role in messages',
      { ...base, messages: [{ role: 'tool', content: 'x' }] },
      /^messages\.0\.role/,
    ],
    ['an unknown mock control', { ...base, mock: { nope: 1 } }, /mock\.nope/],
  ];
  for (const [name, body, message] of cases) {
    it(`rejects ${name} with 400 invalid_request_error`, async () => {
      const error = await anthropicError(await postAnthropic('/v1/messages', body), 400);
      expect(error.type).toBe('invalid_request_error');
      expect(error.message).toMatch(message);
    });
  }
});
