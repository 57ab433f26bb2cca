// `limits get` and `limits set`: a tenant's or key's limits and budgets, and the scopes below it. `get` shows
// them beside current use (GET /admin/limits/…) with the scope's status, and lists its end-user default,
// model rules and tag rules; `set` merges the flags into the stored ones and saves them with PATCH. With
// --end-user-default, --model <pattern> or --tag <key>[=<value>] it edits that rule instead (--remove drops it).
import { commaList, ownerOf } from './util.mjs';
import {
  applyRuleFlags,
  describeRule,
  downgradeFlag,
  REPORT_COLUMNS,
  RULE_FLAGS_USAGE,
  reportRows,
  ruleOptions,
  statusWords,
} from './scope-rules.mjs';

const GET_USAGE = 'limits get --tenant <tenant_id> | --key <key_id>';
const SET_USAGE =
  'limits set --tenant <tenant_id> | --key <key_id> [--end-user-default | --model <pattern> | --tag <key>[=<value>]]\n' +
  `      ${RULE_FLAGS_USAGE}\n` +
  '      [--max-tokens N] [--tag-keys a,b] [--clear] [--remove]';

function printScopes(owner) {
  const line = (label, text) => console.log(`${label.padEnd(18)} ${text}`);
  if ('end_users' in owner) line('end users', describeRule(owner.end_users));
  for (const m of owner.model_limits ?? []) line(`model ${m.match}`, describeRule(m));
  for (const t of owner.tag_limits ?? []) line(`tag ${t.tag}=${t.value ?? '*'}`, describeRule(t));
  if (owner.tag_keys?.length) line('tag keys', owner.tag_keys.join(', '));
  if (owner.downgrade) line('downgrade', `at ${owner.downgrade.at_percent}% → ${owner.downgrade.route}`);
}

function printReport(r, owner, table) {
  console.log(`Limits of ${r.scope} ${r.id} (tenant ${r.tenant_id}): ${statusWords(r.status)}`);
  table(reportRows(r), REPORT_COLUMNS);
  if (r.limits.max_tokens !== undefined) console.log(`max_tokens per request: ${r.limits.max_tokens}`);
  if (r.last_denial)
    console.log(
      `last refused: ${r.last_denial.kind} at ${new Date(r.last_denial.at).toISOString()} (${r.last_denial.count} so far)`,
    );
  printScopes(owner);
}

/** Which rule the flags edit: the owner's own limits, its end-user default, a model rule or a tag rule. */
function selectorOf({ opts, fail }, owner) {
  const chosen = [opts['end-user-default'], opts.model !== undefined, opts.tag !== undefined].filter(Boolean);
  if (chosen.length > 1) fail('give at most one of --end-user-default, --model, --tag');
  if ((opts['end-user-default'] || opts.tag !== undefined) && owner.kind !== 'tenants')
    fail('--end-user-default and --tag are set on a tenant (--tenant); a key takes --model rules');
  if (opts['end-user-default']) return { kind: 'end_users' };
  if (opts.model !== undefined) return { kind: 'model', match: opts.model };
  if (opts.tag !== undefined) {
    const [tag, ...rest] = opts.tag.split('=');
    return { kind: 'tag', tag, value: rest.length ? rest.join('=') : undefined };
  }
  return { kind: 'own' };
}

const sameTag = (rule, s) => rule.tag === s.tag && (rule.value ?? null) === (s.value ?? null);

/** The PATCH body for the edited rule (or, with --remove, without it). */
function patchFor(ctx, stored, selector) {
  const { opts, fail } = ctx;
  if (opts.remove) {
    if (selector.kind === 'own') fail('--remove drops a rule: give --end-user-default, --model or --tag');
    if (selector.kind === 'end_users') return { end_users: null };
    if (selector.kind === 'model')
      return { model_limits: stored.model_limits.filter((r) => r.match !== selector.match) };
    return { tag_limits: stored.tag_limits.filter((r) => !sameTag(r, selector)) };
  }
  const tagKeys = opts['tag-keys'] === undefined ? {} : { tag_keys: commaList(opts['tag-keys']) };
  if (selector.kind === 'own') {
    const { rule, any } = applyRuleFlags(stored, ctx, { maxTokens: true });
    const downgrade = downgradeFlag(fail, opts.downgrade);
    if (!any && !tagKeys.tag_keys)
      fail(`nothing to change: give a limit, a budget or --clear\n\n${SET_USAGE}`);
    return {
      limits: rule.limits,
      budgets: rule.budgets,
      ...(downgrade === undefined ? {} : { downgrade }),
      ...tagKeys,
    };
  }
  const edit = (current) => {
    const { rule, any } = applyRuleFlags(current, ctx, { maxTokens: false });
    if (!any && current)
      fail(`nothing to change: give a limit, a budget, --clear or --remove\n\n${SET_USAGE}`);
    return rule;
  };
  if (selector.kind === 'end_users') return { end_users: edit(stored.end_users), ...tagKeys };
  if (selector.kind === 'model') {
    const rules = stored.model_limits ?? [];
    const i = rules.findIndex((r) => r.match === selector.match);
    const rule = { match: selector.match, ...edit(rules[i]) };
    return { model_limits: i < 0 ? [...rules, rule] : rules.with(i, rule), ...tagKeys };
  }
  const rules = stored.tag_limits ?? [];
  const i = rules.findIndex((r) => sameTag(r, selector));
  const head = { tag: selector.tag, ...(selector.value === undefined ? {} : { value: selector.value }) };
  const rule = { ...head, ...edit(rules[i]) };
  return { tag_limits: i < 0 ? [...rules, rule] : rules.with(i, rule), ...tagKeys };
}

export const limitCommands = [
  {
    name: 'limits get',
    operations: [
      'GET /admin/limits/tenants/{id}',
      'GET /admin/limits/keys/{id}',
      'GET /admin/tenants/{id}',
      'GET /admin/keys/{id}',
    ],
    usage: GET_USAGE,
    help: 'limits and budgets beside current use and what remains, the status, and the scopes below',
    async run(ctx) {
      const owner = ownerOf(ctx, GET_USAGE);
      const id = encodeURIComponent(owner.id);
      const [r, stored] = await Promise.all([
        ctx.call('GET', `/limits/${owner.kind}/${id}`),
        ctx.call('GET', `/${owner.kind}/${id}`),
      ]);
      ctx.show(r, () => printReport(r, stored, ctx.table));
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
    help:
      "merges into the stored limits and budgets ('none' removes one; --clear starts from none); with " +
      '--end-user-default (every end user unless overridden), --model or --tag the rule of that scope ' +
      '(--remove drops it); --downgrade 90:cheap sends requests to route cheap at 90 % of a budget',
    async run(ctx) {
      const owner = ownerOf(ctx, SET_USAGE);
      const path = `/${owner.kind}/${encodeURIComponent(owner.id)}`;
      const selector = selectorOf(ctx, owner);
      const stored = await ctx.call('GET', path);
      const saved = await ctx.call('PATCH', path, patchFor(ctx, stored, selector));
      ctx.show(saved, () => {
        console.log(`Saved the limits of ${owner.what}.`);
        console.log(`${'own'.padEnd(18)} ${describeRule(saved)}`);
        printScopes(saved);
      });
    },
  },
];

export const limitOptions = {
  ...ruleOptions,
  'end-user-default': { type: 'boolean' },
  tag: { type: 'string' },
  'tag-keys': { type: 'string' },
  remove: { type: 'boolean' },
};
