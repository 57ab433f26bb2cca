/**
 * The hot-tenant section of the bench report (bench/lib/report.mjs calls it):
 * one table of steps per limits mode, then the two ledger checks.
 */
const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
/** Calls per request; below 0.01 also as "1 in N requests", which two decimals would hide. */
const perRequest = (v) =>
  !Number.isFinite(v)
    ? '–'
    : v > 0 && v < 0.01
      ? `${v.toPrecision(2)} (1 in ${Math.round(1 / v)})`
      : v.toFixed(2);
const int = (v) => (Number.isFinite(v) ? String(Math.round(v)) : '–');
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
const usd = (nanos) => `$${(nanos / 1e9).toFixed(6)}`;
/** Client-side failures after the warm-up, by kind: 0 is a timeout or a refused connection. */
const errorsOf = (s) => {
  const kinds = Object.entries(s.statuses ?? {})
    .filter(([status, n]) => status !== '200' && status !== '429' && n > 0)
    .map(
      ([status, n]) =>
        `${n} ${status === '0' ? 'timed out' : status === '503' ? '503 limiter_unavailable' : status}`,
    );
  return s.errors ? `${s.errors} (${kinds.join(', ')})` : '0';
};
const verdict = (c) =>
  c.violations.length
    ? `**OVER BUDGET**: ${c.violations.join('; ')}`
    : c.problems.length
      ? `within budget; ${c.problems.join('; ')}`
      : 'within budget; spent = settled, nothing held';

export function hotTenantSection(h) {
  const parts = [
    '## Hot tenant (limits stage alone, one Limiter object)',
    '',
    `One tenant's limited requests (reserve, answer, settle) through the real limits code and Limiter object, ` +
      `open loop spread over ${h.isolates} driver isolates (${h.layout === 'processes' ? 'each its own workerd process' : 'one workerd process'}) ` +
      `sharing one object; ${h.durationMs / 1000} s per rate. Object calls are counted per request the drivers handled.`,
  ];
  for (const m of Object.values(h.perMode)) {
    parts.push(
      '',
      `**LIMITS_LEASES=${m.leases}** — highest rate held with no errors: ${m.topSustainedRps ? `${m.topSustainedRps}/s` : 'none of those tried'}`,
      '',
      table(
        [
          'offered /s',
          'admitted /s',
          'p50 ms',
          'p99 ms',
          'refused',
          'errors',
          'object calls / request',
          'CPU ms / request',
        ],
        m.steps.map((s) => [
          int(s.targetRps),
          int(s.admittedRps),
          f1(s.latencyMs.p50),
          f1(s.latencyMs.p99),
          int(s.refused),
          errorsOf(s),
          perRequest(s.objectCallsPerRequest),
          f2(s.cpuMsPerRequest),
        ]),
      ),
      '',
      `- Ledger after the run: spent ${usd(m.ledger.spentNanos)}, drivers settled ${usd(m.ledger.settledNanos)} — ${verdict(m.ledger)}.`,
      `- Budget of ${usd(m.budget.check.budgetNanos)} (about half of what ${m.budget.rate}/s for the run asks): ` +
        `${m.budget.admitted} admitted, ${m.budget.refused} refused, ${m.budget.errors} errors; admitted spend stopped ` +
        `${usd(m.budget.check.stopShortNanos)} short (${f1((100 * m.budget.check.stopShortNanos) / m.budget.check.budgetNanos)} %, ` +
        `${f1(m.budget.check.stopShortNanos / m.budget.chargeNanos)} requests' worth) — ${verdict(m.budget.check)}.`,
    );
  }
  return parts.join('\n');
}

const reached = (h) =>
  h.topSustainedRps >= h.targetRps
    ? `reached: ${h.targetRps}/s held`
    : h.topSustainedRps
      ? `**not reached on this machine**: the highest rate held was ${h.topSustainedRps}/s`
      : '**not reached on this machine**: none of the rates tried was held';

