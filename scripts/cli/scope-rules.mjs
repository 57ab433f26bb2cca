// Limits, budgets and downgrades as the CLI edits them: one set of flags (--rpm, --usd-day, --requests-day,
// --downgrade 90:cheap …) merged into a stored rule, whether the rule is a tenant's or key's own, an end-user
// default or override, a model rule or a tag rule. `none` removes one value; --clear starts from nothing.
import { numberFlag } from './util.mjs';

export const LIMIT_FLAGS = { rpm: 'rpm', tpm: 'tpm', concurrent: 'concurrent', 'max-tokens': 'max_tokens' };
export const BUDGET_FLAGS = ['usd', 'tokens', 'requests'].flatMap((unit) =>
  ['day', 'month', 'total'].map((period) => ({ flag: `${unit}-${period}`, unit, period })),
);

export const RULE_FLAGS_USAGE =
  '[--rpm N] [--tpm N] [--concurrent N]\n' +
  '      [--usd-day N] [--usd-month N] [--usd-total N] [--tokens-day N] [--tokens-month N] [--tokens-total N]\n' +
  '      [--requests-day N] [--requests-month N] [--requests-total N] [--downgrade <percent>:<route> | none]';

/** `90:cheap` → {at_percent: 90, route: 'cheap'}; `none` → null; absent → undefined. */
export function downgradeFlag(fail, raw) {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  const m = /^(\d{1,3}):(.+)$/.exec(raw.trim());
  if (!m) fail(`--downgrade: expected <percent>:<route> (e.g. 90:cheap) or none, got '${raw}'`);
  return { at_percent: Number(m[1]), route: m[2] };
}

/**
 * The rule with the flags applied: `{limits, budgets, downgrade?}` and whether any flag was given.
 * `maxTokens`: whether --max-tokens applies (a tenant's or key's own limits; a scope rule has none).
 */
export function applyRuleFlags(stored, { opts, fail }, { maxTokens }) {
  const limits = opts.clear ? {} : { ...stored?.limits };
  const budgets = opts.clear ? {} : structuredClone(stored?.budgets ?? {});
  let downgrade = opts.clear ? undefined : (stored?.downgrade ?? undefined);
  let any = Boolean(opts.clear);
  for (const [flag, field] of Object.entries(LIMIT_FLAGS)) {
    const value = numberFlag(fail, flag, opts[flag]);
    if (value === undefined) continue;
    if (field === 'max_tokens' && !maxTokens)
      fail('--max-tokens is a tenant or key setting: an end user, model or tag rule has none');
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
  const given = downgradeFlag(fail, opts.downgrade);
  if (given !== undefined) {
    any = true;
    downgrade = given ?? undefined;
  }
  return { rule: { limits, budgets, ...(downgrade ? { downgrade } : {}) }, any };
}

const dash = (v) => (v == null ? '-' : String(v));

/** A rule in one line: `rpm 100 · usd/day 5 · requests/day 10 · downgrade at 90% → cheap`. */
export function describeRule(rule) {
  if (!rule) return 'not metered';
  const parts = [
    ...Object.entries(rule.limits ?? {}).map(([k, v]) => `${k} ${v}`),
    ...Object.entries(rule.budgets ?? {}).flatMap(([unit, periods]) =>
      Object.entries(periods).map(([p, v]) => `${unit}/${p} ${v}`),
    ),
    ...(rule.downgrade ? [`downgrade at ${rule.downgrade.at_percent}% → ${rule.downgrade.route}`] : []),
  ];
  return parts.length ? parts.join(' · ') : 'no limits';
}

/** The LIMIT/SET/USED/REMAINING rows of a usage report (GET /admin/limits/… or an end user's `usage`). */
export function reportRows(r) {
  return [
    { what: 'requests / minute', limit: r.requests.limit, used: r.requests.used, left: r.requests.remaining },
    { what: 'tokens / minute', limit: r.tokens.limit, used: r.tokens.used, left: r.tokens.remaining },
    { what: 'in flight', limit: r.concurrent.limit, used: r.concurrent.in_flight, left: null },
    ...['usd', 'tokens', 'requests'].flatMap((unit) =>
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
  ];
}

export const REPORT_COLUMNS = [
  ['LIMIT', (row) => row.what],
  ['SET', (row) => dash(row.limit)],
  ['USED', (row) => dash(row.used)],
  ['REMAINING', (row) => dash(row.left)],
];

/** The report's status as the dashboard's badge words it. */
export const statusWords = (status) => ({ near_limit: 'near limit' })[status] ?? status;

export const ruleOptions = Object.fromEntries(
  [...Object.keys(LIMIT_FLAGS), ...BUDGET_FLAGS.map((b) => b.flag), 'downgrade'].map((flag) => [
    flag,
    { type: 'string' },
  ]),
);
