// The hot-tenant workload's pure parts: summing driver counters, reading a step, the ledger checks, the report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ledgerCheck, mergeSamples, statsDelta, stepSummary, sumStats } from '../hot-tenant/analysis.mjs';
import { hotTenantSection } from '../hot-tenant/report.mjs';

const driver = (over = {}) => ({
  requests: 10,
  admitted: 8,
  refused: 1,
  errors: { limiter_unavailable: 1 },
  settled: { count: 8, tokens: 232, nanos: 78_000 },
  objectCalls: { calls: { reserve: 10, settle: 8 }, failed: { reserve: 1 } },
  ...over,
});

test('driver counters sum across isolates, and a delta is what happened between two sums', () => {
  const a = sumStats([driver(), driver({ objectCalls: { calls: { reserve: 2, lease: 1 }, failed: {} } })]);
  assert.equal(a.requests, 20);
  assert.deepEqual(a.calls, { reserve: 12, settle: 8, lease: 1 });
  assert.deepEqual(a.settled, { count: 16, tokens: 464, nanos: 156_000 });
  const d = statsDelta(sumStats([driver({ requests: 25 })]), sumStats([driver()]));
  assert.equal(d.requests, 15);
  assert.deepEqual(d.calls, { reserve: 0, settle: 0 });
});

test('a step counts 429s as refusals, other failures as errors, and object calls per handled request', () => {
  const samples = mergeSamples([
    { samples: { start_us: [0, 500_000], lat_us: [1000, 2000], status: [200, 429] } },
    { samples: { start_us: [250_000, 750_000], lat_us: [3000, 2_000_000], status: [200, 0] } },
  ]);
  assert.equal(samples.status.length, 4);
  const delta = { requests: 4, calls: { reserve: 4, settle: 2 }, errors: {} };
  const s = stepSummary({ samples, rate: 4, durationMs: 1000, warmupMs: 0, delta });
  assert.equal(s.admitted, 2);
  assert.equal(s.refused, 1);
  assert.equal(s.errors, 1);
  assert.equal(s.objectCallsPerRequest, 1.5);
  assert.equal(s.sustained, false);
});

test('a step that admitted every request on time with no error held its rate', () => {
  const samples = {
    start_us: [0, 250_000, 500_000, 750_000],
    lat_us: [1000, 1000, 1000, 1000],
    status: [200, 200, 200, 200],
  };
  const s = stepSummary({
    samples,
    rate: 4,
    durationMs: 1000,
    warmupMs: 0,
    delta: { requests: 4, calls: {} },
  });
  assert.equal(s.sustained, true);
  assert.equal(s.objectCallsPerRequest, 0);
});

const ledger = (over = {}) => ({ nanosSpent: 90, tokensSpent: 9, nanosHeld: 0, tokensHeld: 0, ...over });

test('the ledger check passes when spent equals settled, within budget, nothing held', () => {
  const c = ledgerCheck({ ledger: ledger(), budgetNanos: 100, settled: { nanos: 90, tokens: 9 } });
  assert.equal(c.ok, true);
  assert.equal(c.stopShortNanos, 10);
});

test('spend past the budget, by the ledger or by what was settled, is a violation', () => {
  const byLedger = ledgerCheck({
    ledger: ledger({ nanosSpent: 101 }),
    budgetNanos: 100,
    settled: { nanos: 90, tokens: 9 },
  });
  assert.equal(byLedger.violations.length, 1);
  const bySettled = ledgerCheck({ ledger: ledger(), budgetNanos: 100, settled: { nanos: 120, tokens: 9 } });
  assert.equal(bySettled.violations.length, 1);
  assert.equal(bySettled.ok, false);
});

test('a hold left over or a ledger that disagrees with the drivers is a problem, not a violation', () => {
  const c = ledgerCheck({
    ledger: ledger({ nanosHeld: 5, nanosSpent: 80 }),
    budgetNanos: 100,
    settled: { nanos: 90, tokens: 9 },
  });
  assert.deepEqual(c.violations, []);
  assert.equal(c.problems.length, 2);
  assert.equal(c.ok, false);
});

test('the report shows one table per limits mode and both ledger verdicts', () => {
  const check = ledgerCheck({ ledger: ledger(), budgetNanos: 100, settled: { nanos: 90, tokens: 9 } });
  const step = {
    targetRps: 5000,
    admittedRps: 4990,
    latencyMs: { p50: 1, p99: 9 },
    refused: 0,
    errors: 0,
    objectCallsPerRequest: 0.01,
    cpuMsPerRequest: 0.2,
    statuses: { 200: 10 },
  };
  const mode = (leases) => ({
    leases,
    steps: [step],
    topSustainedRps: 5000,
    ledger: check,
    budget: { rate: 5000, admitted: 9, refused: 11, errors: 0, chargeNanos: 10, check },
  });
  const md = hotTenantSection({
    isolates: 4,
    layout: 'processes',
    durationMs: 2000,
    perMode: { off: mode('off'), on: mode('on') },
  });
  assert.match(md, /LIMITS_LEASES=off/);
  assert.match(md, /LIMITS_LEASES=on/);
  assert.match(md, /\| 5000 \| 4990 \| 1\.0 \| 9\.0 \| 0 \| 0 \| 0\.01 \| 0\.20 \|/);
  assert.match(md, /spent = settled, nothing held/);
});

test('the report names failures by kind and shows rare object calls as one in N requests', () => {
  const check = ledgerCheck({ ledger: ledger(), budgetNanos: 100, settled: { nanos: 90, tokens: 9 } });
  const step = {
    targetRps: 1000,
    admittedRps: 500,
    latencyMs: { p50: 900, p99: 1999 },
    refused: 0,
    errors: 5,
    statuses: { 0: 3, 200: 5, 503: 2 },
    objectCallsPerRequest: 0.004,
    cpuMsPerRequest: 1,
  };
  const mode = {
    leases: 'on',
    steps: [step],
    topSustainedRps: 0,
    ledger: check,
    budget: { rate: 500, admitted: 9, refused: 11, errors: 0, chargeNanos: 10, check },
  };
  const md = hotTenantSection({ isolates: 2, layout: 'isolates', durationMs: 1000, perMode: { on: mode } });
  assert.match(md, /5 \(3 timed out, 2 503 limiter_unavailable\)/);
  assert.match(md, /0\.0040 \(1 in 250\)/);
  assert.match(md, /none of those tried/);
});
