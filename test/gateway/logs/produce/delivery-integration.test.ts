/**
 * A log send that fails is retried, then kept in D1 and counted; never only
 * reported. Through the real app (createApp with the real deps, the queue
 * binding wrapped in a failing adapter), the real D1 and the admin
 * reconciliation.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../../src/app';
import { getDeps } from '../../../../src/deps';
import type { LogBatch } from '../../../../src/core/log-batch';
import { deliverBatch, type LogQueue, SEND_ATTEMPTS } from '../../../../src/logs/produce/delivery';
import type { Reconciliation } from '../../../../src/logs/read/reconcile';
import { queueSink } from '../../../../src/logs/produce/sink';
import { LogStore } from '../../../../src/logs/store';
import { admin } from '../../admin-helpers';
import { chatBody, seedKey } from '../../helpers';
import {
  bindings,
  clearLogs,
  deliver,
  LOG_QUEUE,
  logCount,
  logEvent,
  usageRows,
  waitForLogs,
} from '../../log-fixtures';

beforeEach(async () => {
  await clearLogs();
  await env.DB.exec('DELETE FROM log_batches');
});
afterEach(() => vi.restoreAllMocks());

/** The real queue binding behind an adapter that refuses the first `failures` sends (Infinity: all). */
function flakyQueue(failures: number) {
  const calls = { sends: 0 };
  const queue = {
    send: async (body: unknown, options?: QueueSendOptions) => {
      calls.sends += 1;
      if (calls.sends <= failures) throw new Error('Queue send failed: Too Many Requests');
      return bindings.LOG_QUEUE!.send(body as never, options);
    },
  };
  return { queue, calls };
}

function appWithQueue(queue: LogQueue) {
  const base = getDeps(bindings);
  const deps = { ...base, logs: queueSink(queue, { db: bindings.DB, waitMs: base.config.logBatchWaitMs }) };
  const app = createApp({ deps: () => deps });
  return async (key: string, i: number) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('http://gw.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(chatBody(`fallback ${i}`)),
      }),
      bindings,
      ctx,
    );
    await res.text();
    await waitOnExecutionContext(ctx);
    return res;
  };
}

async function reconciliation(): Promise<Reconciliation> {
  const res = await admin('GET', '/logs/reconcile');
  expect(res.status).toBe(200);
  return res.json as Reconciliation;
}

describe('log delivery', () => {
  it('stores the events of a queue that refuses every send straight in D1, counted as fallback', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const key = await seedKey({ tenantId: 'ten_fallback' });
    const { queue, calls } = flakyQueue(Number.POSITIVE_INFINITY);
    const call = appWithQueue(queue);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => call(key.secret, i)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = responses.map((r) => r.headers.get('x-edgeway-request-id')!);

    // Already in D1 when the requests' waitUntil ended: no queue involved.
    expect(await waitForLogs(ids, 1)).toHaveLength(20);
    expect((await usageRows()).reduce((n, r) => n + r.requests, 0)).toBe(20);
    const r = await reconciliation();
    expect(r).toMatchObject({ sent: 20, received: 20, stored: 20, fallback: 20, missing: 0, balanced: true });
    expect(calls.sends).toBe(r.batches * SEND_ATTEMPTS);
  });

  it('retries a refused send and delivers through the queue', async () => {
    const key = await seedKey({ tenantId: 'ten_retry' });
    const { queue, calls } = flakyQueue(1);
    const res = await appWithQueue(queue)(key.secret, 0);
    await waitForLogs([res.headers.get('x-edgeway-request-id')!]);
    expect(calls.sends).toBe(2);
    const r = await reconciliation();
    expect(r).toMatchObject({ sent: 1, received: 1, stored: 1, fallback: 0, missing: 0, balanced: true });
  });

  it('counts a batch once when the queue delivers it after the producer also wrote it directly', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const batch: LogBatch = { v: 2, isolate: 'iso-dup', seq: 1, sent: 2, events: [logEvent(), logEvent()] };
    const refused = { send: async () => Promise.reject(new Error('timeout')) };
    const sleep = async () => {};
    expect(await deliverBatch(batch, { queue: refused, store: new LogStore(env.DB), sleep })).toBe(
      'stored directly',
    );
    // The "failed" send had in fact been enqueued: the consumer gets it too.
    expect((await deliver(LOG_QUEUE, [{ body: batch }])).ackAll).toBe(true);
    expect(await logCount()).toBe(2);
    expect(await reconciliation()).toMatchObject({
      batches: 1,
      sent: 2,
      received: 2,
      stored: 2,
      fallback: 2,
    });
  });

  it('writes a batch it cannot keep anywhere to the error log, whole, and the gap shows in the reconciliation', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refused = { send: async () => Promise.reject(new Error('Queue send failed')) };
    const lost: LogBatch = { v: 2, isolate: 'iso-lost', seq: 1, sent: 1, events: [logEvent()] };
    expect(await deliverBatch(lost, { queue: refused, store: null, sleep: async () => {} })).toBe('lost');
    expect(errors).toHaveBeenCalledWith('log batch lost', expect.stringContaining(lost.events[0]!.requestId));

    // Its isolate's next batch arrives: seq 1 is missing, and its event.
    const next: LogBatch = { v: 2, isolate: 'iso-lost', seq: 2, sent: 3, events: [logEvent(), logEvent()] };
    await deliverBatch(next, { queue: refused, store: new LogStore(env.DB), sleep: async () => {} });
    expect(await reconciliation()).toMatchObject({
      sent: 3,
      received: 2,
      missing: 1,
      missing_batches: 1,
      gaps: [{ isolate: 'iso-lost', first_seq: 1, last_seq: 1 }],
      balanced: false,
    });
  });
});
