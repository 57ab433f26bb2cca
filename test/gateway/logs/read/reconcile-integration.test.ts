/**
 * GET /admin/logs/reconcile and the dashboard's delivery panel, from batch
 * receipts written by the real consumer: sent per the producers' running
 * counts, received, stored, dead-lettered, and the gaps in each isolate's
 * batch numbering.
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Reconciliation } from '../../../../src/logs/read/reconcile';
import { admin } from '../../admin-helpers';
import { Browser } from '../../dashboard-helpers';
import { clearLogs, deliver, LOG_QUEUE, logEvent } from '../../log-fixtures';

beforeEach(async () => {
  await clearLogs();
  await env.DB.exec('DELETE FROM log_batches');
});

const batch = (isolate: string, seq: number, sent: number, events: unknown[]) => ({
  body: { v: 2, isolate, seq, sent, events },
});

async function reconciliation(): Promise<Reconciliation> {
  const res = await admin('GET', '/logs/reconcile');
  expect(res.status).toBe(200);
  return res.json as Reconciliation;
}

describe('log reconciliation', () => {
  it('balances with nothing received yet', async () => {
    expect(await reconciliation()).toEqual({
      object: 'log_reconciliation',
      isolates: 0,
      batches: 0,
      sent: 0,
      received: 0,
      stored: 0,
      dead_lettered: 0,
      fallback: 0,
      missing: 0,
      missing_batches: 0,
      gaps: [],
      balanced: true,
    });
  });

  it('counts what arrived per isolate and names the missing batches', async () => {
    await deliver(LOG_QUEUE, [
      batch('iso-a', 1, 2, [logEvent(), logEvent()]),
      batch('iso-a', 2, 3, [{ requestId: 'bad' }]),
      // iso-a batches 3 and 4 (5 events) never arrive.
      batch('iso-a', 5, 9, [logEvent(), logEvent()]),
      batch('iso-b', 1, 1, [logEvent()]),
      logEvent(), // a version 1 message: stored, outside the reconciliation
    ]);
    expect(await reconciliation()).toMatchObject({
      isolates: 2,
      batches: 4,
      sent: 10,
      received: 6,
      stored: 5,
      dead_lettered: 1,
      fallback: 0,
      missing: 4,
      missing_batches: 2,
      gaps: [{ isolate: 'iso-a', first_seq: 3, last_seq: 4 }],
      balanced: false,
    });
  });

  it('is documented in the OpenAPI document and shown on the dashboard logs page', async () => {
    const doc = (await admin('GET', '/openapi.json')).json as { paths: Record<string, unknown> };
    expect(doc.paths['/admin/logs/reconcile']).toBeDefined();

    await deliver(LOG_QUEUE, [batch('iso-d', 2, 3, [logEvent()])]);
    const b = new Browser();
    await b.signIn();
    const html = await b.page('/dashboard/logs');
    expect(html).toContain('Log delivery');
    expect(html).toContain('not balanced');
    expect(html).toMatch(/Missing<\/dt><dd>2 \(1 batch\)/);
  });
});
