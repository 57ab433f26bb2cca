/**
 * Raw logs in R2 through the worker's real queue handler, D1 and R2: each event
 * is archived and indexed exactly once however often its batch is delivered
 * (retries, the dead-letter queue); a failing R2 or a failing D1 loses nothing;
 * the index and the archive agree; an old request is found by reading one
 * object; an export streams a tenant's range, reading objects only as the
 * client takes them.
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../../../src/env';
import { lookupLog } from '../../../../src/logs/read/lookup';
import { uuid7 } from '../../../../src/util/uuid7';
import { admin } from '../../admin-helpers';
import {
  archiveKeys,
  archiveText,
  bindings,
  clearLogs,
  DLQ,
  deliver,
  logEvent,
  LOG_QUEUE,
  usageRows,
} from '../../log-fixtures';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

beforeEach(clearLogs);

let seq = 0;
/** One producer batch, as an isolate's batcher sends it. */
function producerBatch(events: ReturnType<typeof logEvent>[], isolate = 'iso-archive') {
  seq += 1;
  return { v: 2, isolate, seq, sent: seq * 100, events };
}

function event(tenantId: string, time: number, extra: Partial<ReturnType<typeof logEvent>> = {}) {
  return logEvent({ requestId: uuid7(time), time, tenantId, ...extra });
}

/** The bucket with its calls counted (gets, lists, puts), passed where the binding goes. */
function counted(bucket: R2Bucket) {
  const calls = { get: 0, list: 0, put: 0 };
  const count = <T>(name: keyof typeof calls, call: () => T): T => {
    calls[name] += 1;
    return call();
  };
  const wrapped = {
    get: (...a: Parameters<R2Bucket['get']>) => count('get', () => bucket.get(...a)),
    list: (...a: Parameters<R2Bucket['list']>) => count('list', () => bucket.list(...a)),
    put: (...a: Parameters<R2Bucket['put']>) => count('put', () => bucket.put(...a)),
    delete: (...a: Parameters<R2Bucket['delete']>) => bucket.delete(...a),
    head: (...a: Parameters<R2Bucket['head']>) => bucket.head(...a),
  } as unknown as R2Bucket;
  return { bucket: wrapped, calls };
}

const rowsOf = async () =>
  (
    await env.DB.prepare('SELECT id, archive_key FROM request_logs ORDER BY id').all<{
      id: string;
      archive_key: string;
    }>()
  ).results;

const lineIds = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id)
    .sort();

