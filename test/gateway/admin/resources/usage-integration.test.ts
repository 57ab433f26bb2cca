/** GET /admin/usage: rollups per day and per model, for everything, a tenant or a key. */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../admin-helpers';
import { clearLogs, deliver, logEvent, LOG_QUEUE } from '../../log-fixtures';

const day = (d: number) => Date.UTC(2026, 4, d, 12);
type Bucket = {
  day?: string;
  model?: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  cache_hits: number;
  saved_usd: number;
  errors: number;
};
type Report = { object: 'usage'; group_by: string; from: string; to: string; data: Bucket[]; totals: Bucket };

beforeAll(async () => {
  await clearLogs();
  await deliver(LOG_QUEUE, [
    logEvent({
      time: day(1),
      tenantId: 'ten_a',
      keyId: 'key_a1',
      model: 'mock/echo',
      inputTokens: 10,
      outputTokens: 1,
      costUsd: 0.5,
    }),
    logEvent({
      time: day(1),
      tenantId: 'ten_a',
      keyId: 'key_a2',
      model: 'mock/mock-small',
      inputTokens: 20,
      outputTokens: 2,
      costUsd: 0.25,
    }),
    logEvent({
      time: day(3),
      tenantId: 'ten_a',
      keyId: 'key_a1',
      model: 'mock/echo',
      cache: 'HIT',
      inputTokens: 10,
      outputTokens: 1,
      costUsd: 0,
      savedUsd: 0.5,
    }),
    logEvent({
      time: day(3),
      tenantId: 'ten_a',
      keyId: 'key_a1',
      model: 'mock/echo',
      status: 500,
      errorSource: 'provider',
      errorCode: 'server_error',
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
    }),
    logEvent({
      time: day(2),
      tenantId: 'ten_b',
      keyId: 'key_b1',
      model: 'mock/echo',
      inputTokens: 1000,
      outputTokens: 100,
      costUsd: 8,
    }),
  ]);
});

const report = async (query: string) => {
  const res = await admin('GET', `/usage${query}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as Report;
};

describe('GET /admin/usage', () => {
  it('reports a tenant per day, every day of the range, zeros included', async () => {
    const r = await report('?tenant_id=ten_a&from=2026-05-01&to=2026-05-04');
    expect(r).toMatchObject({ object: 'usage', group_by: 'day', from: '2026-05-01', to: '2026-05-04' });
    expect(
      r.data.map((b) => [b.day, b.requests, b.input_tokens, b.cost_usd, b.cache_hits, b.errors]),
    ).toEqual([
      ['2026-05-01', 2, 30, 0.75, 0, 0],
      ['2026-05-02', 0, 0, 0, 0, 0],
      ['2026-05-03', 2, 0, 0, 1, 1],
      ['2026-05-04', 0, 0, 0, 0, 0],
    ]);
    expect(r.totals).toMatchObject({
      requests: 4,
      input_tokens: 30,
      output_tokens: 3,
      cost_usd: 0.75,
      cache_hits: 1,
      saved_usd: 0.5,
      errors: 1,
    });
  });

  it('reports per model, and per key, never mixing in another tenant', async () => {
    const byModel = await report('?tenant_id=ten_a&from=2026-05-01&to=2026-05-31&group_by=model');
    expect(byModel.data.map((b) => [b.model, b.requests, b.cost_usd])).toEqual([
      ['mock/echo', 3, 0.5],
      ['mock/mock-small', 1, 0.25],
    ]);
    const key = await report('?tenant_id=ten_a&key_id=key_a2&from=2026-05-01&to=2026-05-31&group_by=model');
    expect(key.totals).toMatchObject({ requests: 1, input_tokens: 20 });
    const foreignKey = await report('?tenant_id=ten_a&key_id=key_b1&from=2026-05-01&to=2026-05-31');
    expect(foreignKey.totals.requests).toBe(0);
    const all = await report('?from=2026-05-01&to=2026-05-31&group_by=model');
    expect(all.totals.requests).toBe(5);
  });

  it('defaults to the last 30 days ending today (UTC)', async () => {
    const r = await report('?tenant_id=ten_a');
    expect(r.data).toHaveLength(30);
    expect(r.to).toBe(new Date().toISOString().slice(0, 10));
  });

  it('rejects an inverted or too long range and unknown parameters', async () => {
    for (const query of [
      '?from=2026-05-05&to=2026-05-01',
      '?from=2020-01-01&to=2026-01-01',
      '?group_by=week',
      '?tenant=ten_a',
      '?from=soon',
    ]) {
      expect((await admin('GET', `/usage${query}`)).status, query).toBe(400);
    }
  });
});
