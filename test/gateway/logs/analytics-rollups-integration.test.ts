/**
 * The analytics rollups (migration 0023) the log consumer writes beside usage_daily: hourly and minute
 * buckets with latency and TTFT histograms, cumulative totals, failed lookups by name; each request
 * counted once, with and without the D1 index. Real D1 through the Worker's own queue handler.
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { bucketColumns } from '../../../src/core/latency-buckets';
import { bindingsWithoutArchive, clearLogs, deliver, LOG_QUEUE, logEvent, usageRows } from '../log-fixtures';

const HOUR = Date.UTC(2026, 4, 1, 12);

type Bucket = Record<string, number | string>;

async function rows(table: string, order = 'start, model'): Promise<Bucket[]> {
  const { results } = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all<Bucket>();
  return results;
}

const histogram = (row: Bucket, prefix: 'lat' | 'ttft') => bucketColumns(prefix).map((c) => row[c]);

beforeEach(clearLogs);

describe('analytics rollups', () => {
  it('adds each request to its hour and minute, with counters by status class and source', async () => {
    const events = [
      logEvent({ time: HOUR + 5_000, latencyMs: 80, ttftMs: 40, costUsd: 0.5 }),
      logEvent({ time: HOUR + 65_000, latencyMs: 120, ttftMs: null, attempts: 3 }),
      logEvent({
        time: HOUR + 66_000,
        status: 502,
        errorSource: 'provider',
        errorCode: 'upstream_error',
        latencyMs: 2,
      }),
      logEvent({
        time: HOUR + 67_000,
        status: 200,
        errorSource: 'client',
        errorCode: 'client_disconnected',
        latencyMs: 9_000,
        stream: true,
      }),
      logEvent({
        time: HOUR + 68_000,
        status: 429,
        errorSource: 'gateway',
        errorCode: 'rate_limit_exceeded',
        latencyMs: 0.5,
      }),
      logEvent({
        time: HOUR + 69_000,
        cache: 'HIT',
        costUsd: 0,
        savedUsd: 0.25,
        latencyMs: 3,
        route: 'fast',
      }),
    ];
    await deliver(LOG_QUEUE, events);
    // A redelivered message adds nothing.
    await deliver(LOG_QUEUE, [events[0]!]);

    const hours = await rows('usage_hourly', 'route');
    expect(hours.map((r) => [r.start, r.model, r.provider, r.route, r.requests])).toEqual([
      [HOUR, 'mock/echo', 'mock', '', 5],
      [HOUR, 'mock/echo', 'mock', 'fast', 1],
    ]);
    const h = hours[0]!;
    expect(h).toMatchObject({
      errors: 3,
      status_4xx: 1,
      status_5xx: 1,
      stream_errors: 1,
      err_gateway: 1,
      err_provider: 1,
      err_client: 1,
      denials: 1,
      fallbacks: 1,
      attempts: 7,
      ttft_count: 1,
      ttft_sum_ms: 40,
      cost_usd: 0.5 + 0.001 * 4,
    });
    expect(h.latency_sum_ms).toBeCloseTo(80 + 120 + 2 + 9000 + 0.5);
    const lat = histogram(h, 'lat');
    expect(lat[0]).toBe(1); // 0.5 ms
    expect(lat[1]).toBe(1); // 2 ms
    expect(lat[8]).toBe(1); // 80 ms in (75, 100]
    expect(lat[9]).toBe(1); // 120 ms in (100, 150]
    expect(lat[21]).toBe(1); // 9 s in (7.5 s, 10 s]
    expect(lat.reduce((s, n) => Number(s) + Number(n), 0)).toBe(5);
    expect(histogram(h, 'ttft')[6]).toBe(1); // 40 ms in (35, 50]
    expect(hours[1]).toMatchObject({ cache_hits: 1, saved_usd: 0.25, cost_usd: 0 });

    const minutes = await rows('usage_minutely', 'start, route');
    expect(minutes.map((r) => [r.start, r.route, r.requests])).toEqual([
      [HOUR, '', 1],
      [HOUR + 60_000, '', 4],
      [HOUR + 60_000, 'fast', 1],
    ]);
    const totals = await rows('usage_totals', 'model');
    expect(totals.map((r) => [r.tenant_id, r.model, r.provider, r.requests, r.errors])).toEqual([
      ['ten_a', 'mock/echo', 'mock', 6, 3],
    ]);
  });

  it('keeps failed lookups by name in their own table and out of every per-model row', async () => {
    const lookupFailure = { status: 404, errorSource: 'gateway' as const, provider: null, latencyMs: 1 };
    await deliver(LOG_QUEUE, [
      logEvent({ time: HOUR, ...lookupFailure, model: 'nosuch/model-x', errorCode: 'model_not_found' }),
      logEvent({ time: HOUR + 10, ...lookupFailure, model: 'nosuch/model-x', errorCode: 'model_not_found' }),
      logEvent({
        time: HOUR + 20,
        ...lookupFailure,
        status: 400,
        model: null,
        errorCode: 'missing_required_parameter',
      }),
      logEvent({
        time: HOUR + 30,
        ...lookupFailure,
        status: 403,
        model: 'openai/gpt-4o',
        errorCode: 'model_not_allowed',
      }),
      // Unauthenticated: counted under tenant '', never a lookup failure.
      logEvent({
        time: HOUR + 40,
        ...lookupFailure,
        status: 401,
        tenantId: null,
        keyId: null,
        model: null,
        errorCode: 'invalid_api_key',
      }),
      // A guardrail refusal keeps its model.
      logEvent({
        time: HOUR + 50,
        status: 400,
        errorSource: 'gateway',
        errorCode: 'guardrail_blocked',
        model: 'mock/echo',
      }),
      logEvent({ time: HOUR + 60, model: 'mock/echo' }),
    ]);
    const failures = await rows('lookup_failures_daily', 'model, error_code');
    expect(
      failures.map((r) => [r.tenant_id, r.day, r.key_id, r.model, r.error_code, r.requests, r.last_seen]),
    ).toEqual([
      ['ten_a', '2026-05-01', 'key_a', '', 'missing_required_parameter', 1, HOUR + 20],
      ['ten_a', '2026-05-01', 'key_a', 'nosuch/model-x', 'model_not_found', 2, HOUR + 10],
      ['ten_a', '2026-05-01', 'key_a', 'openai/gpt-4o', 'model_not_allowed', 1, HOUR + 30],
    ]);
    const hours = await rows('usage_hourly', 'tenant_id, model');
    expect(hours.map((r) => [r.tenant_id, r.model, r.provider, r.requests, r.status_4xx])).toEqual([
      ['', '', '', 1, 1],
      ['ten_a', '', '', 4, 4],
      ['ten_a', 'mock/echo', 'mock', 2, 1],
    ]);
    const daily = await usageRows();
    expect(daily.map((r) => [r.tenant_id, r.model, r.requests])).toEqual([
      ['', '', 1],
      ['ten_a', '', 4],
      ['ten_a', 'mock/echo', 2],
    ]);
  });

  it('writes the same rollups when D1 keeps no index (rollups only)', async () => {
    const noIndex = { ...bindingsWithoutArchive, LOG_ARCHIVE: env.LOG_ARCHIVE, LOG_INDEX_DAYS: '0' };
    const events = [
      logEvent({ time: HOUR, latencyMs: 300, ttftMs: 150, attempts: 2, route: 'r1' }),
      logEvent({
        time: HOUR + 1,
        status: 404,
        provider: null,
        model: 'nosuch/x',
        errorSource: 'gateway',
        errorCode: 'model_not_found',
      }),
    ];
    await deliver(LOG_QUEUE, events, noIndex);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM request_logs').first('n')).toBe(0);
    const hours = await rows('usage_hourly', 'model');
    expect(hours.map((r) => [r.model, r.route, r.requests, r.fallbacks, r.lat_11, r.ttft_9])).toEqual([
      ['', '', 1, 0, 0, 0],
      ['mock/echo', 'r1', 1, 1, 1, 1],
    ]);
    expect((await rows('lookup_failures_daily', 'model')).map((r) => [r.model, r.requests])).toEqual([
      ['nosuch/x', 1],
    ]);
  });
});

/** A D1 handle that records what each statement of a batch wrote, by the table it upserts. */
function meteredDb(written: Map<string, number>): D1Database {
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  return {
    prepare(sql: string) {
      const statement = env.DB.prepare(sql);
      const bind = statement.bind.bind(statement);
      const wrapped = Object.assign(Object.create(statement) as D1PreparedStatement, {
        bind: (...values: unknown[]) => {
          const bound = bind(...values);
          sqlOf.set(bound, sql);
          return bound;
        },
      });
      return wrapped;
    },
    async batch<T>(statements: D1PreparedStatement[]) {
      const results = await env.DB.batch<T>(statements);
      results.forEach((r, i) => {
        const sql = sqlOf.get(statements[i]!) ?? '';
        const table = /INSERT (?:OR IGNORE )?INTO (\w+)|UPDATE (\w+)/.exec(sql);
        const name = table?.[1] ?? table?.[2] ?? 'other';
        written.set(name, (written.get(name) ?? 0) + (r.meta.rows_written ?? 0));
      });
      return results;
    },
  } as unknown as D1Database;
}

