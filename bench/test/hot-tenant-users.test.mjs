// The hot tenant's end-user run, its pure parts: who each request is for, a step with refusals as
// answers, calls per shard, the sampled users' ledger check, and the report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  sampleUsers,
  shardLoad,
  userId,
  userLedgerCheck,
  userMix,
  userPicker,
  usersStepSummary,
} from '../hot-tenant/end-users.mjs';
import { hotTenantUsersSection } from '../hot-tenant/report.mjs';

test('the picker reaches every user once per pass, and sends the heavy share to the heavy users', () => {
  const quiet = userPicker({ users: 1000, seed: 3 });
  const pass = Array.from({ length: 1000 }, () => quiet.next());
  assert.equal(new Set(pass).size, 1000);
  const again = userPicker({ users: 1000, seed: 3 });
  assert.deepEqual(
    Array.from({ length: 10 }, () => again.next()),
    pass.slice(0, 10),
  );

  const mixed = userPicker({ users: 100_000, heavyUsers: 10, heavyShare: 0.05, seed: 1 });
  const sent = new Map();
  for (let i = 0; i < 20_000; i++) {
    const u = mixed.next();
    sent.set(u, (sent.get(u) ?? 0) + 1);
  }
  const heavy = Array.from({ length: 10 }, (_, i) => sent.get(userId(i)) ?? 0);
  const heavyTotal = heavy.reduce((a, v) => a + v, 0);
  assert.ok(heavyTotal > 800 && heavyTotal < 1200, `heavy users got ${heavyTotal} of 20,000`);
  const mix = userMix(sent);
  assert.equal(mix.requests, 20_000);
  // Each quiet request a new user (no pass completed); the heavy ids may also come up in the pass.
  const quietRequests = 20_000 - heavyTotal;
  assert.ok(
    mix.distinctUsers >= quietRequests && mix.distinctUsers <= quietRequests + 10,
    `${mix.distinctUsers} distinct for ${quietRequests} quiet requests`,
  );
  assert.equal(mix.medianPerUser, 1);
  assert.equal(mix.maxPerUser, Math.max(...heavy));
});

test('user mix of nothing sent is zeros', () => {
  assert.deepEqual(userMix(new Map()), { requests: 0, distinctUsers: 0, medianPerUser: 0, maxPerUser: 0 });
});

test('calls per shard count every shard, missing ones as 0, apart from the tenant object', () => {
  const load = shardLoad({ t: 5, 't/users/0': 4, 't/users/2': 8, other: 100 }, 't', 3);
  assert.deepEqual(load.perShard, [4, 0, 8]);
  assert.equal(load.max, 8);
  assert.equal(load.min, 0);
  assert.equal(load.maxOverMin, null);
  assert.equal(load.mean, 4);
  assert.equal(load.tenantObject, 5);
  assert.equal(shardLoad({ 't/users/0': 2, 't/users/1': 6 }, 't', 2).maxOverMin, 3);
});

const delta = (over = {}) => ({
  requests: 4,
  calls: { reserve: 4, settle: 2 },
  failedCalls: {},
  errors: {},
  byObject: { 'hot/users/0': 3, 'hot/users/1': 3 },
  ...over,
});

test('a step counts a 429 as an answer of the limits stage, not an error, and held its rate', () => {
  const samples = {
    start_us: [0, 250_000, 500_000, 750_000],
    lat_us: [1000, 3000, 2000, 1000],
    status: [200, 429, 200, 200],
  };
  const s = usersStepSummary({
    samples,
    rate: 4,
    durationMs: 1000,
    warmupMs: 0,
    delta: delta(),
    tenant: 'hot',
    shards: 2,
  });
  assert.equal(s.admitted, 3);
  assert.equal(s.refused, 1);
  assert.equal(s.errors, 0);
  assert.equal(s.answeredRps, 4);
  assert.equal(s.admittedRps, 3);
  assert.equal(s.latencyMs.p99, 3);
  assert.equal(s.objectCallsPerRequest, 1.5);
  assert.equal(s.sustained, true);
  assert.deepEqual(s.shards.perShard, [3, 3]);
});

test('a step with a timeout or a 503 did not hold its rate', () => {
  const samples = {
    start_us: [0, 250_000, 500_000, 750_000],
    lat_us: [1000, 2_000_000, 2000, 1000],
    status: [200, 0, 503, 429],
  };
  const s = usersStepSummary({
    samples,
    rate: 4,
    durationMs: 1000,
    warmupMs: 0,
    delta: delta(),
    tenant: 'hot',
    shards: 2,
  });
  assert.equal(s.errors, 2);
  assert.equal(s.refused, 1);
  assert.equal(s.sustained, false);
});

