// `routes health <route_id|name> [--tenant <tenant_id>]`: each target of a route with its status, its
// circuit breakers (state, since when) and its fallback rate over the last hour and 24 h, from
// GET /admin/routes/{id}/health. A name is looked up among the global routes, or --tenant's own.
// Unhealthy targets (open, half-open, failing) are marked `!`; the exit code is 3 when there is one.
import { positional } from './util.mjs';

const USAGE = 'routes health <route_id|name> [--tenant <tenant_id>]';

const pct = (rate) => (rate == null ? '-' : `${Math.round(rate * 100)}%`);

/** The route id a name stands for (the API pages at most 100 a call). */
async function routeId(ctx, ref) {
  if (ref.startsWith('rte_')) return ref;
  const scope = ctx.opts.tenant ?? 'global';
  let cursor = null;
  do {
    const q = `tenant_id=${encodeURIComponent(scope)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await ctx.call('GET', `/routes?${q}`);
    const hit = page.data.find((r) => r.name === ref);
    if (hit) return hit.id;
    cursor = page.next_cursor;
  } while (cursor);
  return ctx.fail(`no ${ctx.opts.tenant ? `route of tenant ${scope}` : 'global route'} named '${ref}'`);
}

function breakerText(t, time) {
  if (t.breaker_unavailable && t.breakers.length === 0) return 'unknown';
  return t.breakers
    .map((b) => {
      const scope = b.scope === 'tenant' ? ' (tenant key)' : '';
      const since = b.since == null ? '' : ` since ${time(b.since)}`;
      return `${b.state}${scope}${since}`;
    })
    .join('; ');
}

const COLUMNS = (time) => [
  ['', (t) => (t.unhealthy ? '!' : '')],
  ['TARGET', (t) => (t.kind === 'route' ? `route ${t.model}` : t.model)],
  ['STATUS', (t) => t.status],
  ['BREAKER', (t) => breakerText(t, time) || '-'],
  ['FAILS 30S', (t) => t.breakers.map((b) => `${b.window_failures}/${b.window_calls}`).join(' ') || '-'],
  ['REQ 1H', (t) => t.last_hour?.requests ?? '-'],
  ['FALLBACK 1H', (t) => pct(t.last_hour?.fallback_rate)],
  ['REQ 24H', (t) => t.last_24h?.requests ?? '-'],
  ['FALLBACK 24H', (t) => pct(t.last_24h?.fallback_rate)],
];

export const routeCommands = [
  {
    name: 'routes health',
    operations: ['GET /admin/routes', 'GET /admin/routes/{id}/health'],
    usage: USAGE,
    help: "each target's status, breaker state and fallback rate (last hour, 24 h); exit 3 if one is unhealthy",
    async run(ctx) {
      const id = await routeId(ctx, positional(ctx, 0, 'route_id|name', USAGE));
      const h = await ctx.call('GET', `/routes/${encodeURIComponent(id)}/health`);
      ctx.show(h, () => {
        console.log(
          `Route ${h.route.name} (${h.route.id}, ${h.route.tenant_id ?? 'global'}): ${h.status}, ${h.unhealthy} unhealthy target(s)`,
        );
        ctx.table(h.targets, COLUMNS(ctx.time));
        const t = h.traffic;
        if (t)
          console.log(
            `Requests: ${t.requests.last_hour} in the last hour (${t.fell_back.last_hour} fell back), ${t.requests.last_24h} in 24 h (${t.fell_back.last_24h} fell back)` +
              (t.truncated
                ? `; only the newest ${t.rows} log rows were read (since ${ctx.time(t.oldest)})`
                : ''),
          );
      });
      if (h.unhealthy > 0) process.exitCode = 3;
    },
  },
];
