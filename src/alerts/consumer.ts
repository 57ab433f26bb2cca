/**
 * The alert queue's consumer: POSTs each budget alert, signed (signature.ts), to its tenant's
 * webhook. A 2xx acks it; anything else (a non-2xx, a redirect, a network error or a 10 s timeout)
 * retries that message alone with exponential backoff, and after the queue's max_retries it is
 * moved to the dead-letter queue (wrangler.toml). What retrying cannot fix (a malformed message,
 * a tenant without a webhook, a deployment without ALERT_SIGNING_SECRET) is acked and logged.
 * Each attempt's outcome is recorded (deliveries.ts): delivered, retrying (with the next attempt's
 * time) or failed, with the last error as a status code or an error class, never the URL or a body.
 * A recording that fails is logged and does not change the delivery.
 */
import { AlertMessage } from '../core/alert-message';
import type { DeliveryRecord } from './deliveries';
import { SIGNATURE_HEADER, signatureHeader, tenantSigningSecret } from './signature';

export interface AlertPorts {
  readonly fetch: (request: Request) => Promise<Response>;
  /** The tenant's webhook URL; null when it has none. */
  readonly webhookOf: (tenantId: string) => Promise<string | null>;
  /** The deployment's ALERT_SIGNING_SECRET; without it nothing is sent unsigned. */
  readonly secret: string | null;
  readonly now: () => number;
  /** Stores an attempt's outcome for the admin API and dashboard. */
  readonly record?: (delivery: DeliveryRecord) => Promise<void>;
}

const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_S = 3600;
/** The alert queue's max_retries (wrangler.toml): the try after this many retries is the last. */
export const ALERT_MAX_RETRIES = 8;

/** Seconds before the next try after `attempts` tries: 10 s, 20 s, 40 s … capped at an hour. */
export const backoffSeconds = (attempts: number): number =>
  Math.min(MAX_BACKOFF_S, 10 * 2 ** Math.max(0, attempts - 1));

export async function consumeAlerts(batch: MessageBatch<unknown>, ports: AlertPorts): Promise<void> {
  await Promise.all(batch.messages.map((message) => deliver(message, ports)));
}

/** What one try came to: sent (2xx), a failure worth retrying, or one that retrying cannot fix. */
type Outcome = { sent: true } | { sent: false; error: string; retry: boolean } | null;

async function deliver(message: Message<unknown>, ports: AlertPorts): Promise<void> {
  const parsed = AlertMessage.safeParse(message.body);
  if (!parsed.success) {
    console.error('alert message dropped: not an alert', parsed.error.issues[0]?.message);
    return message.ack();
  }
  const alert = parsed.data;
  const outcome = await attempt(alert, ports);
  if (outcome === null) return message.ack();
  const now = ports.now();
  const last = message.attempts > ALERT_MAX_RETRIES;
  const delay = backoffSeconds(message.attempts);
  const retrying = !outcome.sent && outcome.retry && !last;
  await record(ports, {
    alertId: alert.id,
    tenantId: alert.tenant_id,
    status: outcome.sent ? 'delivered' : retrying ? 'retrying' : 'failed',
    attempts: message.attempts,
    last_attempt_at: now,
    next_attempt_at: retrying ? now + delay * 1000 : null,
    delivered_at: outcome.sent ? now : null,
    last_error: outcome.sent ? null : outcome.error,
  });
  if (outcome.sent || !outcome.retry) return message.ack();
  message.retry({ delaySeconds: delay });
}

/** One try; null when the tenant has no webhook (nothing to send, nothing to record). */
async function attempt(alert: AlertMessage, ports: AlertPorts): Promise<Outcome> {
  try {
    const [url, secret] = await Promise.all([
      ports.webhookOf(alert.tenant_id),
      ports.secret ? tenantSigningSecret(ports.secret, alert.tenant_id) : null,
    ]);
    if (url === null) return null;
    if (secret === null) {
      console.error('alert not delivered: ALERT_SIGNING_SECRET is not set', alert.id);
      return { sent: false, error: 'ALERT_SIGNING_SECRET is not set', retry: false };
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
    if (response.ok) return { sent: true };
    console.warn(`alert webhook answered ${response.status}; retrying`, alert.id);
    const redirect = response.status >= 300 && response.status < 400;
    const error = `HTTP ${response.status}${redirect ? ' (redirects are not followed)' : ''}`;
    return { sent: false, error, retry: true };
  } catch (err) {
    console.warn('alert webhook (or its lookup) failed; retrying', alert.id, err);
    return { sent: false, error: errorClass(err), retry: true };
  }
}

/** A thrown error as the delivery state shows it: its class, never its message (which may hold the URL). */
function errorClass(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `timeout (${WEBHOOK_TIMEOUT_MS / 1000} s)`;
  return err instanceof Error ? err.name : 'Error';
}

async function record(ports: AlertPorts, delivery: DeliveryRecord): Promise<void> {
  if (!ports.record) return;
  try {
    await ports.record(delivery);
  } catch (err) {
    console.error('alert delivery state not recorded', delivery.alertId, err);
  }
}
