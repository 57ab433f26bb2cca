/**
 * A configuration mistake stops /v1 with a 503 that names the variable (never
 * a 500, never a silent default), while /healthz stays up and lists the
 * problem and the admin API keeps working.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { Bindings } from '../../../src/env';
import { ADMIN_TOKEN } from '../admin-helpers';
import { chatBody, seedKey } from '../helpers';

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

async function call(
  overrides: Record<string, string | undefined>,
  path: string,
  init: RequestInit = {},
): Promise<Answer> {
  const ctx = createExecutionContext();
  const bindings = { ...env, ...overrides } as Bindings;
  const res = await createApp().fetch(new Request(`http://gw.test${path}`, init), bindings, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // asserted through text
  }
  return { status: res.status, text, json };
}

const chat = (secret: string): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
  body: JSON.stringify(chatBody('hi')),
});

/** [variable, bad value, what the message must say]. */
const BAD: [string, string, RegExp][] = [
  ['EDGEWAY_PROVIDERS', '[{id: acme}]', /EDGEWAY_PROVIDERS is not valid JSON/],
  [
    'EDGEWAY_PROVIDERS',
    '[{"id":"Acme","base_url":"https://x.test"}]',
    /EDGEWAY_PROVIDERS is invalid: row 0 \(id\)/,
  ],
  ['MAX_BODY_BYTES', 'abc', /MAX_BODY_BYTES is not a number/],
  ['MAX_BODY_BYTES', '-5', /MAX_BODY_BYTES must be greater than 0/],
  ['MAX_BODY_BYTES', '1.5', /MAX_BODY_BYTES must be a whole number/],
  ['UPSTREAM_TTFB_TIMEOUT_MS', '0', /UPSTREAM_TTFB_TIMEOUT_MS must be greater than 0/],
  ['UPSTREAM_IDLE_TIMEOUT_MS', 'soon', /UPSTREAM_IDLE_TIMEOUT_MS is not a number/],
  ['LIMITS_FAIL_MODE', 'sideways', /LIMITS_FAIL_MODE must be one of closed, open/],
  ['LIMITS_DEFAULT_MAX_TOKENS', '4k', /LIMITS_DEFAULT_MAX_TOKENS is not a number/],
  ['LIMITS_RESERVATION_TTL_S', '-1', /LIMITS_RESERVATION_TTL_S must be greater than 0/],
  ['LIMITS_TIMEOUT_MS', 'NaN', /LIMITS_TIMEOUT_MS is not a number/],
  ['LOG_RETENTION_DAYS', 'forever', /LOG_RETENTION_DAYS is not a number/],
  ['LOG_PAYLOAD_MAX_BYTES', '1e999', /LOG_PAYLOAD_MAX_BYTES is not a number/],
  ['LOG_BATCH_WAIT_MS', '60000', /LOG_BATCH_WAIT_MS must be at most 10000/],
  ['LOG_SINK', 'kafka', /LOG_SINK must be one of queue, console, off/],
  [
    'RESPONSES_RETENTION_DAYS',
    '-1',
    /RESPONSES_RETENTION_DAYS must be a whole number of days from 0 to 3650/,
  ],
  ['RESPONSES_RETENTION_DAYS', '3651', /RESPONSES_RETENTION_DAYS must be a whole number of days/],
  ['SEMANTIC_EMBEDDER', 'bogus', /SEMANTIC_EMBEDDER/],
  ['MOCK_LLM_URL', 'not a url', /MOCK_LLM_URL must be an http\(s\) URL/],
];

describe('a bad configuration value', () => {
  it.each(BAD)('%s=%s: /v1 answers 503 configuration_error naming it', async (variable, value, says) => {
    const { secret } = await seedKey();
    const res = await call({ [variable]: value }, '/v1/chat/completions', chat(secret));
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ error: { code: 'configuration_error', type: 'server_error' } });
    expect(res.text).toMatch(says);
  });

  it.each(BAD)(
    '%s=%s: /healthz stays up and answers 503 listing the problem',
    async (variable, value, says) => {
      const res = await call({ [variable]: value }, '/healthz');
      expect(res.status).toBe(503);
      const body = res.json as { ok: boolean; problems: { variable: string; message: string }[] };
      expect(body.ok).toBe(false);
      expect(body.problems).toEqual([{ variable, message: expect.stringMatching(says) }]);
    },
  );

  it('is refused in the Anthropic shape on /v1/messages, and on GET /v1/models', async () => {
    const { secret } = await seedKey();
    const messages = await call({ MAX_BODY_BYTES: 'x' }, '/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': secret, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mock/echo',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(messages.status).toBe(503);
    expect(messages.json).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(messages.text).toContain('MAX_BODY_BYTES');
    const models = await call({ MAX_BODY_BYTES: 'x' }, '/v1/models', {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(models.status).toBe(503);
  });

  it('never echoes the value, which may be a secret', async () => {
    const secretish = 'sk-live-0123456789abcdef';
    for (const value of [
      `[{"id":"acme","base_url":"${secretish}"}]`,
      `{"api_key": ${secretish}}`,
      `[{"id":"acme","base_url":"https://x.test","api_key_secret":"${secretish}"}]`,
    ]) {
      const health = await call({ EDGEWAY_PROVIDERS: value }, '/healthz');
      expect(health.status).toBe(503);
      expect(health.text).toContain('EDGEWAY_PROVIDERS');
      expect(health.text).not.toContain(secretish);
      expect(health.text).not.toContain('0123456789');
    }
    const v1 = await call({ MAX_BODY_BYTES: 'sk-live-0123456789abcdef' }, '/v1/models', {
      headers: { authorization: 'Bearer x' },
    });
    expect(v1.text).not.toContain('0123456789');
  });

  it('lists every problem at once', async () => {
    const res = await call(
      { MAX_BODY_BYTES: 'x', LIMITS_FAIL_MODE: 'maybe', LOG_SINK: 'nowhere' },
      '/healthz',
    );
    const body = res.json as { problems: { variable: string }[] };
    expect(body.problems.map((p) => p.variable).sort()).toEqual([
      'LIMITS_FAIL_MODE',
      'LOG_SINK',
      'MAX_BODY_BYTES',
    ]);
  });

  it('leaves the admin API up, so the operator can still work', async () => {
    const res = await call({ EDGEWAY_PROVIDERS: '[' }, '/admin/tenants', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('a sound configuration', () => {
  it('answers /healthz 200 {ok: true}, and accepts absent or blank optional values', async () => {
    const res = await call(
      { LIMITS_TIMEOUT_MS: undefined, LOG_SINK: '  ', LIMITS_FAIL_MODE: 'Open' },
      '/healthz',
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
  });

  it('accepts a valid EDGEWAY_PROVIDERS row', async () => {
    const rows = [{ id: 'acme', base_url: 'https://api.acme.test/v1', api_key_secret: 'PROVIDER_KEY_ACME' }];
    const res = await call({ EDGEWAY_PROVIDERS: JSON.stringify(rows) }, '/healthz');
    expect(res.status).toBe(200);
  });
});
