/**
 * The alert queue's handler: the consumer with the Worker's fetch, D1's tenant webhooks, the signing
 * secret and D1's delivery state.
 */
import type { Bindings } from '../env';
import { type AlertPorts, consumeAlerts } from './consumer';
import { recordDelivery } from './deliveries';

export { ALERT_QUEUE_NAME } from './queue-name';

export function alertPorts(env: Bindings): AlertPorts {
  const webhooks = new Map<string, Promise<string | null>>();
  const lookUp = async (tenantId: string) => {
    const row = await env.DB.prepare('SELECT alert_webhook FROM tenants WHERE id = ?')
      .bind(tenantId)
      .first<{ alert_webhook: string | null }>();
    return row?.alert_webhook ?? null;
  };
  return {
    fetch: (request) => fetch(request),
    // One read per tenant per batch: a batch often holds several thresholds of one tenant.
    webhookOf: (tenantId) => {
      const known = webhooks.get(tenantId);
      if (known) return known;
      const url = lookUp(tenantId);
      webhooks.set(tenantId, url);
      return url;
    },
    secret: env.ALERT_SIGNING_SECRET || null,
    now: () => Date.now(),
    record: (delivery) => recordDelivery(env.DB, delivery),
  };
}

export function handleAlerts(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  return consumeAlerts(batch, alertPorts(env));
}
