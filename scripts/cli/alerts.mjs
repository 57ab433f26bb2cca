// `alerts list` and `alerts secret`: a tenant's fired budget alerts, and the secret its webhook receiver
// verifies their signatures with. Thresholds and the webhook URL are fields of `tenants update` / `keys update`.
import { positional } from './util.mjs';

const LIST_USAGE = 'alerts list <tenant_id> [--limit 1-500]';
const SECRET_USAGE = 'alerts secret <tenant_id>';

const ALERT_COLUMNS = [
  ['FIRED', (a) => a.fired_at],
  ['SCOPE', (a) => a.key_id ?? 'tenant'],
  ['BUDGET', (a) => a.budget],
  ['PERIOD', (a) => a.period],
  ['ALERT', (a) => (a.threshold === null ? 'refusing' : `${a.threshold}%`)],
  ['SPENT', (a) => `${a.spent} of ${a.limit}`],
  ['DELIVERY', delivery],
];

/** Where an alert's webhook delivery stands (docs/alerts.md, "Delivery state"). */
function delivery(a) {
  if (!a.queued) return 'waiting to be queued';
  const d = a.delivery;
  if (!d) return 'queued';
  if (d.status === 'delivered') return `delivered ${new Date(d.delivered_at).toISOString()}`;
  if (d.status === 'retrying')
    return `retrying (${d.attempts} tries, ${d.last_error}; next ${new Date(d.next_attempt_at).toISOString()})`;
  return `failed (${d.attempts} tries, ${d.last_error})`;
}

export const alertCommands = [
  {
    name: 'alerts list',
    operations: ['GET /admin/tenants/{id}/alerts'],
    usage: LIST_USAGE,
    help: "a tenant's fired budget alerts (its own and its keys'), newest first",
    async run(ctx) {
      const id = positional(ctx, 0, 'tenant_id', LIST_USAGE);
      const q = ctx.opts.limit === undefined ? '' : `?limit=${encodeURIComponent(ctx.opts.limit)}`;
      const r = await ctx.call('GET', `/tenants/${encodeURIComponent(id)}/alerts${q}`);
      ctx.show(r, () => ctx.table(r.data, ALERT_COLUMNS));
    },
  },
  {
    name: 'alerts secret',
    operations: ['GET /admin/tenants/{id}/alert-secret'],
    usage: SECRET_USAGE,
    help: "the secret a tenant's webhook receiver checks alert signatures with",
    async run(ctx) {
      const id = positional(ctx, 0, 'tenant_id', SECRET_USAGE);
      const r = await ctx.call('GET', `/tenants/${encodeURIComponent(id)}/alert-secret`);
      ctx.show(r, () => console.log(r.secret));
    },
  },
];
