/**
 * Budget alerts' webhook delivery state: the consumer records each attempt (delivered, retrying with
 * the next attempt's time, failed on the last try or when it cannot be sent) with the last error as a
 * status code or error class, never the URL; D1 keeps it (a duplicate never undoes a delivery); the
 * admin API lists it beside each alert and the dashboard shows it instead of "queued".
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { ALERT_MAX_RETRIES, type AlertPorts, consumeAlerts } from '../../../src/alerts/consumer';
import { type DeliveryRecord, deliveriesOf, recordDelivery } from '../../../src/alerts/deliveries';
import { ALERT_QUEUE_NAME } from '../../../src/alerts/queue';
import type { AlertMessage } from '../../../src/core/alert-message';
import { admin, createKey, createTenant } from '../admin-helpers';
import { Browser } from '../dashboard-helpers';
import { limiterOf } from '../limits-helpers';

const NOW = Date.UTC(2026, 10, 3, 12, 0, 0);
const HOOK = 'http://127.0.0.1:8787/hook?token=s3cret';

const alert = (over: Partial<AlertMessage> = {}): AlertMessage => ({
  id: `ten_1:key:k1:tokens_total:total:refusing:${crypto.randomUUID()}`,
  type: 'budget.refusing',
  tenant_id: 'ten_1',
  key_id: 'k1',
  scope: 'key',
  scope_id: null,
  budget: 'tokens_total',
  period: 'total',
  threshold: null,
  limit: 6000,
  spent: 5900,
  fired_at: new Date(NOW).toISOString(),
  ...over,
});

async function consume(body: AlertMessage, answer: () => Promise<Response>, attempts: number, secret = 'x') {
  const records: DeliveryRecord[] = [];
  const ports: AlertPorts = {
    fetch: answer,
    webhookOf: async () => HOOK,
    secret,
    now: () => NOW,
    record: async (d) => {
      records.push(d);
    },
  };
  const batch = createMessageBatch(ALERT_QUEUE_NAME, [
    { id: 'm0', timestamp: new Date(NOW), attempts, body },
  ]);
  await consumeAlerts(batch, ports);
  const result = await getQueueResult(batch, createExecutionContext());
  return { records, result };
}

describe('the consumer records each attempt', () => {
  it('delivered: a 2xx, with when', async () => {
    const { records, result } = await consume(alert(), async () => new Response('ok'), 1);
    expect(result.explicitAcks).toEqual(['m0']);
    expect(records).toMatchObject([
      { status: 'delivered', attempts: 1, delivered_at: NOW, next_attempt_at: null, last_error: null },
    ]);
  });

  it('retrying: a 500 at the third try, with the next try 40 s later', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { records, result } = await consume(alert(), async () => new Response('no', { status: 500 }), 3);
    expect(result.retryMessages).toEqual([{ msgId: 'm0' }]);
    expect(records).toMatchObject([
      { status: 'retrying', attempts: 3, next_attempt_at: NOW + 40_000, last_error: 'HTTP 500' },
    ]);
  });

  it('failed: the last try, with the error class only (never the URL and its token)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const refused = async (): Promise<Response> => {
      throw new TypeError(`fetch to ${HOOK} failed: connection refused`);
    };
    const { records, result } = await consume(alert(), refused, ALERT_MAX_RETRIES + 1);
    // Retried once more by the consumer, which the queue turns into the dead-letter queue.
    expect(result.retryMessages).toEqual([{ msgId: 'm0' }]);
    expect(records).toMatchObject([
      { status: 'failed', attempts: 9, next_attempt_at: null, last_error: 'TypeError' },
    ]);
    expect(JSON.stringify(records)).not.toContain('s3cret');
  });

  it('failed at once when it cannot be signed; a redirect is named as such', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const unsigned = await consume(alert(), async () => new Response('ok'), 1, '');
    expect(unsigned.result.explicitAcks).toEqual(['m0']);
    expect(unsigned.records).toMatchObject([
      { status: 'failed', last_error: 'ALERT_SIGNING_SECRET is not set' },
    ]);
    const moved = await consume(alert(), async () => new Response(null, { status: 302 }), 1);
    expect(moved.records).toMatchObject([
      { status: 'retrying', last_error: 'HTTP 302 (redirects are not followed)' },
    ]);
  });
});

describe('the delivery state in D1, the admin API and the dashboard', () => {
  const row = (alertId: string, tenantId: string, over: Partial<DeliveryRecord>): DeliveryRecord => ({
    alertId,
    tenantId,
    status: 'retrying',
    attempts: 1,
    last_attempt_at: NOW,
    next_attempt_at: NOW + 10_000,
    delivered_at: null,
    last_error: 'HTTP 503',
    ...over,
  });

  it('keeps a delivered alert delivered when a duplicate message fails later', async () => {
    const id = `a-${crypto.randomUUID()}`;
    await recordDelivery(
      env.DB,
      row(id, 'ten_dup', { status: 'delivered', delivered_at: NOW, last_error: null }),
    );
    await recordDelivery(env.DB, row(id, 'ten_dup', { attempts: 2 }));
    expect((await deliveriesOf(env.DB, 'ten_dup', [id])).get(id)).toMatchObject({ status: 'delivered' });
    expect((await deliveriesOf(env.DB, 'ten_other', [id])).size).toBe(0);
  });

  it('lists delivered, retrying and failed alerts with their state', async () => {
    // No webhook: the worker's own consumer records nothing for it, so the rows below are the test's.
    const tenant = await createTenant(`deliveries-${crypto.randomUUID()}`, { alerts: { thresholds: [5] } });
    const key = await createKey(tenant.id, { budgets: { tokens: { total: 100 } } });
    const stub = limiterOf(tenant.id);
    const settings = { limits: {}, budgets: { tokens: { total: 100 } } };
    const reserve = (tokens: number) =>
      stub.reserve({
        keyId: key.id,
        tenantId: tenant.id,
        key: settings,
        tenant: { limits: {}, budgets: { tokens: { total: 1000 } }, alerts: { thresholds: [5] } },
        cost: { tokens, nanos: 0 },
        ttlMs: 60_000,
      });
    const r = await reserve(95);
    expect(r.ok && (await stub.settle(r.id, { tokens: 95, nanos: 0 }))).toBe(true);
    expect((await reserve(50)).ok).toBe(false); // the key's budget refuses
    await stub.flushAlerts();
    const listed = await admin('GET', `/tenants/${tenant.id}/alerts`);
    type Listed = { id: string; type: string; threshold: number | null; delivery: unknown };
    const alerts = (listed.json as { data: Listed[] }).data;
    expect(alerts.map((a) => a.threshold)).toEqual([null, 5]);
    const [refusing, five] = alerts as [Listed, Listed];
    expect(refusing).toMatchObject({ type: 'budget.refusing', delivery: null });
    await recordDelivery(env.DB, row(refusing.id, tenant.id, { attempts: 2, last_error: 'HTTP 500' }));
    await recordDelivery(
      env.DB,
      row(five.id, tenant.id, { status: 'failed', attempts: 9, next_attempt_at: null }),
    );
    const after = (await admin('GET', `/tenants/${tenant.id}/alerts`)).json as { data: Listed[] };
    expect(after.data.map((a) => a.delivery)).toMatchObject([
      { status: 'retrying', attempts: 2, last_error: 'HTTP 500', next_attempt_at: NOW + 10_000 },
      { status: 'failed', attempts: 9, last_error: 'HTTP 503' },
    ]);

    const b = new Browser();
    await b.signIn();
    let html = await b.page(`/dashboard/tenants/${tenant.id}/alerts`);
    expect(html).toContain('<span class="badge refusing">refusing</span>');
    expect(html).toMatch(/badge retrying">retrying<\/span> 2 attempts, last: <code>HTTP 500<\/code>/);
    expect(html).toMatch(/badge failed">failed<\/span> after 9 attempts: <code>HTTP 503<\/code>/);
    expect(html).not.toContain('queued for the webhook');
    await recordDelivery(
      env.DB,
      row(refusing.id, tenant.id, { status: 'delivered', attempts: 3, delivered_at: NOW, last_error: null }),
    );
    html = await b.page(`/dashboard/tenants/${tenant.id}/alerts`);
    expect(html).toMatch(/badge delivered">delivered<\/span> <time datetime="2026-11-03T12:00:00.000Z">/);
  });
});
