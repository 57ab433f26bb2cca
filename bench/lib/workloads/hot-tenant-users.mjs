/**
 * Workload 8b: the hot tenant with end users. One tenant (its own usd budget on leases, as the hot
 * tenant's) whose 100,000 end users are each held to a default budget (bench/hot-tenant/request.ts:
 * END_USER_DEFAULT), driven open loop at rising rates up to 5,000 requests/s over the same driver
 * processes as workload 8, each request for one end user (a seeded mix: bench/hot-tenant/end-users.mjs).
 * Every request goes through the real durableLimiter to the tenant's object (leased) and to the user's
 * shard, one of 32 Limiter objects per tenant (src/limits/shards.ts). Per step: admitted and answered
 * rate, p50/p99 of the limits stage's answer, refusals (users over budget), errors, object calls per
 * request and per shard; the steps stop at the first rate not held.
 * Then the ledger run, on a fresh tenant so no request abandoned in an overload is still held: first a
 * burst of new users each sending more requests than their budget, several at a time (the race of a
 * new user's first concurrent requests), then open loop at the highest rate held; then the
 * tenant's ledger against what the drivers settled, and a sample of users' shard ledgers (the burst's
 * users and others) against what the drivers settled for each and against their budget.
 */
import { settle } from '../measure.mjs';
import { cpuMs } from '../procstat.mjs';
import { plannedCount } from '../rate.mjs';
import { bundle, pin } from '../stack.mjs';
import { ledgerCheck, mergeSamples, statsDelta, sumStats } from '../../hot-tenant/analysis.mjs';
import { CONFIG, startCluster } from '../../hot-tenant/cluster.mjs';
import {
  sampleUsers,
  userLedgerCheck,
  userMix,
  userPicker,
  usersStepSummary,
} from '../../hot-tenant/end-users.mjs';
import { driverJson, heldReleased, settledAll } from './hot-tenant.mjs';

/**
 * Sizes per bench mode. `sample`: users whose shard ledgers are checked. `heldWaitMs`: the longest wait
 * for the tenant's leased slices to come back before its ledger is read (LIMITS_LEASE_MS, 2 s).
 */
export const HOT_TENANT_USERS_PROFILES = {
  smoke: {
    isolates: 2,
    rates: [100],
    durationMs: 600,
    warmupMs: 100,
    warmupRequests: 20,
    sample: 20,
    heldWaitMs: 5000,
  },
  quick: {
    isolates: 4,
    rates: [50, 100, 250, 500, 1000, 2500, 5000],
    durationMs: 3000,
    warmupMs: 500,
    warmupRequests: 400,
    sample: 200,
    heldWaitMs: 5000,
  },
  full: {
    isolates: 4,
    rates: [50, 100, 250, 500, 1000, 2000, 3500, 5000],
    durationMs: 5000,
    warmupMs: 1000,
    warmupRequests: 1000,
    sample: 200,
    heldWaitMs: 6000,
  },
};

/** The target rate, and who the requests are for: 5 % to 10 heavy users, the rest in turn over 100,000. */
export const TARGET_RPS = 5000;
export const END_USER_MIX = { users: 100_000, heavyUsers: 10, heavyShare: 0.05, seed: 1 };
/**
 * The ledger run's burst: `users` new users, each sent `perUser` requests (past a budget of 50),
 * `concurrency` at a time from each driver, before its open loop.
 */
export const BURST = { users: 10, perUser: 60, concurrency: 4 };
const TENANT = 'hot-users';
const LEDGER_TENANT = 'hot-users-ledger';
const TENANT_USD = 1000;
const burstUser = (k) => `burst-${k}`;

export async function hotTenantUsersWorkload(ctx, { mode, cpus = null }) {
  const p = HOT_TENANT_USERS_PROFILES[mode];
  const script = bundle(CONFIG, 'hot-tenant');
  const cluster = await startCluster(script, { isolates: p.isolates, vars: { LIMITS_LEASES: 'on' } });
  for (const pid of cluster.pids) pin(pid, cpus);
  try {
    return await run(ctx, cluster, p);
  } catch (err) {
    err.message += `\n--- workerd output (tail) ---\n${cluster.output().slice(-2000)}`;
    throw err;
  } finally {
    await cluster.dispose();
  }
}

