/** The log queue consumer, driven through the worker's queue handler with real D1. */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../../../src/logs/consume/consumer';
import { clearLogs, deliver, logCount, logEvent, LOG_QUEUE, usageRows } from '../../log-fixtures';

beforeEach(async () => {
  await clearLogs();
  await env.DB.exec('DELETE FROM log_batches');
});

describe('log consumer', () => {
  it('writes every valid message as one row and acks the batch', async () => {
    const events = [
      logEvent(),
      logEvent({ model: 'mock/mock-small', status: 500, errorSource: 'provider', errorCode: 'server_error' }),
      logEvent(),
    ];
    const result = await deliver(LOG_QUEUE, events);
    expect(result.ackAll).toBe(true);
    expect(result.retryBatch.retry).toBe(false);
    expect(await logCount()).toBe(3);
    const row = await env.DB.prepare('SELECT * FROM request_logs WHERE id = ?')
      .bind(events[1]!.requestId)
      .first();
    expect(row).toMatchObject({
      tenant_id: 'ten_a',
      key_id: 'key_a',
      model: 'mock/mock-small',
      status: 500,
      error_source: 'provider',
      day: '2026-05-01',
      stream: 0,
    });
  });

  it('rolls up requests, tokens, cost, cache hits and errors per tenant, key, model and day', async () => {
    await deliver(LOG_QUEUE, [
      logEvent({ inputTokens: 10, outputTokens: 5, cachedTokens: 2, costUsd: 0.25 }),
      logEvent({ inputTokens: 20, outputTokens: 7, costUsd: 0.5 }),
      logEvent({ cache: 'HIT', inputTokens: 10, outputTokens: 5, costUsd: 0, savedUsd: 0.25 }),
      logEvent({
        status: 429,
        errorSource: 'gateway',
        errorCode: 'rate_limited',
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      }),
      logEvent({
        stream: true,
        streamCompleted: false,
        errorSource: 'provider',
        errorCode: 'stream_incomplete',
        inputTokens: 3,
        outputTokens: 1,
        costUsd: 0.125,
      }),
      logEvent({ keyId: 'key_b' }),
      logEvent({ time: Date.UTC(2026, 4, 2, 0, 0, 0) }),
    ]);
    const rows = await usageRows();
    expect(rows).toEqual([
      {
        tenant_id: 'ten_a',
        day: '2026-05-01',
        key_id: 'key_a',
        model: 'mock/echo',
        requests: 5,
        input_tokens: 33,
        output_tokens: 13,
        cached_tokens: 2,
        cost_usd: 0.875,
        cache_hits: 1,
        saved_tokens: 15,
        saved_usd: 0.25,
        errors: 2,
      },
      expect.objectContaining({ day: '2026-05-01', key_id: 'key_b', requests: 1 }),
      expect.objectContaining({ day: '2026-05-02', key_id: 'key_a', requests: 1 }),
    ]);
  });

  it('counts a request that never authenticated under the empty tenant', async () => {
    await deliver(LOG_QUEUE, [
      logEvent({
        tenantId: null,
        keyId: null,
        model: null,
        provider: null,
        status: 401,
        errorSource: 'gateway',
        errorCode: 'invalid_api_key',
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      }),
    ]);
    expect(await usageRows()).toEqual([
      expect.objectContaining({ tenant_id: '', key_id: '', model: '', requests: 1, errors: 1 }),
    ]);
  });

  it('acks malformed messages and parks them in dead_letters while writing the rest', async () => {
    const good = logEvent();
    const result = await deliver(LOG_QUEUE, [
      { id: 'bad-1', body: { requestId: 'req-bad', status: 'teapot' } },
      { id: 'bad-2', body: 'not an object' },
      { id: 'bad-3', body: { ...logEvent(), time: 1e20 } },
      good,
    ]);
    expect(result.ackAll).toBe(true);
    expect(result.retryBatch.retry).toBe(false);
    expect(await logCount()).toBe(1);
    const { results } = await env.DB.prepare(
      'SELECT message_id, request_id, reason, queue FROM dead_letters ORDER BY message_id',
    ).all();
    expect(results).toEqual([
      expect.objectContaining({
        message_id: 'bad-1',
        request_id: 'req-bad',
        queue: LOG_QUEUE,
        reason: expect.stringMatching(/^malformed: /),
      }),
      expect.objectContaining({
        message_id: 'bad-2',
        request_id: null,
        reason: expect.stringMatching(/^malformed/),
      }),
      expect.objectContaining({ message_id: 'bad-3', reason: expect.stringMatching(/^malformed/) }),
    ]);
  });

  it('counts a duplicated request id once, within a batch and across redeliveries', async () => {
    const a = logEvent({ inputTokens: 100 });
    const b = logEvent({ inputTokens: 1 });
    await deliver(LOG_QUEUE, [a, a, b]);
    await deliver(LOG_QUEUE, [
      { body: a, attempts: 2 },
      { body: b, attempts: 2 },
    ]);
    await deliver(LOG_QUEUE, [b, logEvent({ inputTokens: 1000 })]);
    expect(await logCount()).toBe(3);
    expect(await usageRows()).toEqual([expect.objectContaining({ requests: 3, input_tokens: 1101 })]);
  });

  it('retries the whole batch when the write fails, committing nothing, and the redelivery loses and duplicates nothing', async () => {
    const events = Array.from({ length: 10 }, () => logEvent());
    await deliver(LOG_QUEUE, events.slice(0, 3));
    // A genuine D1 failure part-way through the transaction: the rollup table is gone.
    await env.DB.exec('ALTER TABLE usage_daily RENAME TO usage_daily_away');
    let failed: Awaited<ReturnType<typeof deliver>>;
    try {
      failed = await deliver(LOG_QUEUE, events.slice(2));
    } finally {
      await env.DB.exec('ALTER TABLE usage_daily_away RENAME TO usage_daily');
    }
    expect(failed.ackAll).toBe(false);
    expect(failed.retryBatch).toMatchObject({ retry: true });
    expect(await logCount()).toBe(3);

    const redelivered = await deliver(
      LOG_QUEUE,
      events.slice(2).map((body) => ({ body, attempts: 2 })),
    );
    expect(redelivered.ackAll).toBe(true);
    expect(await logCount()).toBe(10);
    expect(await usageRows()).toEqual([
      expect.objectContaining({ requests: 10, input_tokens: 100, output_tokens: 50 }),
    ]);
  });

  it("records the key's last use from its logs", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO tenants (id, name, created_at, updated_at) VALUES ('ten_a', 'a', 0, 0)",
    ).run();
    await env.DB.prepare(
      "INSERT INTO api_keys (id, tenant_id, key_hash, hint, created_at, updated_at) VALUES ('key_lu', 'ten_a', 'h-lu', 'ew_…', 0, 0)",
    ).run();
    await deliver(LOG_QUEUE, [
      logEvent({ keyId: 'key_lu', time: 5_000 }),
      logEvent({ keyId: 'key_lu', time: 9_000 }),
    ]);
    await deliver(LOG_QUEUE, [logEvent({ keyId: 'key_lu', time: 7_000 })]);
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = 'key_lu'").first();
    expect(row).toEqual({ last_used_at: 9_000 });
  });

  it('accepts batched messages next to single-event ones, parks a bad event alone and records each receipt once', async () => {
    const good = [logEvent(), logEvent()];
    const batch = {
      v: 2,
      isolate: 'iso-a',
      seq: 1,
      sent: 3,
      events: [good[0], { requestId: 'req-bad' }, good[1]],
    };
    const single = logEvent();
    const result = await deliver(LOG_QUEUE, [{ id: 'b-1', body: batch }, single]);
    expect(result.ackAll).toBe(true);
    await deliver(LOG_QUEUE, [{ id: 'b-1', body: batch, attempts: 2 }]);
    expect(await logCount()).toBe(3);
    const dead = await env.DB.prepare('SELECT message_id, request_id FROM dead_letters').all();
    expect(dead.results).toEqual([{ message_id: 'b-1:1', request_id: 'req-bad' }]);
    const receipts = await env.DB.prepare('SELECT * FROM log_batches').all();
    expect(receipts.results).toEqual([
      expect.objectContaining({
        isolate: 'iso-a',
        seq: 1,
        sent: 3,
        events: 3,
        stored: 2,
        dead: 1,
        via: 'queue',
      }),
    ]);
  });

  it('parks a batch whose envelope is malformed as one dead letter, without a receipt', async () => {
    const result = await deliver(LOG_QUEUE, [
      { id: 'b-bad', body: { v: 2, isolate: '', seq: 0, events: 'x' } },
    ]);
    expect(result.ackAll).toBe(true);
    const dead = await env.DB.prepare('SELECT message_id, reason FROM dead_letters').all();
    expect(dead.results).toEqual([
      { message_id: 'b-bad', reason: expect.stringMatching(/^malformed batch/) },
    ]);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM log_batches').first())?.n).toBe(0);
  });

  it('backs off 5 s, 10 s, 20 s, 40 s, then 60 s between retries', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 60, 60]);
  });
});
