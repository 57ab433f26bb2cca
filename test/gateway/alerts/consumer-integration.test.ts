/**
 * The alert queue's consumer in the Workers runtime: a webhook receiver standing in for the
 * Worker's outbound fetch gets each alert once, signed so that a receiver's check passes, and a
 * 500 makes the queue retry that message with backoff.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { backoffSeconds, consumeAlerts, type AlertPorts } from '../../../src/alerts/consumer';
import { ALERT_QUEUE_NAME } from '../../../src/alerts/queue';
import { SIGNATURE_HEADER, tenantSigningSecret, verifySignature } from '../../../src/alerts/signature';
import type { AlertMessage } from '../../../src/core/alert-message';

const DEPLOYMENT_SECRET = 'test-alert-signing-secret';
const NOW = Date.UTC(2026, 10, 3, 12, 0, 0);

const alert = (over: Partial<AlertMessage> = {}): AlertMessage => ({
  id: 'ten_1:key:k1:tokens_day:2026-11-03:80',
  type: 'budget.threshold',
  tenant_id: 'ten_1',
  key_id: 'k1',
  scope: 'key',
  scope_id: null,
  budget: 'tokens_day',
  period: '2026-11-03',
  threshold: 80,
  limit: 1000,
  spent: 812,
  fired_at: new Date(NOW).toISOString(),
  ...over,
});

interface Received {
  url: string;
  headers: Headers;
  body: string;
}

/** A webhook answering with `statuses` in turn (the last one repeats). */
function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const fetch = vi.fn(async (request: Request) => {
    received.push({ url: request.url, headers: request.headers, body: await request.text() });
    const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
    return new Response(status === 204 ? null : 'ok', { status });
  });
  return { received, fetch };
}

function ports(fetch: AlertPorts['fetch'], over: Partial<AlertPorts> = {}): AlertPorts {
  return {
    fetch,
    webhookOf: async (tenantId) => (tenantId === 'ten_1' ? 'http://127.0.0.1:8787/hook' : null),
    secret: DEPLOYMENT_SECRET,
    now: () => NOW,
    ...over,
  };
}

async function consume(bodies: unknown[], p: AlertPorts, attempts = 1) {
  const batch = createMessageBatch(
    ALERT_QUEUE_NAME,
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(NOW), attempts, body })),
  );
  const retries = batch.messages.map((m) => vi.spyOn(m, 'retry'));
  await consumeAlerts(batch, p);
  const result = await getQueueResult(batch, createExecutionContext());
  return { ...result, delays: retries.flatMap((r) => r.mock.calls.map(([o]) => o?.delaySeconds)) };
}

describe('the alert consumer', () => {
  it('POSTs the alert once to the tenant webhook with a signature the receiver can verify', async () => {
    const hook = receiver();
    const result = await consume([alert()], ports(hook.fetch));
    expect(result.explicitAcks).toEqual(['m0']);
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got!.url).toBe('http://127.0.0.1:8787/hook');
    expect(JSON.parse(got!.body)).toEqual(alert());
    expect(got!.headers.get(SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const secret = await tenantSigningSecret(DEPLOYMENT_SECRET, 'ten_1');
    const header = got!.headers.get(SIGNATURE_HEADER);
    expect(await verifySignature(secret, header, got!.body, NOW / 1000)).toBe(true);
    // A changed body, another tenant's secret or a stale timestamp fail the check.
    expect(await verifySignature(secret, header, got!.body.replace('812', '813'), NOW / 1000)).toBe(false);
    const other = await tenantSigningSecret(DEPLOYMENT_SECRET, 'ten_2');
    expect(await verifySignature(other, header, got!.body, NOW / 1000)).toBe(false);
    expect(await verifySignature(secret, header, got!.body, NOW / 1000 + 3600)).toBe(false);
  });

  it('retries a message the webhook answers 500 with backoff, and acks it once it answers 2xx', async () => {
    const hook = receiver([500, 204]);
    const first = await consume([alert()], ports(hook.fetch), 3);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([{ msgId: 'm0' }]);
    expect(first.delays).toEqual([backoffSeconds(3)]);
    const second = await consume([alert()], ports(hook.fetch), 4);
    expect(second.explicitAcks).toEqual(['m0']);
    expect(hook.received).toHaveLength(2);
  });

  it('retries when the webhook cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = vi.fn(async () => {
      throw new TypeError('connection refused');
    });
    const result = await consume([alert()], ports(failing));
    expect(result.retryMessages).toEqual([{ msgId: 'm0' }]);
    expect(result.delays).toEqual([10]);
  });

  it('acks without sending what retrying cannot fix', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const hook = receiver();
    const noWebhook = await consume([alert({ tenant_id: 'ten_other' })], ports(hook.fetch));
    const malformed = await consume([{ threshold: 'eighty' }], ports(hook.fetch));
    const unsigned = await consume([alert()], ports(hook.fetch, { secret: null }));
    for (const r of [noWebhook, malformed, unsigned]) expect(r.explicitAcks).toEqual(['m0']);
    expect(hook.received).toHaveLength(0);
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 20].map(backoffSeconds)).toEqual([10, 20, 40, 3600]);
  });
});
