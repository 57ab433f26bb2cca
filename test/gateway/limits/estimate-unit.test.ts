import { describe, expect, it } from 'vitest';
import { parseProxyRequest } from '../../../src/core/request';
import { MAX_OUTPUT_TOKENS } from '../../../src/core/request-schemas';
import { denialError } from '../../../src/limits/denial';
import {
  IMAGE_TOKENS,
  estimatePromptTokens,
  maxTokensLimit,
  outputReserve,
  settledUsage,
  textTokens,
} from '../../../src/limits/estimate';
import { formatDuration, project, quotaHeaders, retryAfterHeader } from '../../../src/limits/headers';
import { CLIENT_CODECS } from '../../../src/codecs/index';
import type { ClientFormat } from '../../../src/core/endpoints';
import type { GatewayError } from '../../../src/core/errors';

const errorBody = (err: GatewayError, format: ClientFormat) => CLIENT_CODECS[format].errorBody(err);

const chat = (body: Record<string, unknown>) =>
  parseProxyRequest('chat', {
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'Hello there, mock.' }],
    ...body,
  });

describe('prompt estimate', () => {
  it('matches the documented chat accounting for ASCII text (3 + Σ 4 + ⌈chars/4⌉)', () => {
    expect(estimatePromptTokens(chat({}))).toBe(12);
  });

  it('counts non-ASCII characters as a token each, not a quarter', () => {
    expect(textTokens('abcd')).toBe(1);
    expect(textTokens('日本語のテキスト')).toBe(8);
  });

  it('counts images as a fixed amount, never by their base64 length', () => {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(100_000)}` } };
    const req = chat({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] }],
    });
    expect(estimatePromptTokens(req)).toBe(3 + 4 + 4 + IMAGE_TOKENS);
  });

  it('counts files (chat file, Responses input_file, Anthropic document) as images, never by their base64 length', () => {
    const data = `data:application/pdf;base64,${'A'.repeat(100_000)}`;
    const text = { type: 'text', text: 'what is this?' };
    const file = chat({
      messages: [{ role: 'user', content: [text, { type: 'file', file: { file_data: data } }] }],
    });
    expect(estimatePromptTokens(file)).toBe(3 + 4 + 4 + IMAGE_TOKENS);
    const input = parseProxyRequest('responses', {
      model: 'mock/echo',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is this?' },
            { type: 'input_file', file_data: data },
          ],
        },
      ],
    });
    expect(estimatePromptTokens(input)).toBe(3 + 4 + 4 + IMAGE_TOKENS);
    const document = parseProxyRequest('messages', {
      model: 'mock/echo',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            text,
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x'.repeat(1000) } },
          ],
        },
      ],
    });
    expect(estimatePromptTokens(document)).toBe(3 + 4 + 4 + IMAGE_TOKENS);
  });

  it('counts Anthropic system prompts and embeddings inputs', () => {
    const messages = parseProxyRequest('messages', {
      model: 'anthropic/x',
      max_tokens: 5,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(estimatePromptTokens(messages)).toBe(3 + (4 + 3) + (4 + 1));
    const embeddings = parseProxyRequest('embeddings', {
      model: 'mock/text-embedding-3-small',
      input: ['abcd', 'abcdefgh'],
    });
    expect(estimatePromptTokens(embeddings)).toBe(3);
  });
});

describe('output reserve', () => {
  it("uses the request's cap times n, else the key's or tenant's max_tokens, else the default", () => {
    expect(outputReserve(chat({ max_tokens: 50, n: 3 }), 100, 4096)).toBe(150);
    expect(outputReserve(chat({}), 100, 4096)).toBe(100);
    expect(outputReserve(chat({}), null, 4096)).toBe(4096);
    expect(outputReserve(parseProxyRequest('embeddings', { model: 'm', input: 'x' }), null, 4096)).toBe(0);
  });

  it('reads only validated numbers: /v1/messages ignores n and max_completion_tokens; caps stay ≤ 1e7', () => {
    const messages = parseProxyRequest('messages', {
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 20,
      max_completion_tokens: -1_000_000,
      n: 1e308,
    });
    expect(messages).toMatchObject({ maxOutputTokens: 20, maxOutputTokensParam: 'max_tokens', choices: 1 });
    expect(outputReserve(messages, null, 4096)).toBe(20);
    expect(outputReserve(chat({ max_completion_tokens: 7, max_tokens: 9, n: 3 }), null, 4096)).toBe(21);
    expect(outputReserve(chat({}), 9_000_000_000_000, 4096)).toBe(MAX_OUTPUT_TOKENS);
    expect(() => chat({ n: 129 })).toThrow(/'n'/);
    expect(() => chat({ max_tokens: MAX_OUTPUT_TOKENS + 1 })).toThrow(/'max_tokens'/);
  });

  it('takes the smaller of the key and tenant max_tokens', () => {
    expect(maxTokensLimit({ max_tokens: 300 }, { max_tokens: 200 })).toEqual({ limit: 200, scope: 'tenant' });
    expect(maxTokensLimit({ max_tokens: 100 }, {})).toEqual({ limit: 100, scope: 'key' });
    expect(maxTokensLimit({}, {})).toBeNull();
  });
});

describe('settled usage', () => {
  const usage = {
    inputTokens: 20,
    outputTokens: 30,
    cachedTokens: 5,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
  };

  it('takes reported usage as is for JSON answers and completed streams; null releases', () => {
    expect(settledUsage(12, usage)).toEqual(usage);
    expect(settledUsage(12, usage, { completed: true, deliveredChars: 400 })).toEqual(usage);
    expect(settledUsage(12, null)).toBeNull();
  });

  it('charges a cut stream with no usage the prompt estimate plus delivered chars / 4', () => {
    expect(settledUsage(12, null, { completed: false, deliveredChars: 41 })).toEqual({
      inputTokens: 12,
      outputTokens: 11,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('never charges a cut stream less output than it delivered, even with partial usage', () => {
    const partial = {
      inputTokens: 20,
      outputTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 16,
      cacheWrite1hTokens: 16,
      reasoningTokens: 0,
    };
    // The cache writes the stream reported are kept: they are priced, and part of the input charged.
    expect(settledUsage(12, partial, { completed: false, deliveredChars: 80 })).toEqual({
      inputTokens: 20,
      outputTokens: 20,
      cachedTokens: 0,
      cacheWriteTokens: 16,
      cacheWrite1hTokens: 16,
      reasoningTokens: 0,
    });
  });
});

describe('headers and denials', () => {
  it('formats resets as OpenAI does', () => {
    expect([
      formatDuration(0),
      formatDuration(20),
      formatDuration(1000),
      formatDuration(59_001),
      formatDuration(360_000),
      formatDuration(3_723_000),
    ]).toEqual(['0s', '20ms', '1s', '1m0s', '6m0s', '1h2m3s']);
  });

  it('emits only the windows that are configured', () => {
    expect(quotaHeaders({ requests: { limit: 10, remaining: 9, resetMs: 6000 }, tokens: null })).toEqual({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '9',
      'x-ratelimit-reset-requests': '6s',
    });
    expect(retryAfterHeader(null)).toEqual({});
    expect(retryAfterHeader(1)).toEqual({ 'retry-after': '1' });
  });

  it('refills a remembered window once its reset has passed', () => {
    const snapshot = {
      quota: { requests: { limit: 10, remaining: 0, resetMs: 5000 }, tokens: null },
      at: 1000,
    };
    expect(project(snapshot, 3000).requests).toEqual({ limit: 10, remaining: 0, resetMs: 3000 });
    expect(project(snapshot, 6000).requests).toEqual({ limit: 10, remaining: 10, resetMs: 0 });
  });

  it('tells budget exhaustion from rate limiting by code and type', () => {
    const rate = denialError(
      { scope: 'key', kind: 'rpm', limit: 5, used: 5, retryAfterMs: 1500 },
      { requests: null, tokens: null },
    );
    expect(rate.status).toBe(429);
    expect(rate.headers['retry-after']).toBe('2');
    expect(errorBody(rate, 'openai')).toMatchObject({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        param: null,
        limit: { scope: 'key', kind: 'rpm', limit: 5, used: 5 },
      },
    });
    const budget = denialError(
      { scope: 'tenant', kind: 'usd_total', limit: 2, used: 1.9999999, retryAfterMs: null },
      { requests: null, tokens: null },
    );
    expect(budget.headers['retry-after']).toBeUndefined();
    expect(errorBody(budget, 'openai')).toMatchObject({
      error: {
        type: 'insufficient_quota',
        code: 'budget_exceeded',
        limit: { scope: 'tenant', kind: 'usd_total', limit: 2, used: 2 },
      },
    });
    expect(errorBody(budget, 'anthropic')).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', limit: { kind: 'usd_total' } },
    });
  });
});
