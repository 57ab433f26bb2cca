/**
 * Budget alerts' webhook delivery state in D1 (migrations/0024_alert_deliveries.sql): the consumer
 * writes one row per alert id after each attempt, and the admin API reads the rows of the alerts it
 * lists. A delivered row is never turned back into retrying or failed by a duplicate of its message
 * (queueing is at least once).
 */
import * as z from 'zod';

export const DeliveryStatus = z.enum(['delivered', 'retrying', 'failed']);

export const AlertDelivery = z.object({
  status: DeliveryStatus.describe(
    'delivered: the webhook answered 2xx; retrying: it failed and the queue tries again at next_attempt_at; failed: the last try failed (the alert is in the dead-letter queue) or it could not be sent.',
  ),
  attempts: z.number().int(),
  last_attempt_at: z.number().describe('Epoch ms.'),
  next_attempt_at: z.number().nullable().describe('Epoch ms, while retrying.'),
  delivered_at: z.number().nullable().describe('Epoch ms, once delivered.'),
  last_error: z
    .string()
    .nullable()
    .describe(
      'The last failure: `HTTP 500`, `HTTP 302 (redirects are not followed)`, `timeout`, an error class; never the URL or a body.',
    ),
});
export type AlertDelivery = z.infer<typeof AlertDelivery>;

/** One attempt's outcome, as the consumer records it. */
export interface DeliveryRecord extends AlertDelivery {
  readonly alertId: string;
  readonly tenantId: string;
}

export async function recordDelivery(db: D1Database, d: DeliveryRecord): Promise<void> {
  await db
    .prepare(
      `INSERT INTO alert_deliveries
         (alert_id, tenant_id, status, attempts, last_attempt_at, next_attempt_at, delivered_at, last_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (alert_id) DO UPDATE SET
         status = excluded.status, attempts = excluded.attempts, last_attempt_at = excluded.last_attempt_at,
         next_attempt_at = excluded.next_attempt_at, delivered_at = excluded.delivered_at,
         last_error = excluded.last_error
       WHERE alert_deliveries.status <> 'delivered' OR excluded.status = 'delivered'`,
    )
    .bind(
      d.alertId,
      d.tenantId,
      d.status,
      d.attempts,
      d.last_attempt_at,
      d.next_attempt_at,
      d.delivered_at,
      d.last_error,
    )
    .run();
}

/** D1's bound parameters per statement are limited (100): ids are read in chunks below it. */
const CHUNK = 90;

/** The delivery state of a tenant's alerts among `ids`, by alert id (an alert never tried is absent). */
export async function deliveriesOf(
  db: D1Database,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, AlertDelivery>> {
  const out = new Map<string, AlertDelivery>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const { results } = await db
      .prepare(
        `SELECT alert_id, status, attempts, last_attempt_at, next_attempt_at, delivered_at, last_error
         FROM alert_deliveries WHERE tenant_id = ? AND alert_id IN (${chunk.map(() => '?').join(', ')})`,
      )
      .bind(tenantId, ...chunk)
      .all<AlertDelivery & { alert_id: string }>();
    for (const { alert_id, ...row } of results) out.set(alert_id, AlertDelivery.parse(row));
  }
  return out;
}
