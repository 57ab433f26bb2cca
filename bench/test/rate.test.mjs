// Unit tests for open-loop rate control and the sustained-rate step search.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  analyzeOpenLoop,
  bestLevel,
  intendedOffsetUs,
  nextLevel,
  plannedCount,
  roundRate,
  sustained,
} from '../lib/rate.mjs';

test('intended send times are evenly spaced from t0, independent of replies', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => intendedOffsetUs(i, 1000)),
    [0, 1000, 2000, 3000],
  );
  assert.equal(intendedOffsetUs(3, 3), 1_000_000);
  assert.equal(plannedCount(500, 2000), 1000);
  assert.equal(plannedCount(3, 500), 2);
});

/** A run at `rate` where request i took lat(i) µs and failed when fail(i). */
function run(rate, durationMs, lat, fail = () => false) {
  const n = plannedCount(rate, durationMs);
  const samples = { start_us: [], lat_us: [], status: [] };
  for (let i = 0; i < n; i++) {
    samples.start_us.push(intendedOffsetUs(i, rate));
    samples.lat_us.push(lat(i));
    samples.status.push(fail(i) ? 0 : 200);
  }
  return samples;
}

test('latency is taken from the intended send time, so a stall delays every request queued behind it', () => {
  // The server stalls for 500 ms at t = 1 s: requests due during the stall complete when it ends.
  const rate = 100;
  const samples = run(rate, 2000, (i) => {
    const due = intendedOffsetUs(i, rate);
    return due >= 1_000_000 && due < 1_500_000 ? 1_500_000 - due + 5000 : 5000;
  });
  const r = analyzeOpenLoop({ samples, rate, durationMs: 2000 });
  assert.equal(r.sent, 200);
  assert.equal(r.latencyMs.p50, 5);
  assert.ok(r.latencyMs.p95 > 200, `p95 ${r.latencyMs.p95} should reflect the stall`);
  assert.equal(r.latencyMs.max, 505);
});

test('warm-up requests are excluded from every figure', () => {
  const samples = run(100, 2000, (i) => (i < 100 ? 900_000 : 10_000));
  const r = analyzeOpenLoop({ samples, rate: 100, durationMs: 2000, warmupMs: 1000 });
  assert.equal(r.sent, 100);
  assert.equal(r.latencyMs.max, 10);
});

test('errors are counted apart from latencies and make the error rate', () => {
  const samples = run(
    1000,
    1000,
    () => 2000,
    (i) => i % 100 === 0,
  );
  const r = analyzeOpenLoop({ samples, rate: 1000, durationMs: 1000 });
  assert.equal(r.errors, 10);
  assert.equal(r.ok, 990);
  assert.equal(r.errorRate, 0.01);
  assert.equal(r.statuses[0], 10);
});

test('a server that falls behind achieves a lower rate than the target', () => {
  // Completions drift: request i finishes at 2·due, so the last one ends at ~2 s for a 1 s run.
  const samples = run(1000, 1000, (i) => intendedOffsetUs(i, 1000) + 1000);
  const r = analyzeOpenLoop({ samples, rate: 1000, durationMs: 1000 });
  assert.ok(r.achievedRps > 450 && r.achievedRps < 550, `achieved ${r.achievedRps}`);
  assert.equal(sustained(r).pass, false);
});

test('a run sustains its rate only with p99 under 1 s, errors under 0.1 % and the rate achieved', () => {
  const ok = analyzeOpenLoop({ samples: run(500, 2000, () => 25_000), rate: 500, durationMs: 2000 });
  assert.deepEqual(sustained(ok), { pass: true, reasons: [] });
  const slow = analyzeOpenLoop({
    samples: run(500, 2000, (i) => (i % 50 === 0 ? 1_200_000 : 25_000)),
    rate: 500,
    durationMs: 2000,
  });
  assert.equal(sustained(slow).pass, false);
  const failing = analyzeOpenLoop({
    samples: run(
      500,
      2000,
      () => 25_000,
      (i) => i === 3,
    ),
    rate: 500,
    durationMs: 2000,
  });
  assert.equal(sustained(failing).pass, false, '1 error in 1000 is not below 0.1 %');
});

test('levels round to whole numbers with two significant figures', () => {
  assert.deepEqual([1234, 987, 45.6, 6.5, 1, 0.2].map(roundRate), [1200, 990, 46, 7, 1, 1]);
});

test('the step search grows while passing, then bisects between the best pass and the lowest failure', () => {
  const capacity = 1000;
  const history = [];
  for (
    let level = nextLevel(history, { start: 200 });
    level !== null;
    level = nextLevel(history, { start: 200 })
  ) {
    history.push({ level, pass: level <= capacity });
  }
  assert.deepEqual(
    history.slice(0, 5).map((h) => h.level),
    [200, 300, 450, 680, 1000],
  );
  assert.equal(history[5].level, 1500);
  const best = bestLevel(history);
  assert.ok(best <= capacity && best >= capacity / 1.1, `best ${best}`);
});

test('the step search walks down when the first level fails, and stops at the floor', () => {
  const history = [{ level: 200, pass: false }];
  assert.equal(nextLevel(history, { start: 200, factor: 2 }), 100);
  history.push({ level: 100, pass: false }, { level: 50, pass: false });
  assert.equal(nextLevel(history, { start: 200, factor: 2, min: 50 }), null);
  assert.equal(bestLevel(history), 0);
});

test('the step search stops at the cap and after maxSteps', () => {
  assert.equal(nextLevel([{ level: 800, pass: true }], { start: 800, max: 1000 }), 1000);
  assert.equal(nextLevel([{ level: 1000, pass: true }], { start: 800, max: 1000 }), null);
  const long = Array.from({ length: 12 }, (_, i) => ({ level: i + 1, pass: true }));
  assert.equal(nextLevel(long, { start: 1 }), null);
});
