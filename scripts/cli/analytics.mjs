// `analytics`: the analytics rollups (GET /admin/analytics) for a preset range ending now (--range 1h, 24h,
// 7d, 30d; default 24h) or --from/--to: totals, latency and TTFT percentiles per model (or --by provider,
// route), the costliest tenants, keys, models and end users with an "other" row, and failed lookups.
// `--csv <table>` writes one table as CSV instead (GET /admin/analytics/export.csv), to stdout or --out.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const ANALYTICS_USAGE =
  'analytics [--range 1h|24h|7d|30d | --from <ISO|ms> [--to <ISO|ms>]] [--tenant <tenant_id>] [--key <key_id>]\n' +
  '      [--by model|provider|route] [--top 1-100] [--csv series|latency|tenants|keys|models|end_users|lookup_failures|refused_keys] [--out <file>]';

/** Flag → query parameter; the API checks every value. */
const PARAMS = {
  range: 'range',
  from: 'from',
  to: 'to',
  tenant: 'tenant_id',
  key: 'key_id',
  by: 'group_by',
  top: 'top',
};

const ms = (v) => (v === null ? '-' : v < 10 ? v.toFixed(2) : String(Math.round(v)));
const usd = (v) => v.toFixed(6);

const LATENCY_COLUMNS = [
  ['REQUESTS', (r) => r.requests],
  ['ERRORS', (r) => r.errors],
  ['P50 MS', (r) => ms(r.latency_p50_ms)],
  ['P95 MS', (r) => ms(r.latency_p95_ms)],
  ['P99 MS', (r) => ms(r.latency_p99_ms)],
  ['TTFT P50', (r) => ms(r.ttft_p50_ms)],
  ['TTFT P95', (r) => ms(r.ttft_p95_ms)],
];

const TOP_COLUMNS = [
  ['REQUESTS', (r) => r.requests],
  ['TOKENS', (r) => r.tokens],
  ['COST USD', (r) => usd(r.cost_usd)],
];

function printTop(ctx, title, top) {
  console.log(`\n${title}`);
  if (!top) return console.log("(end users are each tenant's own: give --tenant, without --key)");
  const rows = [...top.rows];
  if (top.other) rows.push({ name: `(other: ${top.other.groups})`, ...top.other });
  ctx.table(rows, [['NAME', (r) => r.name], ...TOP_COLUMNS]);
}

function print(ctx, r) {
  const t = r.totals;
  const rate = (n) => (t.requests ? `${((100 * n) / t.requests).toFixed(1)}%` : '-');
  const scope = [r.tenant_id ? `tenant ${r.tenant_id}` : null, r.key_id ? `key ${r.key_id}` : null].filter(
    Boolean,
  );
  console.log(
    `Analytics ${ctx.time(r.from)} to ${ctx.time(r.to)} (${r.range}, ${r.granularity} buckets)${scope.length ? `, ${scope.join(', ')}` : ''}`,
  );
  console.log(
    `${t.requests} requests, errors ${rate(t.errors)} (4xx ${t.status_4xx}, 5xx ${t.status_5xx}, stream ${t.stream_errors}; ` +
      `gateway ${t.err_gateway}, provider ${t.err_provider}, client ${t.err_client}), cache hits ${rate(t.cache_hits)}, ` +
      `denials ${t.denials}, $${usd(t.cost_usd)}, ${t.input_tokens + t.output_tokens} tokens`,
  );
  console.log(`\nLatency per ${r.group_by}`);
  ctx.table(r.latency, [[r.group_by.toUpperCase(), (x) => x.name], ...LATENCY_COLUMNS]);
  printTop(ctx, 'Cost per tenant', r.top.tenant);
  printTop(ctx, 'Cost per key', r.top.key);
  printTop(ctx, 'Cost per model', r.top.model);
  printTop(ctx, `Cost per end user (UTC days ${r.days.from} to ${r.days.to})`, r.top.end_user);
  console.log(`\nFailed lookups (UTC days ${r.days.from} to ${r.days.to})`);
  ctx.table(r.lookup_failures, [
    ['MODEL', (f) => f.model || '(none)'],
    ['CODE', (f) => f.error_code],
    ['REQUESTS', (f) => f.requests],
    ['TENANT', (f) => f.tenant_id],
    ['KEY', (f) => f.key_id],
    ['LAST SEEN', (f) => ctx.time(f.last_seen)],
  ]);
  console.log('\nKeys refused by a limit or budget');
  ctx.table(r.refused_keys, [
    ['KEY', (k) => (r.names.keys[k.key_id] ? `${r.names.keys[k.key_id]} (${k.key_id})` : k.key_id)],
    ['REFUSED', (k) => k.denials],
    ['OF REQUESTS', (k) => k.requests],
    ['TENANT', (k) => k.tenant_id],
  ]);
}

export const analyticsCommands = [
  {
    name: 'analytics',
    operations: ['GET /admin/analytics', 'GET /admin/analytics/export.csv'],
    usage: ANALYTICS_USAGE,
    help: 'latency/TTFT percentiles, errors, cache hits, top-N cost with "other", failed lookups; --csv for one table',
    async run(ctx) {
      const q = new URLSearchParams();
      for (const [flag, param] of Object.entries(PARAMS))
        if (ctx.opts[flag] !== undefined) q.set(param, ctx.opts[flag]);
      if (ctx.opts.csv === undefined) {
        const r = await ctx.call('GET', `/analytics?${q}`);
        return ctx.show(r, () => print(ctx, r));
      }
      q.set('table', ctx.opts.csv);
      const path = `/analytics/export.csv?${q}`;
      const res = await ctx.send('GET', path);
      if (!res.ok) ctx.fail(ctx.refusal('GET', path, res, await res.json().catch(() => null)));
      const sink = ctx.opts.out === undefined ? process.stdout : createWriteStream(ctx.opts.out);
      await pipeline(Readable.fromWeb(res.body), sink);
    },
  },
];

export const analyticsOptions = {
  range: { type: 'string' },
  by: { type: 'string' },
  top: { type: 'string' },
  csv: { type: 'string' },
  out: { type: 'string' },
};