test('the sample takes every listed user that was sent to, then others, and is the same for the same seed', () => {
  const sent = new Map([
    [userId(0), 60],
    [userId(5), 1],
    [userId(7), 2],
    [userId(9), 1],
    [userId(12), 1],
  ]);
  const a = sampleUsers(sent, { first: [userId(0), userId(1)], size: 3, seed: 4 });
  assert.equal(a[0], userId(0));
  assert.equal(a.length, 3);
  assert.equal(new Set(a).size, 3);
  assert.ok(!a.includes(userId(1)));
  assert.deepEqual(sampleUsers(sent, { first: [userId(0), userId(1)], size: 3, seed: 4 }), a);
  assert.equal(sampleUsers(sent, { first: [userId(0)], size: 100 }).length, 5);
});

const row = (user, sent, spent, settledCount, held = 0) => ({
  user,
  sent,
  ledger: {
    requestsSpent: spent,
    requestsHeld: held,
    nanosSpent: spent * 10,
    nanosHeld: held * 10,
    tokensSpent: spent * 2,
    tokensHeld: held * 2,
  },
  settled: { count: settledCount, nanos: settledCount * 10, tokens: settledCount * 2 },
});
const BUDGET = { requests: 50, nanos: 1e9 };

test('sampled ledgers that equal what was settled, within budget, pass; a heavy user filled exactly its budget', () => {
  const c = userLedgerCheck([row('a', 80, 50, 50), row('b', 1, 1, 1), row('c', 2, 2, 2)], BUDGET);
  assert.equal(c.ok, true);
  assert.equal(c.exact, 3);
  assert.equal(c.overBudgetAsked, 1);
  assert.equal(c.admittedExactlyBudget, 1);
});

test('a user over budget is a violation; a ledger that disagrees or still holds is a problem', () => {
  const over = userLedgerCheck([row('a', 80, 51, 51)], BUDGET);
  assert.equal(over.violations.length, 2);
  assert.equal(over.ok, false);
  const usdOver = userLedgerCheck([row('a', 1, 1, 1)], { requests: 50, nanos: 5 });
  assert.equal(usdOver.violations.length, 1);
  const off = userLedgerCheck([row('a', 3, 2, 3), row('b', 2, 1, 1, 1)], BUDGET);
  assert.deepEqual(off.violations, []);
  assert.equal(off.problems.length, 2);
  assert.equal(off.exact, 0);
  // Asked past the budget but admitted fewer (refused elsewhere): counted, not filled.
  const short = userLedgerCheck([row('a', 80, 49, 49)], BUDGET);
  assert.equal(short.overBudgetAsked, 1);
  assert.equal(short.admittedExactlyBudget, 0);
});

test('the report says whether the target rate was reached, and shows shard load and both ledgers', () => {
  const step = (rate, sustained) => ({
    targetRps: rate,
    admittedRps: rate - 50,
    answeredRps: rate,
    refused: 100,
    latencyMs: { p50: 1.2, p99: 9 },
    errors: 0,
    statuses: { 200: 10, 429: 1 },
    objectCallsPerRequest: 2.01,
    shards: { min: 90, max: 120, maxOverMin: 1.333, tenantObject: 7 },
    busiestShardCallsPerS: 60,
    cpuMsPerRequest: 0.5,
    sustained,
  });
  const tenantLedger = {
    spentNanos: 90,
    settledNanos: 90,
    violations: [],
    problems: [],
  };
  const users = userLedgerCheck([row('a', 80, 50, 50), row('b', 1, 1, 1)], BUDGET);
  const h = {
    isolates: 4,
    layout: 'processes',
    durationMs: 2000,
    targetRps: 5000,
    topSustainedRps: 2500,
    mix: {
      users: 100_000,
      heavyUsers: 10,
      heavyShare: 0.05,
      requests: 9000,
      distinctUsers: 8500,
      medianPerUser: 1,
      maxPerUser: 60,
    },
    budget: BUDGET,
    tenantUsd: 1000,
    shards: 32,
    steps: [step(2500, true), step(5000, false)],
    ledgerRun: {
      rate: 2500,
      step: step(2500, true),
      mix: { distinctUsers: 4800 },
      burst: { users: 10, perUser: 60, concurrency: 4, statuses: { 200: 500, 429: 100 } },
    },
    tenantLedger,
    users,
  };
  const md = hotTenantUsersSection(h);
  assert.match(md, /not reached on this machine\*\*: the highest rate held was 2500\/s/);
  assert.match(
    md,
    /\| 2500 \| 2450 \| 2500 \| 100 \| 1\.2 \| 9\.0 \| 0 \| 2\.01 \| 90…120 \(1\.33\) \| 60 \| 7 \| 0\.50 \|/,
  );
  assert.match(
    md,
    /10 new users sent 60 requests each, 4 at a time from each driver: 500 admitted, 100 refused, 0 errors/,
  );
  assert.match(md, /2 of 2 sampled users' shard ledgers equal/);
  assert.match(md, /1 of the 1 sampled users who asked for more than 50 requests were admitted exactly 50/);
  assert.match(md, /no user over their budget/);
  assert.match(hotTenantUsersSection({ ...h, topSustainedRps: 5000 }), /reached: 5000\/s held/);
});