const usersVerdict = (u, budget) =>
  [
    u.violations.length
      ? `**OVER BUDGET**: ${u.violations.slice(0, 5).join('; ')}`
      : 'no user over their budget',
    `${u.exact} of ${u.checked} sampled users' shard ledgers equal what the drivers settled for them, nothing held`,
    `${u.admittedExactlyBudget} of the ${u.overBudgetAsked} sampled users who asked for more than ${budget.requests} requests were admitted exactly ${budget.requests}`,
    ...u.problems.slice(0, 5),
  ].join('; ');

const ledgerRunLine = (h) => {
  const r = h.ledgerRun;
  const b = r.burst;
  return (
    `- Ledger run, on a fresh tenant at ${r.rate}/s for ${h.durationMs / 1000} s (${r.mix.distinctUsers.toLocaleString('en-US')} users): ` +
    `${int(r.step.admittedRps)}/s admitted, p50 ${f1(r.step.latencyMs.p50)} ms, p99 ${f1(r.step.latencyMs.p99)} ms, ${errorsOf(r.step)} errors; ` +
    `before it ${b.users} new users sent ${b.perUser} requests each, ${b.concurrency} at a time from each driver: ` +
    `${b.statuses[200] ?? 0} admitted, ${b.statuses[429] ?? 0} refused, ${Object.entries(b.statuses)
      .filter(([st]) => st !== '200' && st !== '429')
      .reduce((a, [, v]) => a + v, 0)} errors. The ledgers below are this run's.`
  );
};

/** The hot tenant with end users (bench/lib/workloads/hot-tenant-users.mjs): one table of steps, the user mix, the ledgers. */
export function hotTenantUsersSection(h) {
  const m = h.mix;
  return [
    `## Hot tenant with end users (limits stage alone, ${h.shards} user shards)`,
    '',
    `One tenant (its own $${h.tenantUsd}/day budget, on leases) whose ${m.users.toLocaleString('en-US')} end users are each held to ` +
      `${h.budget.requests} requests and $${h.budget.nanos / 1e9} a day; every request reserves in the tenant's object and in its user's shard ` +
      `(one of ${h.shards} Limiter objects), through the real limits code. Open loop spread over ${h.isolates} driver isolates ` +
      `(${h.layout === 'processes' ? 'each its own workerd process' : 'one workerd process'}); every Limiter object, the shards included, ` +
      `runs in the one host process. ${h.durationMs / 1000} s per rate, stopping at the first rate not held. Who each request is for: ` +
      `${Math.round(m.heavyShare * 100)} % to ${m.heavyUsers} heavy users, the rest to each user in turn over a seeded shuffle of all ${m.users.toLocaleString('en-US')}.`,
    '',
    `Target ${h.targetRps}/s — ${reached(h)}.`,
    '',
    table(
      [
        'offered /s',
        'admitted /s',
        'answered /s',
        'refused (user over budget)',
        'p50 ms',
        'p99 ms',
        'errors',
        'object calls / request',
        'calls per shard, min…max (max/min)',
        'busiest shard calls /s',
        'tenant object calls',
        'CPU ms / request',
      ],
      h.steps.map((s) => [
        int(s.targetRps),
        int(s.admittedRps),
        int(s.answeredRps),
        int(s.refused),
        f1(s.latencyMs.p50),
        f1(s.latencyMs.p99),
        errorsOf(s),
        perRequest(s.objectCallsPerRequest),
        `${s.shards.min}…${s.shards.max} (${f2(s.shards.maxOverMin)})`,
        int(s.busiestShardCallsPerS),
        int(s.shards.tenantObject),
        f2(s.cpuMsPerRequest),
      ]),
    ),
    '',
    `- Users reached: ${m.distinctUsers.toLocaleString('en-US')} distinct in ${m.requests.toLocaleString('en-US')} requests (median ${m.medianPerUser} a user, most ${m.maxPerUser}).`,
    ledgerRunLine(h),
    `- Tenant ledger: spent ${usd(h.tenantLedger.spentNanos)}, drivers settled ${usd(h.tenantLedger.settledNanos)} — ${verdict(h.tenantLedger)}.`,
    `- End users: ${usersVerdict(h.users, h.budget)}.`,
  ].join('\n');
}