async function run(ctx, cluster, p) {
  const { urls, pids } = cluster;
  const n = urls.length;
  const cpuNow = () => {
    const each = pids.map(cpuMs);
    return each.includes(null) ? null : each.reduce((a, v) => a + v, 0);
  };
  const stats = async () => sumStats(await Promise.all(urls.map((u) => driverJson(`${u}/__stats`))));
  const { charge, endUsers } = await driverJson(`${urls[0]}/__stats`);
  const budget = {
    requests: endUsers.default.budgets.requests.day,
    nanos: Math.round(endUsers.default.budgets.usd.day * 1e9),
  };
  const url = (u, tenant) => `${u}/users?tenant=${tenant}&usd=${TENANT_USD}`;
  /** Request bodies for `count` requests from `picker`, each counted in `sent` (id → requests). */
  const bodiesFrom = (picker, sent) => (count) =>
    Array.from({ length: count }, () => {
      const user = picker.next();
      sent.set(user, (sent.get(user) ?? 0) + 1);
      return JSON.stringify({ user });
    });

  const sent = new Map();
  const bodies = bodiesFrom(userPicker(END_USER_MIX), sent);
  const warm = Math.ceil(p.warmupRequests / n);
  await Promise.all(
    urls.map((u) =>
      ctx.loadgen.run({
        mode: 'closed',
        url: url(u, TENANT),
        bodies: bodies(warm),
        requests: warm,
        concurrency: 2,
        timeout_ms: 10_000,
      }),
    ),
  );
  await settledAll(stats);

  /** One open-loop step at `rate` in all for `tenant`; waits until every admitted request settled. */
  const step = async (rate, tenant, nextBodies) => {
    const before = await stats();
    const cpuBefore = cpuNow();
    const results = await Promise.all(
      urls.map((u) =>
        ctx.loadgen.run({
          mode: 'open',
          url: url(u, tenant),
          bodies: nextBodies(plannedCount(rate / n, p.durationMs)),
          rate: rate / n,
          duration_ms: p.durationMs,
          timeout_ms: 2000,
          max_in_flight: 1000,
        }),
      ),
    );
    const after = await settledAll(stats);
    await settle(pids);
    const cpuAfter = cpuNow();
    const delta = statsDelta(after, before);
    const s = usersStepSummary({
      samples: mergeSamples(results),
      rate,
      durationMs: p.durationMs,
      warmupMs: p.warmupMs,
      delta,
      tenant,
      shards: endUsers.shards,
    });
    const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    s.cpuMsPerRequest = cpu === null || !delta.requests ? null : cpu / delta.requests;
    s.busiestShardCallsPerS = s.shards.max / (p.durationMs / 1000);
    return { s, delta };
  };

  const steps = [];
  for (const rate of p.rates) {
    const { s } = await step(rate, TENANT, bodies);
    ctx.log(
      `  hot tenant, end users · ${rate}/s → ${Math.round(s.admittedRps)}/s admitted, ${s.refused} refused, p99 ${s.latencyMs.p99?.toFixed(1)} ms, ${s.errors} errors, ${s.objectCallsPerRequest?.toFixed(2)} object calls/request, shard calls ${s.shards.min}…${s.shards.max}`,
    );
    steps.push(s);
    // Past the first rate not held the object queues only grow; later steps would measure the backlog.
    if (!s.sustained) break;
  }
  const topSustainedRps = Math.max(0, ...steps.filter((s) => s.sustained).map((s) => s.targetRps));

  // The ledger run, on a fresh tenant: the burst, then open loop at the highest rate held (the lowest
  // tried if none was). Both are in the ledgers checked.
  const ledgerSent = new Map();
  const ledgerRate = topSustainedRps || p.rates[0];
  const perDriver = Math.ceil((BURST.users * BURST.perUser) / n);
  const ledgerBefore = await stats();
  const burstResults = await Promise.all(
    urls.map((u, d) =>
      ctx.loadgen.run({
        mode: 'closed',
        url: url(u, LEDGER_TENANT),
        bodies: Array.from({ length: perDriver }, (_, i) => {
          const user = burstUser((d * perDriver + i) % BURST.users);
          ledgerSent.set(user, (ledgerSent.get(user) ?? 0) + 1);
          return JSON.stringify({ user });
        }),
        requests: perDriver,
        concurrency: BURST.concurrency,
        timeout_ms: 10_000,
      }),
    ),
  );
  const burstStatuses = {};
  for (const r of burstResults)
    for (const st of r.samples.status) burstStatuses[st] = (burstStatuses[st] ?? 0) + 1;
  await settledAll(stats);
  await settle(pids);
  const ledgerStep = await step(
    ledgerRate,
    LEDGER_TENANT,
    bodiesFrom(userPicker({ users: END_USER_MIX.users, seed: END_USER_MIX.seed + 1 }), ledgerSent),
  );

  const tenantLedger = ledgerCheck({
    ledger: await heldReleased(urls[0], LEDGER_TENANT, p.heldWaitMs),
    budgetNanos: TENANT_USD * 1e9,
    settled: statsDelta(await stats(), ledgerBefore).settled,
  });
  const sample = sampleUsers(ledgerSent, {
    first: Array.from({ length: BURST.users }, (_, k) => burstUser(k)),
    size: p.sample,
  });
  const settledBy = await Promise.all(
    urls.map((u) =>
      fetch(`${u}/__users?tenant=${LEDGER_TENANT}`, { method: 'POST', body: JSON.stringify(sample) }).then(
        (r) => r.json(),
      ),
    ),
  );
  const rows = [];
  for (const user of sample) {
    const settled = { count: 0, tokens: 0, nanos: 0 };
    for (const d of settledBy) for (const k of Object.keys(settled)) settled[k] += d[user][k];
    const state = await driverJson(
      `${urls[0]}/__userdump?tenant=${LEDGER_TENANT}&user=${encodeURIComponent(user)}`,
    );
    rows.push({ user, sent: ledgerSent.get(user), ledger: state.dump.state.ledger.day, settled });
  }
  const users = userLedgerCheck(rows, budget);
  ctx.log(
    `  hot tenant, end users · ledger run at ${ledgerRate}/s: ${ledgerStep.s.errors} errors; ${users.exact} of ${users.checked} sampled users exact, ${users.admittedExactlyBudget} of ${users.overBudgetAsked} who asked past the budget admitted exactly ${budget.requests}; tenant ${tenantLedger.ok ? 'exact' : 'not exact'}`,
  );
  return {
    isolates: n,
    layout: cluster.layout,
    durationMs: p.durationMs,
    targetRps: TARGET_RPS,
    topSustainedRps,
    mix: { ...END_USER_MIX, ...userMix(sent) },
    budget,
    tenantUsd: TENANT_USD,
    shards: endUsers.shards,
    chargeNanos: charge.nanos,
    steps,
    ledgerRun: {
      rate: ledgerRate,
      step: ledgerStep.s,
      mix: userMix(ledgerSent),
      burst: { ...BURST, statuses: burstStatuses },
    },
    tenantLedger,
    users,
  };
}