describe('exactly once', () => {
  it('a batch delivered three times (twice by the queue, once by the dead-letter queue) is one object and one row each', async () => {
    const events = [event('ten_x', T0 + 1), event('ten_x', T0 + 2), event('ten_y', T0 + 3)];
    const body = producerBatch(events);
    for (const queue of [LOG_QUEUE, LOG_QUEUE, DLQ]) {
      const result = await deliver(queue, [{ id: 'msg-1', body }]);
      expect(result.explicitAcks.length + (result.ackAll ? 1 : 0)).toBeGreaterThan(0);
    }
    const keys = await archiveKeys();
    expect(keys).toEqual([
      `logs/v1/tenant=ten_x/date=2026-11-02/hour=09/iso-archive-${body.seq}.ndjson.gz`,
      `logs/v1/tenant=ten_y/date=2026-11-02/hour=09/iso-archive-${body.seq}.ndjson.gz`,
    ]);
    expect(lineIds(await archiveText())).toEqual(events.map((e) => e.requestId).sort());
    expect((await rowsOf()).map((r) => r.id)).toEqual(events.map((e) => e.requestId).sort());
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(3);
  });

  it('a failing R2 stores nothing anywhere and retries the batch; the retry stores it once', async () => {
    const events = [event('ten_x', T0 + 10), event('ten_x', T0 + 11)];
    const body = producerBatch(events);
    const failing = {
      ...bindings,
      LOG_ARCHIVE: { put: async () => Promise.reject(new Error('R2 is down')) } as unknown as R2Bucket,
    } as Bindings;
    const failed = await deliver(LOG_QUEUE, [{ id: 'msg-r2', body }], failing);
    expect(failed.retryBatch.retry).toBe(true);
    expect(await archiveKeys()).toEqual([]);
    expect(await rowsOf()).toEqual([]);
    expect(await usageRows()).toEqual([]);

    const ok = await deliver(LOG_QUEUE, [{ id: 'msg-r2', body, attempts: 2 }]);
    expect(ok.ackAll).toBe(true);
    expect(lineIds(await archiveText())).toEqual(events.map((e) => e.requestId).sort());
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(2);
  });

  it('on the dead-letter queue, a failing R2 parks the events in dead_letters whole: nothing is lost', async () => {
    const events = [event('ten_x', T0 + 30), event('ten_x', T0 + 31)];
    const failing = {
      ...bindings,
      LOG_ARCHIVE: { put: async () => Promise.reject(new Error('R2 is down')) } as unknown as R2Bucket,
    } as Bindings;
    const result = await deliver(
      DLQ,
      [{ id: 'msg-dlq-r2', body: producerBatch(events), attempts: 6 }],
      failing,
    );
    expect(result.explicitAcks).toContain('msg-dlq-r2');
    const parked = await env.DB.prepare(
      'SELECT request_id, reason, body FROM dead_letters ORDER BY request_id',
    ).all<{
      request_id: string;
      reason: string;
      body: string;
    }>();
    expect(parked.results.map((r) => r.request_id)).toEqual(events.map((e) => e.requestId).sort());
    expect(parked.results.every((r) => r.reason.includes('R2 is down'))).toBe(true);
    expect(JSON.parse(parked.results[0]!.body)).toMatchObject({ tenantId: 'ten_x' });
    expect(await rowsOf()).toEqual([]);
  });

  it('a failing D1 after R2 was written retries; the retry overwrites the object, never duplicates it', async () => {
    const events = [event('ten_x', T0 + 20), event('ten_x', T0 + 21)];
    const body = producerBatch(events);
    await env.DB.exec('ALTER TABLE usage_daily RENAME TO usage_daily_away');
    try {
      const failed = await deliver(LOG_QUEUE, [{ id: 'msg-d1', body }]);
      expect(failed.retryBatch.retry).toBe(true);
    } finally {
      await env.DB.exec('ALTER TABLE usage_daily_away RENAME TO usage_daily');
    }
    expect(await rowsOf()).toEqual([]);
    expect(await archiveKeys()).toHaveLength(1);
    await deliver(LOG_QUEUE, [{ id: 'msg-d1', body, attempts: 2 }]);
    expect(await archiveKeys()).toHaveLength(1);
    expect(lineIds(await archiveText())).toEqual(events.map((e) => e.requestId).sort());
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(2);
  });
});

describe('index and archive', () => {
  it('agree: each index row names the object holding its line; payloads are in R2 only', async () => {
    const events = [
      event('ten_a', T0 + 5, { payload: { request: '{"q":"hello"}', response: 'hi', truncated: false } }),
      event('ten_a', T0 + HOUR + 5),
      event('ten_b', T0 + 7),
    ];
    await deliver(LOG_QUEUE, [{ id: 'm-agree', body: producerBatch(events) }]);
    const rows = await rowsOf();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const object = await env.LOG_ARCHIVE.get(row.archive_key);
      expect(object, row.archive_key).not.toBeNull();
      const text = await new Response(object!.body.pipeThrough(new DecompressionStream('gzip'))).text();
      expect(lineIds(text)).toContain(row.id);
    }
    expect(new Set(rows.map((r) => r.archive_key)).size).toBe(3);
    const stored = await env.DB.prepare(
      'SELECT request_payload, payload_archived FROM request_logs WHERE id = ?',
    )
      .bind(events[0]!.requestId)
      .first();
    expect(stored).toEqual({ request_payload: null, payload_archived: 1 });
    const detail = await admin('GET', `/logs/${events[0]!.requestId}`);
    expect(detail.json).toMatchObject({
      has_payload: true,
      request_payload: '{"q":"hello"}',
      response_payload: 'hi',
    });
  });
});

