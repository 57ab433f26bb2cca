// `logs list`, `logs get` and `logs export`: request logs, newest first, filtered and searched like
// GET /admin/logs (request id, model prefix `gpt-4*`, error code, metadata key=value, repeatable); one page
// at a time (--cursor takes the next_cursor printed under the page). `logs get` finds a request older than
// the recent index in the archive when given its --tenant. `logs export` pipes a tenant's NDJSON from
// the archive to stdout or --out as it arrives (any range in flat memory) and counts the lines on stderr.
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { positional } from './util.mjs';

const LIST_USAGE =
  'logs list [--tenant <id>] [--key <id>] [--model <m>|<prefix>*] [--route <name>] [--end-user <id>]\n' +
  '      [--request-id <id>] [--error-code <code>] [--meta key=value]… [--endpoint <path>] [--server <ns>]\n' +
  '      [--status 429|5xx|error|ok]' +
  ' [--cache hit|miss|…] [--from <date>] [--to <date>] [--limit 1-100] [--cursor <c>]';
const GET_USAGE = 'logs get <request_id> [--tenant <tenant_id>]';
const EXPORT_USAGE = 'logs export --tenant <tenant_id> --from <ISO|ms> [--to <ISO|ms>] [--out <file>]';

/** Flag → query parameter; the API checks every value. */
const FILTERS = {
  tenant: 'tenant_id',
  key: 'key_id',
  model: 'model',
  route: 'route',
  'end-user': 'end_user',
  'request-id': 'request_id',
  'error-code': 'error_code',
  endpoint: 'endpoint',
  server: 'server',
  status: 'status',
  cache: 'cache',
  from: 'from',
  to: 'to',
  limit: 'limit',
  cursor: 'cursor',
};

const LOG_COLUMNS = (time) => [
  ['REQUEST', (l) => l.id],
  ['TIME', (l) => time(l.time)],
  ['KEY', (l) => (l.key_name ? `${l.key_name} (${l.key_id})` : (l.key_id ?? '-'))],
  ['MODEL', (l) => l.model ?? '-'],
  ['END USER', (l) => l.end_user ?? '-'],
  ['STATUS', (l) => l.status],
  ['CACHE', (l) => l.cache ?? '-'],
  ['TOKENS', (l) => `${l.input_tokens}/${l.output_tokens}`],
  ['COST USD', (l) => l.cost_usd.toFixed(6)],
  ['MS', (l) => l.latency_ms],
];

export const logCommands = [
  {
    name: 'logs list',
    operations: ['GET /admin/logs'],
    usage: LIST_USAGE,
    help: 'request logs, newest first, one page',
    async run(ctx) {
      const q = new URLSearchParams();
      for (const [flag, param] of Object.entries(FILTERS))
        if (ctx.opts[flag] !== undefined) q.set(param, ctx.opts[flag]);
      for (const pair of ctx.opts.meta ?? []) q.append('meta', pair);
      const page = await ctx.call('GET', `/logs${q.size ? `?${q}` : ''}`);
      ctx.show(page, () => {
        ctx.table(page.data, LOG_COLUMNS(ctx.time));
        if (page.next_cursor) console.log(`more: --cursor ${page.next_cursor}`);
      });
    },
  },
  {
    name: 'logs get',
    operations: ['GET /admin/logs/{request_id}'],
    usage: GET_USAGE,
    help: 'one request log by its x-edgeway-request-id, payload included; --tenant finds older ones',
    async run(ctx) {
      const id = positional(ctx, 0, 'request_id', GET_USAGE);
      const scope = ctx.opts.tenant ? `?tenant_id=${encodeURIComponent(ctx.opts.tenant)}` : '';
      const path = `/logs/${encodeURIComponent(id)}${scope}`;
      const res = await ctx.send('GET', path);
      const log = await res.json().catch(() => null);
      if (!res.ok && log?.error?.param === 'tenant_id')
        ctx.fail(
          `request ${id} is not in the recent index: give --tenant <tenant_id> to look for it in the archive` +
            ` (${res.status} ${log.error.code})`,
        );
      if (!res.ok) ctx.fail(ctx.refusal('GET', path, res, log));
      ctx.show(log, () => console.log(JSON.stringify(log, null, 2)));
    },
  },
  {
    name: 'logs export',
    operations: ['GET /admin/logs/export'],
    usage: EXPORT_USAGE,
    help: "a tenant's raw logs for a time range from the archive, as NDJSON (line count on stderr)",
    async run(ctx) {
      const { tenant, from, to, out } = ctx.opts;
      if (!tenant || !from) ctx.fail(`give --tenant and --from\n\n${EXPORT_USAGE}`);
      const q = new URLSearchParams({ tenant_id: tenant, from });
      if (to !== undefined) q.set('to', to);
      const path = `/logs/export?${q}`;
      const res = await ctx.send('GET', path);
      if (!res.ok) ctx.fail(ctx.refusal('GET', path, res, await res.json().catch(() => null)));
      let lines = 0;
      const count = new Transform({
        transform(chunk, _encoding, done) {
          for (const byte of chunk) if (byte === 0x0a) lines += 1;
          done(null, chunk);
        },
      });
      const sink = out === undefined ? process.stdout : createWriteStream(out);
      await pipeline(Readable.fromWeb(res.body), count, sink);
      console.error(
        `${lines} ${lines === 1 ? 'log' : 'logs'} of tenant ${tenant}${out ? ` written to ${out}` : ''}`,
      );
    },
  },
];

export const logOptions = {
  model: { type: 'string' },
  route: { type: 'string' },
  'end-user': { type: 'string' },
  'request-id': { type: 'string' },
  'error-code': { type: 'string' },
  meta: { type: 'string', multiple: true },
  endpoint: { type: 'string' },
  server: { type: 'string' },
  cache: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  out: { type: 'string' },
};
