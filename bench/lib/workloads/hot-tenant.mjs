/**
 * Workload 8: one hot tenant. Open-loop load at rising rates, spread evenly
 * over several driver isolates (bench/hot-tenant) that share one Limiter
 * object, once per limits mode (LIMITS_LEASES off: one reserve and one settle
 * round trip per request; on: isolates spend leased slices locally). Measures
 * the limits stage alone through the real code and a real Durable Object: the
 * whole gateway cannot be driven at these rates on a small machine. Per step:
 * admitted rate, p50/p99 of the driver's answer, refusals, errors and object
 * calls per request. Then two ledger checks: the hot tenant's ledger against
 * what the drivers settled, and a second tenant whose budget runs out mid-run.
 */
import { cpuMs } from '../procstat.mjs';
import { settle } from '../measure.mjs';
import { bundle, pin } from '../stack.mjs';
import { ledgerCheck, mergeSamples, statsDelta, stepSummary, sumStats } from '../../hot-tenant/analysis.mjs';
import { CONFIG, startCluster } from '../../hot-tenant/cluster.mjs';

/**
 * Sizes per bench mode. `budget`: the run whose tenant can afford about half of what it asks for.
 * `heldWaitMs`: the longest wait for holds to come back before a ledger is read (a lease reports its
 * spend when its window, LIMITS_LEASE_MS, 2 s by default, has ended).
 */
export const HOT_TENANT_PROFILES = {
  smoke: {
    isolates: 2,
    rates: [100],
    durationMs: 600,
    warmupMs: 100,
    warmupRequests: 20,
    budget: { rate: 100, durationMs: 600 },
    heldWaitMs: 5000,
  },
  quick: {
    isolates: 4,
    rates: [500, 1000, 5000],
    durationMs: 1500,
    warmupMs: 500,
    warmupRequests: 400,
    budget: { rate: 2000, durationMs: 1500 },
    heldWaitMs: 5000,
  },
  full: {
    isolates: 4,
    rates: [500, 1000, 2000, 3500, 5000, 7500],
    durationMs: 4000,
    warmupMs: 1000,
    warmupRequests: 1000,
    budget: { rate: 5000, durationMs: 3000 },
    heldWaitMs: 6000,
  },
};

const MODES = ['off', 'on'];
const HOT = 'hot';
const HOT_USD = 1000;

/**
 * `cpus`: where the drivers and their host may run when the bench pins (every CPU; null when it does not).
 * Started from the harness, they would inherit its CPU and share one core with the load generator: in two
 * pinned runs that held 3,500/s with leases on (5,000/s admitted 2,548 and 2,967/s, the rest timed out) and
 * leases off failed at 500/s, where unpinned runs of the same code held 7,500/s and 500/s.
 */
export async function hotTenantWorkload(ctx, { mode, cpus = null }) {
  const p = HOT_TENANT_PROFILES[mode];
  const script = bundle(CONFIG, 'hot-tenant');
  const out = { isolates: p.isolates, layout: 'processes', durationMs: p.durationMs, perMode: {} };
  for (const leases of MODES) {
    const cluster = await startCluster(script, {
      isolates: p.isolates,
      layout: out.layout,
      vars: { LIMITS_LEASES: leases },
    });
    for (const pid of cluster.pids) pin(pid, cpus);
    try {
      out.perMode[leases] = await oneMode(ctx, cluster, p, leases);
    } catch (err) {
      err.message += `\n--- workerd output (tail) ---\n${cluster.output().slice(-2000)}`;
      throw err;
    } finally {
      await cluster.dispose();
    }
  }
  return out;
}

