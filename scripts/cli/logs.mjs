// `logs list` and `logs get`: request logs, newest first, filtered like GET /admin/logs; one page at a time
// (--cursor takes the next_cursor printed under the page).
import { positional } from './util.mjs';

const LIST_USAGE =
  'logs list [--tenant <id>] [--key <id>] [--model <m>] [--route <name>] [--status 429|5xx|error|ok]\n' +
  '      [--cache hit|miss|…] [--from <date>] [--to <date>] [--limit 1-100] [--cursor <c>]';
const GET_USAGE = 'logs get <request_id> [--tenant <tenant_id>]';

/** Flag → query parameter; the API checks every value. */
const FILTERS = {
  tenant: 'tenant_id',
  key: 'key_id',
  model: 'model',
  route: 'route',
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
  ['KEY', (l) => l.key_id ?? '-'],
  ['MODEL', (l) => l.model ?? '-'],
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
    help: 'one request log by its x-edgeway-request-id, payload included',
    async run(ctx) {
      const id = positional(ctx, 0, 'request_id', GET_USAGE);
      const scope = ctx.opts.tenant ? `?tenant_id=${encodeURIComponent(ctx.opts.tenant)}` : '';
      const log = await ctx.call('GET', `/logs/${encodeURIComponent(id)}${scope}`);
      ctx.show(log, () => console.log(JSON.stringify(log, null, 2)));
    },
  },
];

export const logOptions = {
  model: { type: 'string' },
  route: { type: 'string' },
  cache: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
};
