/**
 * Requests through the real gateway, its log queue and the consumer: every
 * request, whatever its outcome, becomes exactly one row with the right
 * tokens and cost, findable by its x-edgeway-request-id.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, admin } from '../admin-helpers';
import { chatBody, post, readSse, seedKey } from '../helpers';
import type { LogDetail } from '../../../src/logs/read/logs';
import { archiveText, echoCost, waitForLogs } from '../log-fixtures';

let key: { id: string; secret: string; tenantId: string };
beforeAll(async () => {
  key = await seedKey({ tenantId: 'ten_logs' });
});

const idOf = (res: Response) => res.headers.get('x-edgeway-request-id')!;
type Usage = { prompt_tokens: number; completion_tokens: number };

describe('request logging through the queue', () => {
  it('logs a JSON completion with its usage and cost, and the admin API finds it by request id', async () => {
    const res = await post('/v1/chat/completions', chatBody('log me please'), key.secret, {
      'cf-aig-metadata': '{"user":"u-1","run":7}',
    });
    const { usage } = (await res.json()) as { usage: Usage };
    const [row] = await waitForLogs([idOf(res)]);
    expect(row).toMatchObject({
      tenant_id: 'ten_logs',
      key_id: key.id,
      endpoint: '/v1/chat/completions',
      provider: 'mock',
      model: 'mock/echo',
      status: 200,
      error_code: null,
      stream: 0,
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
      attempts: 1,
      request_payload: null,
      response_payload: null,
    });
    expect(row!.cost_usd).toBeCloseTo(echoCost(usage.prompt_tokens, usage.completion_tokens), 12);
    expect(JSON.parse(row!.metadata!)).toEqual({ user: 'u-1', run: 7 });

    const found = await admin('GET', `/logs/${idOf(res)}`);
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      id: idOf(res),
      tenant_id: 'ten_logs',
      status: 200,
      stream: false,
      input_tokens: usage.prompt_tokens,
      metadata: { user: 'u-1', run: 7 },
    });
  });

  it('logs a stream when it ends, with the usage from its usage chunk', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('one two three four', { stream: true, stream_options: { include_usage: true } }),
      key.secret,
    );
    const events = await readSse(res);
    const usage = events
      .filter((e) => e.data.startsWith('{'))
      .map((e) => JSON.parse(e.data) as { usage?: Usage | null })
      .find((c) => c.usage)!.usage!;
    const [row] = await waitForLogs([idOf(res)]);
    expect(row).toMatchObject({
      stream: 1,
      stream_completed: 1,
      status: 200,
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
    });
    expect(row!.cost_usd).toBeCloseTo(echoCost(usage.prompt_tokens, usage.completion_tokens), 12);
  });

  it('logs a cut stream as incomplete, with what was delivered, and counts it as an error', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('a b c d e f g h', { stream: true, mock: { cut_after: 2 } }),
      key.secret,
    );
    await res.text();
    const [row] = await waitForLogs([idOf(res)]);
    expect(row).toMatchObject({
      status: 200,
      stream: 1,
      stream_completed: 0,
      error_source: 'provider',
      error_code: 'stream_incomplete',
    });
    // Charged like the limiter charges it: the prompt estimate plus the delivered characters / 4, never 0.
    expect(row!.input_tokens).toBeGreaterThan(0);
    expect(row!.output_tokens).toBeGreaterThan(0);
    expect(row!.cost_usd).toBeCloseTo(echoCost(row!.input_tokens, row!.output_tokens), 12);
  });

  it('logs every attempt of a request that failed after retries', async () => {
    const res = await post(
      '/v1/chat/completions',
      chatBody('retry me', { mock: { status: 503 } }),
      key.secret,
      { 'cf-aig-max-attempts': '3' },
    );
    expect(res.status).toBe(503);
    const [row] = await waitForLogs([idOf(res)]);
    expect(row).toMatchObject({ status: 503, error_source: 'provider', attempts: 3 });
  });

  it('logs failures: provider errors, gateway errors and requests that never authenticated', async () => {
    const upstream = await post(
      '/v1/chat/completions',
      chatBody('fail', { mock: { status: 503 } }),
      key.secret,
      { 'cf-aig-max-attempts': '1' },
    );
    const unknownModel = await post(
      '/v1/chat/completions',
      chatBody('x', { model: 'nope/none' }),
      key.secret,
    );
    const anonymous = await post('/v1/chat/completions', chatBody('x'), 'ew_not-a-key');
    const rows = await waitForLogs([idOf(upstream), idOf(unknownModel), idOf(anonymous)]);
    expect(rows[0]).toMatchObject({
      status: upstream.status,
      error_source: 'provider',
      tenant_id: 'ten_logs',
      input_tokens: 0,
      cost_usd: 0,
    });
    expect(upstream.status).toBeGreaterThanOrEqual(500);
    expect(rows[1]).toMatchObject({
      status: unknownModel.status,
      error_source: 'gateway',
      model: 'nope/none',
    });
    expect(rows[2]).toMatchObject({
      status: 401,
      error_source: 'gateway',
      error_code: 'invalid_api_key',
      tenant_id: null,
      key_id: null,
    });
  });

  it('logs a cache hit at no cost, with what it saved', async () => {
    const cachedKey = await seedKey({ tenantId: 'ten_logs', cache: { exact: true } });
    const body = chatBody(`cache me ${crypto.randomUUID()}`);
    const first = await post('/v1/chat/completions', body, cachedKey.secret);
    const { usage } = (await first.json()) as { usage: Usage };
    const second = await post('/v1/chat/completions', body, cachedKey.secret);
    await second.text();
    const [miss, hit] = await waitForLogs([idOf(first), idOf(second)]);
    expect(miss).toMatchObject({ cache: 'MISS', saved_usd: 0 });
    expect(hit).toMatchObject({ cache: 'HIT', cost_usd: 0, input_tokens: usage.prompt_tokens });
    expect(hit!.saved_usd).toBeCloseTo(miss!.cost_usd, 12);
  });
});

describe('payload logging', () => {
  it('stores prompt and completion only for keys that opt in, unless the request says no', async () => {
    const optedIn = await seedKey({ tenantId: 'ten_logs', logPayload: true });
    const json = await post('/v1/chat/completions', chatBody('secret recipe: more butter'), optedIn.secret);
    await json.text();
    const stream = await post(
      '/v1/chat/completions',
      chatBody('streamed words here', { stream: true }),
      optedIn.secret,
    );
    await stream.text();
    const declined = await post('/v1/chat/completions', chatBody('do not keep this'), optedIn.secret, {
      'cf-aig-collect-log-payload': 'false',
    });
    await declined.text();
    const notOptedIn = await post('/v1/chat/completions', chatBody('nor this'), key.secret);
    await notOptedIn.text();
    const [a, b, c, d] = await waitForLogs([idOf(json), idOf(stream), idOf(declined), idOf(notOptedIn)]);
    // Payloads live in the R2 archive only; the D1 index says one was logged and where.
    expect([a, b, c, d].map((r) => [r!.request_payload, r!.response_payload])).toEqual(
      Array(4).fill([null, null]),
    );
    expect([a, b, c, d].map((r) => r!.payload_archived)).toEqual([1, 1, 0, 0]);
    const detailOf = async (res: Response) => (await admin('GET', `/logs/${idOf(res)}`)).json as LogDetail;
    const [ja, jb, jc, jd] = await Promise.all([json, stream, declined, notOptedIn].map(detailOf));
    expect(JSON.parse(ja!.request_payload!)).toMatchObject({
      messages: [{ role: 'user', content: 'secret recipe: more butter' }],
    });
    expect(JSON.parse(ja!.response_payload!)).toMatchObject({
      choices: [{ message: { content: 'secret recipe: more butter' } }],
    });
    expect(jb).toMatchObject({
      has_payload: true,
      payload_truncated: false,
      response_payload: 'streamed words here',
    });
    expect([jc, jd].map((j) => [j!.has_payload, j!.request_payload, j!.response_payload])).toEqual([
      [false, null, null],
      [false, null, null],
    ]);
  });

  it('cuts payloads to LOG_PAYLOAD_MAX_BYTES and says so', async () => {
    const optedIn = await seedKey({ tenantId: 'ten_logs', logPayload: true });
    const long = 'é'.repeat(40_000);
    const res = await post('/v1/chat/completions', chatBody(long), optedIn.secret);
    await res.text();
    await waitForLogs([idOf(res)]);
    const row = (await admin('GET', `/logs/${idOf(res)}`)).json as LogDetail;
    const max = Number(env.LOG_PAYLOAD_MAX_BYTES);
    expect(row.payload_truncated).toBe(true);
    expect(new TextEncoder().encode(row.request_payload!).byteLength).toBeLessThanOrEqual(max);
    expect(new TextEncoder().encode(row.response_payload!).byteLength).toBeLessThanOrEqual(max);
    expect(row.request_payload!.length).toBeGreaterThan(max / 2 - 100);
  });

  it('never stores the gateway key, its hash or the admin token in any log table', async () => {
    const optedIn = await seedKey({ tenantId: 'ten_logs', logPayload: true });
    const ids: string[] = [];
    for (const headers of [{}, { 'x-api-key': optedIn.secret }] as Record<string, string>[]) {
      const res = await post(
        '/v1/chat/completions',
        chatBody('what is my key?', { stream: ids.length > 0 }),
        optedIn.secret,
        headers,
      );
      await res.text();
      ids.push(idOf(res));
    }
    const bad = await post('/v1/chat/completions', chatBody('x'), `${optedIn.secret}x`);
    ids.push(idOf(bad));
    await waitForLogs(ids);
    const archived = await archiveText();
    expect(archived).toContain(ids[0]);
    const dumps = [archived];
    for (const table of ['request_logs', 'usage_daily', 'dead_letters'])
      dumps.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM ${table}`).all()).results));
    for (const dump of dumps) {
      expect(dump).not.toContain(optedIn.secret);
      expect(dump).not.toContain(optedIn.secret.slice(3, 20));
      expect(dump).not.toContain(optedIn.hash);
      expect(dump).not.toContain(ADMIN_TOKEN);
    }
  });
});