async function oneMode(ctx, cluster, p, leases) {
  const { urls, pids } = cluster;
  const cpuNow = () => {
    const each = pids.map(cpuMs);
    return each.includes(null) ? null : each.reduce((a, v) => a + v, 0);
  };
  const n = urls.length;
  const stats = async () => sumStats(await Promise.all(urls.map((u) => driverJson(`${u}/__stats`))));
  const url = (u, tenant, usd) => `${u}/?tenant=${tenant}&usd=${usd}`;

  await Promise.all(
    urls.map((u) =>
      ctx.loadgen.run({
        mode: 'closed',
        url: url(u, HOT, HOT_USD),
        requests: Math.ceil(p.warmupRequests / n),
        concurrency: 2,
        timeout_ms: 10_000,
      }),
    ),
  );
  await settledAll(stats);

  /** One open-loop step at `rate` in all, rate / n per isolate; waits until every admitted request settled. */
  const step = async (rate, durationMs, tenant, usd) => {
    const before = await stats();
    const cpuBefore = cpuNow();
    const results = await Promise.all(
      urls.map((u) =>
        ctx.loadgen.run({
          mode: 'open',
          url: url(u, tenant, usd),
          rate: rate / n,
          duration_ms: durationMs,
          timeout_ms: 2000,
          max_in_flight: 1000,
        }),
      ),
    );
    const after = await settledAll(stats);
    await settle(pids);
    const cpuAfter = cpuNow();
    const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    const delta = statsDelta(after, before);
    const summary = stepSummary({
      samples: mergeSamples(results),
      rate,
      durationMs,
      warmupMs: p.warmupMs,
      delta,
    });
    return {
      ...summary,
      cpuMsPerRequest: cpu === null || !delta.requests ? null : cpu / delta.requests,
      delta,
    };
  };

  const steps = [];
  for (const rate of p.rates) {
    const { delta, ...s } = await step(rate, p.durationMs, HOT, HOT_USD);
    ctx.log(
      `  hot tenant · leases ${leases} · ${rate}/s → ${Math.round(s.admittedRps)}/s admitted, p99 ${s.latencyMs.p99?.toFixed(1)} ms, ${s.errors} errors, ${s.objectCallsPerRequest?.toFixed(2)} object calls/request`,
    );
    steps.push(s);
  }
  const totals = await stats();
  const ledger = ledgerCheck({
    ledger: await heldReleased(urls[0], HOT, p.heldWaitMs),
    budgetNanos: HOT_USD * 1e9,
    settled: totals.settled,
  });

  // A budget worth about half the requests the run sends, at the highest rate this mode sustained
  // (so it runs out mid-run in every mode): the object must stop admitting before it.
  const charge = (await driverJson(`${urls[0]}/__stats`)).charge;
  const topSustainedRps = Math.max(0, ...steps.filter((s) => s.sustained).map((s) => s.targetRps));
  const budgetRate = Math.min(p.budget.rate, topSustainedRps || p.rates[0] / 2);
  const planned = Math.ceil((budgetRate * p.budget.durationMs) / 1000);
  const usd = Number(((planned / 2) * charge.nanos * 1e-9).toFixed(6));
  const { delta, ...b } = await step(budgetRate, p.budget.durationMs, 'hot-budget', usd);
  const budgetCheck = ledgerCheck({
    ledger: await heldReleased(urls[0], 'hot-budget', p.heldWaitMs),
    budgetNanos: Math.round(usd * 1e9),
    settled: delta.settled,
  });
  ctx.log(
    `  hot tenant · leases ${leases} · budget run: ${delta.admitted} admitted, ${delta.refused} refused, stopped ${budgetCheck.stopShortNanos} nano-USD short`,
  );
  return {
    leases,
    steps,
    topSustainedRps,
    ledger,
    budget: {
      rate: budgetRate,
      usd,
      chargeNanos: charge.nanos,
      admitted: delta.admitted,
      refused: delta.refused,
      errors: Object.values(delta.errors).reduce((a, v) => a + v, 0),
      objectCallsPerRequest: b.objectCallsPerRequest,
      check: budgetCheck,
    },
  };
}

/** Polls the drivers until every admitted request has settled (settles run after the answer). */
export async function settledAll(stats, maxMs = 20_000) {
  const started = Date.now();
  for (;;) {
    const s = await stats();
    if (s.settled.count >= s.admitted || Date.now() - started > maxMs) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The tenant's day ledger once nothing is held any more (leased slices returned), or after `waitMs`. */
export async function heldReleased(driverUrl, tenant, waitMs) {
  const started = Date.now();
  for (;;) {
    const dump = await driverJson(`${driverUrl}/__dump?tenant=${tenant}`);
    const day = dump.state.ledger.day;
    if ((day.nanosHeld === 0 && day.tokensHeld === 0) || Date.now() - started > waitMs) return day;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One of a driver's own endpoints, as JSON. Right after an overloaded step (leases off past the object's
 * rate) a driver still holds up to a thousand requests waiting on the object, and a full run once had
 * the next counters request fail at the socket; it is asked again, and a final failure names its cause.
 */
export async function driverJson(url, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return await res.json();
    } catch (err) {
      if (attempt >= attempts)
        throw new Error(`${url} failed ${attempts} times, last: ${err.cause?.message ?? err.message}`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}