describe('finding an old request', () => {
  it('reads one object: its hour is listed once and the filters rule out the others', async () => {
    const batches = Array.from({ length: 8 }, (_, b) =>
      producerBatch(Array.from({ length: 20 }, (_, i) => event('ten_old', T0 + b * 300_000 + i))),
    );
    await deliver(
      LOG_QUEUE,
      batches.map((body, i) => ({ id: `m-old-${i}`, body })),
    );
    const target = batches[5]!.events[7]!;
    await env.DB.prepare('DELETE FROM request_logs').run();

    const { bucket, calls } = counted(env.LOG_ARCHIVE);
    const result = await lookupLog(env.DB, bucket, target.requestId, 'ten_old');
    expect(result).toMatchObject({ found: { id: target.requestId, tenant_id: 'ten_old' } });
    expect(calls).toMatchObject({ list: 1, get: 1 });

    const other = await lookupLog(env.DB, bucket, target.requestId, 'ten_other');
    expect(other).toEqual({ missing: 'not_found' });
  });

  it('through the admin API: 404 naming tenant_id without it, the log with it', async () => {
    const e = event('ten_old2', T0 + 42);
    await deliver(LOG_QUEUE, [{ id: 'm-old2', body: producerBatch([e]) }]);
    await env.DB.prepare('DELETE FROM request_logs').run();
    const without = await admin('GET', `/logs/${e.requestId}`);
    expect(without.status).toBe(404);
    expect(without.json).toMatchObject({ error: { code: 'log_not_found', param: 'tenant_id' } });
    const found = await admin('GET', `/logs/${e.requestId}?tenant_id=ten_old2`);
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ id: e.requestId, time: T0 + 42 });
  });
});

