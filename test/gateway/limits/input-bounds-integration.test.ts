import { describe, expect, it } from 'vitest';
import { chatBody, post } from '../helpers';
import { limitedKey, settledDump } from '../limits-helpers';

/** A raw JSON body, so numbers JSON cannot round-trip (1e309, -1e309) reach the gateway as written. */
const raw = (fields: string, model = 'mock/echo') =>
  `{"model":"${model}","messages":[{"role":"user","content":"bound me"}],${fields}}`;

const messages = (secret: string, fields: string) =>
  post('/v1/messages', raw(`"max_tokens":10,${fields}`), secret, { 'anthropic-version': '2023-06-01' });

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code?: string; param?: string | null; type: string } }).error;
}

describe('numbers the limiter reads are bounded on every endpoint', () => {
  it('does not let max_completion_tokens on /v1/messages make a reservation negative or lock the key', async () => {
    const { secret, tenantId, keyId } = await limitedKey({ budgets: { tokens: { day: 1000 } } });
    // A slow request with the bogus cap is in flight while a good one reserves and settles.
    const slow = messages(secret, '"max_completion_tokens":-1000000,"mock":{"latency_ms":400}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quick = await post('/v1/chat/completions', chatBody('in between', { max_tokens: 10 }), secret);
    expect(quick.status).toBe(200);
    await quick.arrayBuffer();
    const res = await slow;
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const { state } = await settledDump(tenantId, keyId);
    expect(state.ledger.day.tokensHeld).toBe(0);
    expect(state.ledger.day.tokensSpent).toBeGreaterThan(0);
    expect(state.ledger.day.tokensSpent).toBeLessThan(100);
    expect((await messages(secret, '"temperature":0')).status).toBe(200);
  });

  it('does not lock a key when /v1/messages carries n or a cap of ±1e309', async () => {
    const { secret, tenantId, keyId } = await limitedKey({ limits: { concurrent: 2 } });
    for (const fields of ['"n":1e309', '"n":1e309', '"max_completion_tokens":-1e309', '"n":-5']) {
      const res = await messages(secret, fields);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const { state } = await settledDump(tenantId, keyId);
    for (const row of Object.values(state.ledger)) {
      expect(Number.isFinite(row.tokensHeld) && Number.isFinite(row.tokensSpent)).toBe(true);
      expect(row.tokensHeld).toBe(0);
    }
    const after = await messages(secret, '"temperature":0');
    expect(after.status).toBe(200);
  });

  it('refuses out-of-range token caps and choice counts on /v1/chat/completions with a 400 naming the field', async () => {
    const { secret } = await limitedKey({ budgets: { tokens: { day: 1000 } } });
    const cases: [string, string][] = [
      ['"max_tokens":1e309', 'max_tokens'],
      ['"max_tokens":-1e309', 'max_tokens'],
      ['"max_completion_tokens":-1000000', 'max_completion_tokens'],
      ['"max_completion_tokens":20000000', 'max_completion_tokens'],
      ['"max_tokens":1.5', 'max_tokens'],
      ['"max_tokens":"NaN"', 'max_tokens'],
      ['"n":1e309', 'n'],
      ['"n":0', 'n'],
      ['"n":129', 'n'],
      ['"n":2.5', 'n'],
    ];
    for (const [fields, param] of cases) {
      const res = await post('/v1/chat/completions', raw(fields), secret);
      expect(res.status, fields).toBe(400);
      expect((await errorOf(res)).param, fields).toBe(param);
    }
    expect((await post('/v1/chat/completions', chatBody('ok', { n: 2, max_tokens: 5 }), secret)).status).toBe(
      200,
    );
  });

  it('refuses out-of-range max_tokens on /v1/messages in the Anthropic shape', async () => {
    const { secret } = await limitedKey({ budgets: { tokens: { day: 1000 } } });
    for (const value of ['1e309', '-1e309', '0', '20000000', '2.5']) {
      const res = await post('/v1/messages', raw(`"max_tokens":${value}`), secret);
      expect(res.status, value).toBe(400);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain('max_tokens');
    }
  });

  it('refuses out-of-range embedding dimensions', async () => {
    const { secret } = await limitedKey({ budgets: { tokens: { day: 1000 } } });
    for (const value of ['1e309', '-1', '0', '1.5', '1000000000']) {
      const res = await post(
        '/v1/embeddings',
        `{"model":"mock/text-embedding-3-small","input":"x","dimensions":${value}}`,
        secret,
      );
      expect(res.status, value).toBe(400);
      expect((await errorOf(res)).param, value).toBe('dimensions');
    }
  });
});
