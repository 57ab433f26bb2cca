// `usage`: the usage rollups (GET /admin/usage) per day (default), per model, or for one tenant its top end
// users or tag values by spend: `--by end-user --tenant X --top 20 --search u_`, `--by tag --tag team`.
// Without --by day, the table lists the groups, costliest first for end users and tags; the totals line
// covers every group that matched, not only the ones shown. Guardrail counts per day follow the day view.

const USAGE_USAGE =
  'usage [--tenant <tenant_id>] [--key <key_id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD]\n' +
  '      [--by day|model|end-user|tag] [--tag <key>] [--top 1-500] [--search <prefix>]';

/** --by → group_by. */
const GROUPS = { day: 'day', model: 'model', 'end-user': 'end_user', tag: 'tag' };

const FIGURES = [
  ['REQUESTS', (d) => d.requests],
  ['CACHE HITS', (d) => d.cache_hits],
  ['TOKENS IN', (d) => d.input_tokens],
  ['TOKENS OUT', (d) => d.output_tokens],
  ['COST USD', (d) => d.cost_usd.toFixed(6)],
  ['ERRORS', (d) => d.errors],
];

/** The first column(s) of each view. */
const FIRST = {
  day: [['DAY', (d) => d.day]],
  model: [['MODEL', (d) => d.model ?? '(none)']],
  end_user: [['END USER', (d) => d.end_user]],
  tag: [
    ['TAG', (d) => d.tag],
    ['VALUE', (d) => d.value],
  ],
};

const GUARDRAIL_DAY_COLUMNS = [
  ['DAY', (g) => g.day],
  ['GUARDRAIL', (g) => g.guardrail],
  ['FIRED', (g) => g.fired],
  ['BLOCKED', (g) => g.blocked],
  ['REDACTED', (g) => g.redacted],
];

/** Flag → query parameter; the API checks every value. */
const PARAMS = {
  tenant: 'tenant_id',
  key: 'key_id',
  from: 'from',
  to: 'to',
  tag: 'tag',
  top: 'limit',
  search: 'search',
};

function scopeLine(r) {
  const scope = [
    r.tenant_id ? `tenant ${r.tenant_id}` : null,
    r.key_id ? `key ${r.key_id}` : null,
    r.search ? `ids starting '${r.search}'` : null,
  ].filter(Boolean);
  return `Usage ${r.from} to ${r.to} (UTC)${scope.length ? `, ${scope.join(', ')}` : ''}`;
}

function print(ctx, r) {
  const { table } = ctx;
  const t = r.totals;
  console.log(scopeLine(r));
  const rows = r.group_by === 'day' ? r.data.filter((d) => d.requests > 0) : r.data;
  table(rows, [...FIRST[r.group_by], ...FIGURES]);
  if (r.group_by === 'end_user' || r.group_by === 'tag') {
    const what = r.group_by === 'tag' ? (r.tag ? `values of ${r.tag}` : 'tag values') : 'end users';
    console.log(
      r.has_more
        ? `top ${r.data.length} of ${r.groups} ${what}; totals cover all ${r.groups}`
        : `${r.groups} ${what}`,
    );
    if (r.group_by === 'tag')
      console.log(`tag keys: ${r.tag_keys.length ? r.tag_keys.join(', ') : '(none in this range)'}`);
  }
  console.log(`total: ${t.requests} requests, ${t.errors} errors, $${t.cost_usd.toFixed(6)}`);
  if (r.group_by === 'day') {
    console.log('\nGuardrails per day');
    table(r.guardrails, GUARDRAIL_DAY_COLUMNS);
  }
}

export const usageCommands = [
  {
    name: 'usage',
    operations: ['GET /admin/usage'],
    usage: USAGE_USAGE,
    help: "per day (with guardrail counts) or per model; a tenant's top end users or tag values by spend",
    async run(ctx) {
      const by = ctx.opts.by ?? 'day';
      const group = GROUPS[by];
      if (!group) ctx.fail(`--by: expected day, model, end-user or tag, got '${by}'\n\n${USAGE_USAGE}`);
      if ((group === 'end_user' || group === 'tag') && !ctx.opts.tenant)
        ctx.fail(`--by ${by} needs --tenant <tenant_id> (end users and tags are a tenant's own)`);
      const q = new URLSearchParams({ group_by: group });
      for (const [flag, param] of Object.entries(PARAMS))
        if (ctx.opts[flag] !== undefined) q.set(param, ctx.opts[flag]);
      const r = await ctx.call('GET', `/usage?${q}`);
      ctx.show(r, () => print(ctx, r));
    },
  },
];

export const usageOptions = {
  by: { type: 'string' },
  tag: { type: 'string' },
  top: { type: 'string' },
  search: { type: 'string' },
};
