/**
 * Admin routes of budget alerts (docs/alerts.md):
 * - GET /admin/tenants/:id/alerts: the tenant's fired alerts (its own budgets' and its keys'), newest
 *   first, read from its Limiter object, which records each one once, each with its webhook delivery
 *   state from D1 (src/alerts/deliveries.ts).
 * - GET /admin/tenants/:id/alert-secret: the secret its webhook receiver verifies signatures with,
 *   derived from ALERT_SIGNING_SECRET (src/alerts/signature.ts); 409 when that is not set.
 * Thresholds and the webhook URL are set with PATCH /admin/tenants|keys/:id.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { AlertDelivery, deliveriesOf } from '../../alerts/deliveries';
import { tenantSigningSecret } from '../../alerts/signature';
import type { AppEnv } from '../../context';
import { AlertMessage } from '../../core/alert-message';
import { GatewayError } from '../../core/errors';
import type { Operation } from '../operation';
import { tenantNotFound } from './tenants';
import { readQuery } from '../validate';

export const FiredAlert = AlertMessage.extend({
  queued: z.boolean().describe('False while the alert waits in the Limiter object for the alert queue.'),
  delivery: AlertDelivery.nullable().describe(
    'The webhook delivery state; null until the consumer tries it (and for a tenant without a webhook).',
  ),
});
export type FiredAlertEntry = z.output<typeof FiredAlert>;
export const AlertList = z.object({ data: z.array(FiredAlert) });
export const AlertListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const AlertSecret = z.object({
  secret: z.string().describe('HMAC-SHA256 key of the x-edgeway-signature header; keep it in the receiver.'),
});

export const alertOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/tenants/{id}/alerts',

    access: { level: 'read', tenant: 'path' },
    summary: "A tenant's fired budget alerts (its own and its keys'), newest first",
    query: AlertListQuery,
    status: 200,
    response: { id: 'AlertList', schema: AlertList },
  },
  {
    method: 'get',
    path: '/admin/tenants/{id}/alert-secret',

    access: { level: 'write' },
    summary: "The secret a tenant's webhook receiver verifies alert signatures with",
    status: 200,
    response: { id: 'AlertSecret', schema: AlertSecret },
  },
];

export function alertsRouter() {
  const router = new Hono<AppEnv>();

  router.get('/:id/alerts', async (c) => {
    const id = c.req.param('id');
    const { limit } = readQuery(c, AlertListQuery);
    if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
    const fired = await c.var.deps.limiterReads(id).firedAlerts(limit);
    const deliveries = await deliveriesOf(
      c.env.DB,
      id,
      fired.map((a) => a.id),
    );
    const data = fired.map((a) => ({ ...a, delivery: deliveries.get(a.id) ?? null }));
    return c.json({ data });
  });

  router.get('/:id/alert-secret', async (c) => {
    const id = c.req.param('id');
    if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
    const deployment = c.env.ALERT_SIGNING_SECRET;
    if (!deployment)
      throw new GatewayError(409, 'Alert webhooks are not signed: set the ALERT_SIGNING_SECRET secret.', {
        code: 'alert_signing_unconfigured',
      });
    return c.json({ secret: await tenantSigningSecret(deployment, id) });
  });

  return router;
}
