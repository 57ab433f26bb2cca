/**
 * Pure arithmetic of the hot tenant's end-user run: which end user each request is for (a seeded
 * mix), what the run sent to how many users, one open-loop step read with refusals as answers,
 * how the Durable Object calls spread over the tenant's user shards, and a sample of users' shard
 * ledgers checked against what the drivers settled for them and against their budget. No I/O, so
 * bench/test/hot-tenant-users.test.mjs covers it.
 */
import { prng } from '../lib/prng.mjs';
import { analyzeOpenLoop } from '../lib/rate.mjs';

/** The end user's id for index i (0 … users − 1). */
export const userId = (i) => `user-${i}`;

/**
 * Draws the end user of each request: with probability `heavyShare` one of the first `heavyUsers`
 * ids (uniformly), else the next id of a seeded shuffle of all `users` ids, taken in turn and
 * shuffled again once used up, so the run reaches as many distinct users as it sends requests
 * (up to `users`) and a quiet user sends one request per pass. `next()` returns an id.
 */
export function userPicker({ users, heavyUsers = 0, heavyShare = 0, seed = 1 }) {
  const random = prng(seed);
  const order = new Uint32Array(users);
  let at = users;
  const reshuffle = () => {
    for (let i = 0; i < users; i++) order[i] = i;
    for (let i = users - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    at = 0;
  };
  return {
    next() {
      if (heavyUsers > 0 && random() < heavyShare) return userId(Math.floor(random() * heavyUsers));
      if (at >= users) reshuffle();
      return userId(order[at++]);
    },
  };
}

/** How the requests sent spread over users (`sent`: Map id → requests): distinct users, max and median per user. */
export function userMix(sent) {
  const counts = [...sent.values()].sort((a, b) => a - b);
  const requests = counts.reduce((a, v) => a + v, 0);
  return {
    requests,
    distinctUsers: counts.length,
    medianPerUser: counts.length ? counts[Math.floor((counts.length - 1) / 2)] : 0,
    maxPerUser: counts.length ? counts[counts.length - 1] : 0,
  };
}

/** Calls per user shard of `tenant` (`byObject`: calls by object name), with the tenant object's own. */
export function shardLoad(byObject, tenant, shards) {
  const perShard = Array.from({ length: shards }, (_, n) => byObject[`${tenant}/users/${n}`] ?? 0);
  const max = Math.max(...perShard);
  const min = Math.min(...perShard);
  const total = perShard.reduce((a, v) => a + v, 0);
  return {
    perShard,
    max,
    min,
    mean: total / shards,
    maxOverMin: min > 0 ? max / min : null,
    tenantObject: byObject[tenant] ?? 0,
  };
}

/**
 * One step at `rate` requests/s of the end-user run. A 429 (an end user over their budget) is the
 * limits stage answering, not a failure: latency and the answered rate are over 200s and 429s after
 * the warm-up; the admitted rate over 200s; anything else (503 limiter_unavailable, 500, timeouts)
 * is an error. Held the rate: no error, ≥ 95 % of the rate answered, p99 under 1 s.
 */
export function usersStepSummary({ samples, rate, durationMs, warmupMs, delta, tenant, shards }) {
  const admitted = analyzeOpenLoop({ samples, rate, durationMs, warmupMs });
  const answeredSamples = { ...samples, status: samples.status.map((s) => (s === 429 ? 200 : s)) };
  const answered = analyzeOpenLoop({ samples: answeredSamples, rate, durationMs, warmupMs });
  const refused = admitted.statuses[429] ?? 0;
  const objectCalls = Object.values(delta.calls).reduce((a, v) => a + v, 0);
  return {
    sustained: answered.errors === 0 && answered.achievedRps >= 0.95 * rate && answered.latencyMs.p99 < 1000,
    targetRps: rate,
    sent: admitted.sent,
    admitted: admitted.ok,
    admittedRps: admitted.achievedRps,
    answeredRps: answered.achievedRps,
    refused,
    errors: answered.errors,
    statuses: admitted.statuses,
    driverErrors: delta.errors,
    latencyMs: answered.latencyMs,
    objectCallsPerRequest: delta.requests ? objectCalls / delta.requests : null,
    callsByMethod: delta.calls,
    failedCalls: Object.values(delta.failedCalls).reduce((a, v) => a + v, 0),
    shards: shardLoad(delta.byObject, tenant, shards),
  };
}

/**
 * The users whose ledgers are read: every id of `first` that the run sent requests to, then others
 * it sent to (`sent`: Map id → requests), drawn with `seed`, `size` in all.
 */
export function sampleUsers(sent, { first = [], size, seed = 7 }) {
  const head = first.filter((u) => sent.has(u));
  const headSet = new Set(head);
  const rest = [...sent.keys()].filter((u) => !headSet.has(u));
  const random = prng(seed);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [...head, ...rest.slice(0, Math.max(0, size - head.length))];
}

/**
 * Each sampled user's day ledger in their shard against what the drivers settled for them and their
 * budget (`budget`: { requests, nanos }). Spend past a budget is a `violation`; a ledger that differs
 * from the drivers' sum or still holds something is a `problem` (a request its client abandoned
 * mid-reserve holds until its reservation expires). `atBudget`: users who asked for more requests
 * than their budget, and how many of them were admitted exactly their budget.
 * `rows`: [{ user, sent, ledger: LedgerRow, settled: { count, tokens, nanos } }].
 */
export function userLedgerCheck(rows, budget) {
  const violations = [];
  const problems = [];
  let exact = 0;
  let over = 0;
  let filled = 0;
  for (const { user, sent, ledger, settled } of rows) {
    if (ledger.requestsSpent > budget.requests)
      violations.push(
        `${user} spent ${ledger.requestsSpent} requests, over the budget of ${budget.requests}`,
      );
    if (ledger.nanosSpent > budget.nanos)
      violations.push(`${user} spent ${ledger.nanosSpent} nano-USD, over the budget of ${budget.nanos}`);
    if (settled.count > budget.requests)
      violations.push(`${user}: the drivers settled ${settled.count} requests, over the budget`);
    const same =
      ledger.requestsSpent === settled.count &&
      ledger.nanosSpent === settled.nanos &&
      ledger.tokensSpent === settled.tokens;
    const held = ledger.requestsHeld + ledger.nanosHeld + ledger.tokensHeld;
    if (same && held === 0) exact++;
    if (!same)
      problems.push(
        `${user}: the shard spent ${ledger.requestsSpent} requests / ${ledger.nanosSpent} nano-USD, the drivers settled ${settled.count} / ${settled.nanos}`,
      );
    if (held !== 0) problems.push(`${user}: ${ledger.requestsHeld} requests still held`);
    if (sent > budget.requests) {
      over++;
      if (ledger.requestsSpent === budget.requests) filled++;
    }
  }
  return {
    checked: rows.length,
    exact,
    overBudgetAsked: over,
    admittedExactlyBudget: filled,
    ok: violations.length === 0 && problems.length === 0,
    violations,
    problems,
  };
}
