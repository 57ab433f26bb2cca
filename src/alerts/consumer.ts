/**
 * The alert queue's consumer: POSTs each budget alert, signed (signature.ts), to its tenant's
 * webhook. A 2xx acks it; anything else (a non-2xx, a redirect, a network error or a 10 s timeout)
 * retries that message alone with exponential backoff, and after the queue's max_retries it is
 * moved to the dead-letter queue (wrangler.toml). What retrying cannot fix (a malformed message,
 * a tenant without a webhook, a deployment without ALERT_SIGNING_SECRET) is acked and logged.
 */
import { AlertMessage } from '../core/alert-message';
import { SIGNATURE_HEADER, signatureHeader, tenantSigningSecret } from './signature';

export interface AlertPorts {
  readonly fetch: (request: Request) => Promise<Response>;
  /** The tenant's webhook URL; null when it has none. */
  readonly webhookOf: (tenantId: string) => Promise<string | null>;
  /** The deployment's ALERT_SIGNING_SECRET; without it nothing is sent unsigned. */
  readonly secret: string | null;
  readonly now: () => number;
}

const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_S = 3600;

/** Seconds before the next try after `attempts` tries: 10 s, 20 s, 40 s … capped at an hour. */
export const backoffSeconds = (attempts: number): number =>
  Math.min(MAX_BACKOFF_S, 10 * 2 ** Math.max(0, attempts - 1));

export async function consumeAlerts(batch: MessageBatch<unknown>, ports: AlertPorts): Promise<void> {
  await Promise.all(batch.messages.map((message) => deliver(message, ports)));
}

async function deliver(message: Message<unknown>, ports: AlertPorts): Promise<void> {
  const parsed = AlertMessage.safeParse(message.body);
  if (!parsed.success) {
    console.error('alert message dropped: not an alert', parsed.error.issues[0]?.message);
    return message.ack();
  }
  const alert = parsed.data;
  try {
    const [url, secret] = await Promise.all([
      ports.webhookOf(alert.tenant_id),
      ports.secret ? tenantSigningSecret(ports.secret, alert.tenant_id) : null,
    ]);
    if (url === null) return message.ack();
    if (secret === null) {
      console.error('alert not delivered: ALERT_SIGNING_SECRET is not set', alert.id);
      return message.ack();
    }
    const body = JSON.stringify(alert);
    const response = await ports.fetch(
      new Request(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Edgeway-Alerts/1',
          'x-edgeway-alert-id': alert.id,
          [SIGNATURE_HEADER]: await signatureHeader(secret, body, Math.floor(ports.now() / 1000)),
        },
        body,
      }),
    );
    await response.body?.cancel();
    if (response.ok) return message.ack();
    console.warn(`alert webhook answered ${response.status}; retrying`, alert.id);
  } catch (err) {
    console.warn('alert webhook (or its lookup) failed; retrying', alert.id, err);
  }
  message.retry({ delaySeconds: backoffSeconds(message.attempts) });
}
