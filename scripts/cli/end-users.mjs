// `end-users get|set|delete|list`: one end user of a tenant — their override (their own limits and budgets in
// place of the tenant's end-user default, `limits set --end-user-default`), the rule in force and their usage —
// and the list of every override the tenant has set. `set` merges the flags into the user's override (or,
// with none yet, into an empty rule); setting one on a tenant that does not meter end users turns metering on.
import {
  applyRuleFlags,
  describeRule,
  REPORT_COLUMNS,
  RULE_FLAGS_USAGE,
  reportRows,
  statusWords,
} from './scope-rules.mjs';

const WHO = '--tenant <tenant_id> --user <end_user>';
const GET_USAGE = `end-users get ${WHO}`;
const SET_USAGE = `end-users set ${WHO} ${RULE_FLAGS_USAGE} [--clear]`;
const DELETE_USAGE = `end-users delete ${WHO}`;
const LIST_USAGE = 'end-users list --tenant <tenant_id> [--limit 1-1000]';

function userPath({ opts, fail }, usage) {
  if (!opts.tenant || !opts.user) fail(`give --tenant <tenant_id> and --user <end_user>\n\n${usage}`);
  return `/tenants/${encodeURIComponent(opts.tenant)}/end-users/${encodeURIComponent(opts.user)}`;
}

function printUser(v, table) {
  console.log(`End user ${v.user} of tenant ${v.tenant_id}: ${statusWords(v.usage.status)}`);
  console.log(`override           ${v.override ? describeRule(v.override) : '(none)'}`);
  console.log(`tenant default     ${describeRule(v.default)}`);
  console.log(
    `in force           ${v.metered ? describeRule(v.effective) : 'not metered (the tenant has no end_users)'}`,
  );
  table(reportRows(v.usage), REPORT_COLUMNS);
}

export const endUserCommands = [
  {
    name: 'end-users get',
    operations: ['GET /admin/tenants/{id}/end-users/{user}'],
    usage: GET_USAGE,
    help: "an end user's override, the tenant's default, the rule in force, and their usage",
    async run(ctx) {
      const v = await ctx.call('GET', userPath(ctx, GET_USAGE));
      ctx.show(v, () => printUser(v, ctx.table));
    },
  },
  {
    name: 'end-users set',
    operations: ['GET /admin/tenants/{id}/end-users/{user}', 'PUT /admin/tenants/{id}/end-users/{user}'],
    usage: SET_USAGE,
    help: "merges the flags into the end user's override ('none' removes one; --clear starts from none)",
    async run(ctx) {
      const path = userPath(ctx, SET_USAGE);
      const current = ctx.opts.clear ? null : (await ctx.call('GET', path)).override;
      const { rule, any } = applyRuleFlags(current, ctx, { maxTokens: false });
      if (!any) ctx.fail(`nothing to change: give a limit, a budget or --clear\n\n${SET_USAGE}`);
      const v = await ctx.call('PUT', path, rule);
      ctx.show(v, () => printUser(v, ctx.table));
    },
  },
  {
    name: 'end-users delete',
    operations: ['DELETE /admin/tenants/{id}/end-users/{user}'],
    usage: DELETE_USAGE,
    help: "removes the end user's override: the tenant's default applies to them again",
    async run(ctx) {
      const v = await ctx.call('DELETE', userPath(ctx, DELETE_USAGE));
      ctx.show(v, () =>
        console.log(`End user ${v.user} now follows the tenant's default: ${describeRule(v.effective)}`),
      );
    },
  },
  {
    name: 'end-users list',
    operations: ['GET /admin/tenants/{id}/end-users/overrides'],
    usage: LIST_USAGE,
    help: 'every end user of the tenant with an override, and the override',
    async run(ctx) {
      if (!ctx.opts.tenant) ctx.fail(`give --tenant <tenant_id>\n\n${LIST_USAGE}`);
      const q = ctx.opts.limit === undefined ? '' : `?limit=${encodeURIComponent(ctx.opts.limit)}`;
      const r = await ctx.call(
        'GET',
        `/tenants/${encodeURIComponent(ctx.opts.tenant)}/end-users/overrides${q}`,
      );
      ctx.show(r, () => {
        ctx.table(r.data, [
          ['USER', (o) => o.user],
          ['OVERRIDE', (o) => describeRule(o.rule)],
        ]);
        if (r.has_more) console.log('(more: raise --limit)');
      });
    },
  },
];

export const endUserOptions = { user: { type: 'string' } };
