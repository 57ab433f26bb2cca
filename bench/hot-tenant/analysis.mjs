/**
 * Pure arithmetic of the hot-tenant workload: summing the drivers' counters,
 * reading one open-loop step (admitted rate, latency, refusals, errors,
 * Durable Object calls per request) and checking a tenant's ledger against
 * what the drivers settled. No I/O, so bench/test/hot-tenant.test.mjs covers it.
 */
import { analyzeOpenLoop } from '../lib/rate.mjs';

const addInto = (into, from) => {
  for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v;
  return into;
};
const subtract = (a, b) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - (b[k] ?? 0)]));
const total = (map) => Object.values(map ?? {}).reduce((n, v) => n + v, 0);

/** The drivers' /__stats answers summed into one tally. */
export function sumStats(list) {
  const out = {
    requests: 0,
    admitted: 0,
    refused: 0,
    errors: {},
    settled: {},
    calls: {},
    failedCalls: {},
    byObject: {},
  };
  for (const s of list) {
    out.requests += s.requests;
    out.admitted += s.admitted;
    out.refused += s.refused;
    addInto(out.errors, s.errors);
    addInto(out.settled, s.settled);
    addInto(out.calls, s.objectCalls.calls);
    addInto(out.failedCalls, s.objectCalls.failed);
    addInto(out.byObject, s.objectCalls.byObject);
  }
  return out;
}

/** What happened between two summed tallies. */
export function statsDelta(after, before) {
  return {
    requests: after.requests - before.requests,
    admitted: after.admitted - before.admitted,
    refused: after.refused - before.refused,
    errors: subtract(after.errors, before.errors),
    settled: subtract(after.settled, before.settled),
    calls: subtract(after.calls, before.calls),
    failedCalls: subtract(after.failedCalls, before.failedCalls),
    byObject: subtract(after.byObject, before.byObject),
  };
}

/** The load generators' results (one per driver isolate) as one set of samples. */
export function mergeSamples(results) {
  const samples = { start_us: [], lat_us: [], status: [] };
  for (const r of results)
    for (const key of Object.keys(samples)) for (const v of r.samples[key]) samples[key].push(v);
  return samples;
}

/**
 * One step at `rate` requests/s (all isolates together). Latency and the
 * admitted rate are over the 200s (admitted requests) after the warm-up; a 429
 * is a refusal, anything else not 2xx (503 limiter_unavailable, 500, timeouts)
 * an error. Object calls per request count every request the drivers handled.
 */
export function stepSummary({ samples, rate, durationMs, warmupMs, delta }) {
  const run = analyzeOpenLoop({ samples, rate, durationMs, warmupMs });
  const refused = run.statuses[429] ?? 0;
  const objectCalls = total(delta.calls);
  const errors = run.errors - refused;
  return {
    // Held the rate: every request admitted (the budget is far away), none failed, p99 under 1 s.
    sustained: errors === 0 && refused === 0 && run.achievedRps >= 0.95 * rate && run.latencyMs.p99 < 1000,
    targetRps: rate,
    sent: run.sent,
    admitted: run.ok,
    admittedRps: run.achievedRps,
    refused,
    errors,
    statuses: run.statuses,
    driverErrors: delta.errors,
    latencyMs: run.latencyMs,
    objectCallsPerRequest: delta.requests ? objectCalls / delta.requests : null,
    callsByMethod: delta.calls,
    failedCalls: total(delta.failedCalls),
  };
}

/**
 * The tenant's day ledger as its object holds it, against the budget and the
 * drivers' settled sum (what the admitted requests really cost). A `violation`
 * is spend past the budget, by either count; the other problems (spent ≠
 * settled, something still held) are reported, not fatal: a request its client
 * abandoned mid-reserve leaves a hold until its reservation expires.
 * `stopShortNanos`: how far below the budget the admitted spend stopped.
 */
export function ledgerCheck({ ledger, budgetNanos, settled }) {
  const problems = [];
  const violations = [];
  if (ledger.nanosSpent > budgetNanos)
    violations.push(`the ledger spent ${ledger.nanosSpent} nano-USD, over the budget of ${budgetNanos}`);
  if (settled.nanos > budgetNanos)
    violations.push(`admitted requests settled ${settled.nanos} nano-USD, over the budget of ${budgetNanos}`);
  if (ledger.nanosSpent !== settled.nanos)
    problems.push(`the ledger spent ${ledger.nanosSpent} nano-USD but the drivers settled ${settled.nanos}`);
  if (ledger.tokensSpent !== settled.tokens)
    problems.push(`the ledger spent ${ledger.tokensSpent} tokens but the drivers settled ${settled.tokens}`);
  if (ledger.nanosHeld !== 0 || ledger.tokensHeld !== 0)
    problems.push(`${ledger.nanosHeld} nano-USD and ${ledger.tokensHeld} tokens still held`);
  return {
    budgetNanos,
    spentNanos: ledger.nanosSpent,
    settledNanos: settled.nanos,
    heldNanos: ledger.nanosHeld,
    stopShortNanos: budgetNanos - settled.nanos,
    ok: violations.length === 0 && problems.length === 0,
    violations,
    problems,
  };
}