describe('what the analytics rollups cost in D1 rows written', () => {
  const ANALYTICS = ['usage_hourly', 'usage_minutely', 'usage_totals', 'lookup_failures_daily'];
  const analyticsRows = (w: Map<string, number>) => ANALYTICS.reduce((s, t) => s + (w.get(t) ?? 0), 0);

  it('is 5 rows for a request opening its buckets, 3 for one adding to them, 3 for 100 sharing them', async () => {
    const { LogStore } = await import('../../../src/logs/store');
    const { toRow } = await import('../../../src/logs/rows');
    // A new bucket: each table inserts a row (and the bucket tables their tenant index entry).
    const alone = new Map<string, number>();
    await new LogStore(meteredDb(alone)).write([toRow(logEvent({ time: HOUR }))], [], HOUR);
    // The same bucket again: each upsert updates its row in place.
    const again = new Map<string, number>();
    await new LogStore(meteredDb(again)).write([toRow(logEvent({ time: HOUR + 1 }))], [], HOUR);
    // 100 requests of one tenant, key and model in one minute, in one write.
    const batched = new Map<string, number>();
    const events = Array.from({ length: 100 }, (_, i) => toRow(logEvent({ time: HOUR + 2 + i })));
    await new LogStore(meteredDb(batched)).write(events, [], HOUR);
    console.log(
      'analytics rows written:',
      JSON.stringify({
        alone: Object.fromEntries(alone),
        again: Object.fromEntries(again),
        batched100: Object.fromEntries(batched),
      }),
    );
    // A new hour and minute row each write their tenant index entry too; totals have no second index.
    expect(analyticsRows(alone)).toBe(5);
    expect(analyticsRows(again)).toBe(3);
    expect(analyticsRows(batched)).toBe(3);
    expect(alone.get('lookup_failures_daily') ?? 0).toBe(0);
    const failed = new Map<string, number>();
    await new LogStore(meteredDb(failed)).write(
      [
        toRow(
          logEvent({
            time: HOUR,
            status: 404,
            provider: null,
            model: 'nosuch/x',
            errorSource: 'gateway',
            errorCode: 'model_not_found',
          }),
        ),
      ],
      [],
      HOUR,
    );
    // A new failed-lookup row and its day index entry.
    expect(failed.get('lookup_failures_daily')).toBe(2);
    console.log('failed lookup rows written:', JSON.stringify(Object.fromEntries(failed)));
  });
});