describe('export', () => {
  it("streams a tenant's range, oldest first, and nothing of another tenant or outside the range", async () => {
    const mine = Array.from({ length: 3 }, (_, h) =>
      Array.from({ length: 30 }, (_, i) => event('ten_exp', T0 + h * HOUR + i * 1000)),
    ).flat();
    const theirs = Array.from({ length: 10 }, (_, i) => event('ten_other', T0 + i));
    const bodies = [];
    for (let i = 0; i < mine.length; i += 25) bodies.push(producerBatch(mine.slice(i, i + 25)));
    bodies.push(producerBatch(theirs));
    await deliver(
      LOG_QUEUE,
      bodies.map((body, i) => ({ id: `m-exp-${i}`, body })),
    );
    const from = T0 + 10_000;
    const to = T0 + 2 * HOUR + 5_000;
    const res = await admin('GET', `/logs/export?tenant_id=ten_exp&from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; time: number; tenant_id: string });
    const expected = mine.filter((e) => e.time >= from && e.time < to);
    expect(lines.map((l) => l.id).sort()).toEqual(expected.map((e) => e.requestId).sort());
    expect(lines.every((l) => l.tenant_id === 'ten_exp')).toBe(true);
    const hours = lines.map((l) => Math.floor(l.time / HOUR));
    expect(hours).toEqual([...hours].sort((a, b) => a - b));
  });

  it('reads objects only as the client takes them (a cancelled export read one)', async () => {
    const bodies = Array.from({ length: 6 }, (_, b) =>
      producerBatch(Array.from({ length: 10 }, (_, i) => event('ten_lazy', T0 + b * 60_000 + i))),
    );
    await deliver(
      LOG_QUEUE,
      bodies.map((body, i) => ({ id: `m-lazy-${i}`, body })),
    );
    const { exportArchived } = await import('../../../../src/logs/archive/reader');
    const { bucket, calls } = counted(env.LOG_ARCHIVE);
    const reader = exportArchived(bucket, 'ten_lazy', T0, T0 + HOUR).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"tenant_id":"ten_lazy"');
    await reader.cancel();
    expect(calls.get).toBe(1);
  });

  it('400 for a reversed range and without tenant_id', async () => {
    expect((await admin('GET', `/logs/export?tenant_id=t&from=${T0}&to=${T0 - 1}`)).status).toBe(400);
    expect((await admin('GET', `/logs/export?from=${T0}`)).status).toBe(400);
  });
});

describe('rollups only (LOG_INDEX_DAYS = 0)', () => {
  const rollupsOnly = { ...bindings, LOG_INDEX_DAYS: '0' } as Bindings;

  it('writes no index row, and counts each batch once however often it comes', async () => {
    const events = [
      event('ten_ro', T0 + 1, { cache: 'HIT' }),
      event('ten_ro', T0 + 2),
      event('ten_ro', T0 + HOUR + 3),
      event('ten_ro2', T0 + 4),
    ];
    const body = producerBatch(events);
    for (const queue of [LOG_QUEUE, LOG_QUEUE, DLQ])
      await deliver(queue, [{ id: 'm-ro', body }], rollupsOnly);
    expect(await rowsOf()).toEqual([]);
    expect(await archiveKeys()).toHaveLength(3);
    const ingest = await env.DB.prepare('SELECT key FROM log_ingest ORDER BY key').all<{ key: string }>();
    expect(ingest.results.map((r) => r.key)).toEqual(await archiveKeys());
    const usage = await usageRows();
    expect(usage.reduce((n, r) => n + r.requests, 0)).toBe(4);
    expect(usage.reduce((n, r) => n + r.cache_hits, 0)).toBe(1);
    expect(lineIds(await archiveText())).toEqual(events.map((e) => e.requestId).sort());
  });

  it('agrees with the indexed mode on every rollup', async () => {
    const make = () => [
      event('ten_same', T0 + 1, { model: 'mock/a', inputTokens: 7, outputTokens: 3, costUsd: 0.5 }),
      event('ten_same', T0 + 2, { model: 'mock/a', status: 500, errorCode: 'upstream_error' }),
      event('ten_same', T0 + 3, { model: 'mock/b', cache: 'SEMANTIC', savedUsd: 0.25 }),
    ];
    await deliver(LOG_QUEUE, [{ id: 'm-idx', body: producerBatch(make()) }]);
    const indexed = await usageRows();
    await clearLogs();
    await deliver(LOG_QUEUE, [{ id: 'm-ro2', body: producerBatch(make()) }], rollupsOnly);
    expect(await usageRows()).toEqual(indexed);
  });

  it('finds a request in the archive by id and tenant', async () => {
    const e = event('ten_ro3', T0 + 77);
    await deliver(LOG_QUEUE, [{ id: 'm-ro3', body: producerBatch([e]) }], rollupsOnly);
    const result = await lookupLog(env.DB, env.LOG_ARCHIVE, e.requestId, 'ten_ro3');
    expect(result).toMatchObject({ found: { id: e.requestId } });
  });
});

describe('scope', () => {
  it("a tenant_admin finds its tenant's archived request, and is refused another tenant's", async () => {
    const mine = (await admin('POST', '/tenants', { name: 'arch-mine' })).json as { id: string };
    const theirs = (await admin('POST', '/tenants', { name: 'arch-theirs' })).json as { id: string };
    const made = await admin('POST', '/admins', {
      name: 'arch-ta',
      role: 'tenant_admin',
      tenant_ids: [mine.id],
    });
    const { token } = made.json as { token: string };
    const a = event(mine.id, T0 + 5);
    const b = event(theirs.id, T0 + 6);
    await deliver(LOG_QUEUE, [{ id: 'm-scope', body: producerBatch([a, b]) }]);
    await env.DB.prepare('DELETE FROM request_logs').run();
    expect((await admin('GET', `/logs/${a.requestId}?tenant_id=${mine.id}`, undefined, token)).status).toBe(
      200,
    );
    expect((await admin('GET', `/logs/${b.requestId}?tenant_id=${theirs.id}`, undefined, token)).status).toBe(
      403,
    );
    const crossed = await admin('GET', `/logs/${b.requestId}?tenant_id=${mine.id}`, undefined, token);
    expect(crossed.status).toBe(404);
    expect(crossed.text).not.toContain(theirs.id);
  });
});
