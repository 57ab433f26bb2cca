/**
 * Budget alerts end to end through the worker: thresholds and the webhook set with the admin API
 * (bad values refused in its error shape), a request that crosses a threshold, the tenant's Limiter
 * recording it and enqueueing it, and the worker's own alert consumer delivering it, signed, to a
 * webhook receiver standing in for the outbound fetch, exactly once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNATURE_HEADER, verifySignature } from '../../../src/alerts/signature';
import { admin, createKey, createTenant, v1 } from '../admin-helpers';
import { chatBody } from '../helpers';
import { settledDump } from '../limits-helpers';

const HOOK = 'http://127.0.0.1:9/edgeway-alerts';

/** Records the requests to HOOK (answered 200); every other fetch goes through. */
function webhook() {
  const received: { headers: Headers; body: string }[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== HOOK) return original(request);
    received.push({ headers: request.headers, body: await request.text() });
    return new Response('ok');
  });
  return received;
}

/** Waits for the queue consumer (bounded by attempts, not time). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
}

afterEach(() => vi.restoreAllMocks());

describe('budget alerts through the worker', () => {
  it('validates thresholds and the webhook URL on tenants and keys', async () => {
    const tenant = await createTenant(`alerts-${crypto.randomUUID()}`);
    const ok = await admin('PATCH', `/tenants/${tenant.id}`, {
      alerts: { thresholds: [50, 80, 100] },
      alert_webhook: HOOK,
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ alerts: { thresholds: [50, 80, 100] }, alert_webhook: HOOK });
    const cleared = await admin('PATCH', `/tenants/${tenant.id}`, { alert_webhook: null });
    expect(cleared.json).toMatchObject({ alert_webhook: null });

    for (const bad of [
      { alerts: { thresholds: [0] } },
      { alerts: { thresholds: [101] } },
      { alerts: { thresholds: [50, 50] } },
      { alerts: { thresholds: Array.from({ length: 11 }, (_, i) => i + 1) } },
      { alerts: { thresholds: [50], extra: 1 } },
      { alert_webhook: 'http://example.com/hook' },
      { alert_webhook: 'ftp://127.0.0.1/hook' },
    ]) {
      const res = await admin('PATCH', `/tenants/${tenant.id}`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json).toMatchObject({ error: { code: 'invalid_request' } });
    }
    const key = await createKey(tenant.id, { alerts: { thresholds: [90] } });
    expect(key).toMatchObject({ alerts: { thresholds: [90] } });
    const badKey = await admin('PATCH', `/keys/${key.id}`, { alerts: { thresholds: [1.5] } });
    expect(badKey.status).toBe(400);
  });

  it('delivers a crossed threshold once, signed, to the tenant webhook and lists it', async () => {
    const received = webhook();
    const tenant = await createTenant(`alerts-${crypto.randomUUID()}`, { alert_webhook: HOOK });
    const key = await createKey(tenant.id, {
      budgets: { tokens: { day: 1000 } },
      alerts: { thresholds: [1, 99] },
    });
    const res = await v1('/chat/completions', key.key, chatBody('hello alerts', { max_tokens: 16 }));
    expect(res.status).toBe(200);
    await res.text();
    await settledDump(tenant.id, key.id);
    await until(() => received.length > 0);
    // A second request spends more without reaching 99 %: nothing new is sent.
    const again = await v1('/chat/completions', key.key, chatBody('hello again', { max_tokens: 16 }));
    await again.text();
    await settledDump(tenant.id, key.id);

    const listed = await admin('GET', `/tenants/${tenant.id}/alerts`);
    expect(listed.status).toBe(200);
    const data = (listed.json as { data: { key_id: string; threshold: number; queued: boolean }[] }).data;
    expect(data).toMatchObject([{ key_id: key.id, threshold: 1, budget: 'tokens_day', queued: true }]);

    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body);
    expect(body).toMatchObject({ tenant_id: tenant.id, key_id: key.id, threshold: 1, limit: 1000 });
    const secret = await admin('GET', `/tenants/${tenant.id}/alert-secret`);
    const { secret: signing } = secret.json as { secret: string };
    const header = received[0]!.headers.get(SIGNATURE_HEADER);
    expect(await verifySignature(signing, header, received[0]!.body, Date.now() / 1000)).toBe(true);
  });

  it('answers 404 in the admin shape for an unknown tenant', async () => {
    const res = await admin('GET', '/tenants/ten_nope/alerts');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: { code: 'tenant_not_found' } });
  });
});
