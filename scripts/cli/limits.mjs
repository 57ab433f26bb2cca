// `limits get` and `limits set`: a tenant's or key's limits and budgets. `get` shows them beside current use
// (GET /admin/limits/…); `set` merges the flags into the stored ones and saves them with PATCH.
import { numberFlag, ownerOf } from './util.mjs';

const GET_USAGE = 'limits get --tenant <tenant_id> | --key <key_id>';
const SET_USAGE =
  'limits set --tenant <tenant_id> | --key <key_id> [--rpm N] [--tpm N] [--concurrent N] [--max-tokens N]\n' +
  '      [--usd-day N] [--usd-month N] [--usd-total N] [--tokens-day N] [--tokens-month N] [--tokens-total N]\n' +
  '      [--clear]';

const LIMIT_FLAGS = { rpm: 'rpm', tpm: 'tpm', concurrent: 'concurrent', 'max-tokens': 'max_tokens' };
const BUDGET_FLAGS = ['usd', 'tokens'].flatMap((unit) =>
  ['day', 'month', 'total'].map((period) => ({ flag: `${unit}-${period}`, unit, period })),
);

const dash = (v) => (v == null ? '-' : String(v));

function printReport(r, table) {
  console.log(`Limits of ${r.scope} ${r.id} (tenant ${r.tenant_id})`);
  table(
    [
      {
        what: 'requests / minute',
        limit: r.requests.limit,
        used: r.requests.used,
        left: r.requests.remaining,
      },
      { what: 'tokens / minute', limit: r.tokens.limit, used: r.tokens.used, left: r.tokens.remaining },
      { what: 'in flight', limit: r.concurrent.limit, used: r.concurrent.in_flight, left: null },
      ...['usd', 'tokens'].flatMap((unit) =>
        ['day', 'month', 'total'].map((period) => {
          const b = r.budget_usage[unit][period];
          return {
            what: `${unit} budget, ${b.period}`,
            limit: b.limit,
            used: b.spent + b.reserved,
            left: b.remaining,
          };
        }),
      ),
    ],
    [
      ['LIMIT', (row) => row.what],
      ['SET', (row) => dash(row.limit)],
      ['USED', (row) => dash(row.used)],
      ['REMAINING', (row) => dash(row.left)],
    ],
  );
  if (r.limits.max_tokens !== undefined) console.log(`max_tokens per request: ${r.limits.max_tokens}`);
}

/** The stored limits and budgets with the flags applied; `none` removes a value. */
function merged(stored, ctx) {
  const { opts, fail } = ctx;
  const limits = opts.clear ? {} : { ...stored.limits };
  const budgets = opts.clear ? {} : structuredClone(stored.budgets ?? {});
  let any = Boolean(opts.clear);
  for (const [flag, field] of Object.entries(LIMIT_FLAGS)) {
    const value = numberFlag(fail, flag, opts[flag]);
    if (value === undefined) continue;
    any = true;
    if (value === null) delete limits[field];
    else limits[field] = value;
  }
  for (const { flag, unit, period } of BUDGET_FLAGS) {
    const value = numberFlag(fail, flag, opts[flag]);
    if (value === undefined) continue;
    any = true;
    budgets[unit] = { ...budgets[unit] };
    if (value === null) delete budgets[unit][period];
    else budgets[unit][period] = value;
    if (Object.keys(budgets[unit]).length === 0) delete budgets[unit];
  }
  if (!any) fail(`nothing to change: give a limit, a budget or --clear\n\n${SET_USAGE}`);
  return { limits, budgets };
}

export const limitCommands = [
  {
    name: 'limits get',
    operations: ['GET /admin/limits/tenants/{id}', 'GET /admin/limits/keys/{id}'],
    usage: GET_USAGE,
    help: 'limits and budgets beside current use and what remains',
    async run(ctx) {
      const owner = ownerOf(ctx, GET_USAGE);
      const r = await ctx.call('GET', `/limits/${owner.kind}/${encodeURIComponent(owner.id)}`);
      ctx.show(r, () => printReport(r, ctx.table));
    },
  },
  {
    name: 'limits set',
    operations: [
      'GET /admin/tenants/{id}',
      'GET /admin/keys/{id}',
      'PATCH /admin/tenants/{id}',
      'PATCH /admin/keys/{id}',
    ],
    usage: SET_USAGE,
    help: "merges into the stored limits and budgets ('none' removes one; --clear starts from none)",
    async run(ctx) {
      const owner = ownerOf(ctx, SET_USAGE);
      const path = `/${owner.kind}/${encodeURIComponent(owner.id)}`;
      const stored = ctx.opts.clear ? { limits: {}, budgets: {} } : await ctx.call('GET', path);
      const saved = await ctx.call('PATCH', path, merged(stored, ctx));
      ctx.show(saved, () =>
        console.log(
          `Saved the limits of ${owner.what}: ${JSON.stringify(saved.limits)}, budgets ${JSON.stringify(saved.budgets)}`,
        ),
      );
    },
  },
];

export const limitOptions = Object.fromEntries(
  [...Object.keys(LIMIT_FLAGS), ...BUDGET_FLAGS.map((b) => b.flag)].map((flag) => [flag, { type: 'string' }]),
);
