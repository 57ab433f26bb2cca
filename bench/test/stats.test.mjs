// Unit tests for the bench statistics: nearest-rank percentiles, summaries, spread across runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acrossRuns, added, median, percentile, percentileSorted, summarize } from '../lib/stats.mjs';

test('nearest-rank percentiles pick an observed value at rank ceil(p·n)', () => {
  const values = [15, 20, 35, 40, 50];
  assert.equal(percentile(values, 30), 20); // rank ceil(1.5) = 2
  assert.equal(percentile(values, 40), 20); // rank 2
  assert.equal(percentile(values, 50), 35); // rank ceil(2.5) = 3
  assert.equal(percentile(values, 100), 50);
  assert.equal(percentile(values, 0), 15);
});

test('percentiles ignore input order and non-finite values', () => {
  assert.equal(percentile([50, Number.NaN, 15, 40, Infinity, 20, 35], 50), 35);
});

test('p99 of 100 values is the 99th smallest, of 1000 values the 990th', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(hundred, 99), 99);
  const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
  assert.equal(percentile(thousand, 99), 990);
  assert.equal(percentile(thousand, 99.9), 999);
});

test('a single value is every percentile', () => {
  for (const p of [0, 1, 50, 99, 100]) assert.equal(percentile([7], p), 7);
});

test('an empty sample has NaN percentiles and a zero count', () => {
  assert.ok(Number.isNaN(percentile([], 50)));
  const s = summarize([]);
  assert.equal(s.n, 0);
  assert.ok(Number.isNaN(s.p99));
});

test('percentiles outside 0..100 are refused', () => {
  assert.throws(() => percentileSorted(Float64Array.of(1), 101), RangeError);
  assert.throws(() => percentileSorted(Float64Array.of(1), -1), RangeError);
});

test('summarize reports count, extremes, mean and the standard percentiles', () => {
  const s = summarize(Array.from({ length: 200 }, (_, i) => i + 1));
  assert.deepEqual(
    { n: s.n, min: s.min, max: s.max, mean: s.mean, p50: s.p50, p95: s.p95, p99: s.p99 },
    { n: 200, min: 1, max: 200, mean: 100.5, p50: 100, p95: 190, p99: 198 },
  );
});

test('median is the nearest-rank p50, so it is always an observed value', () => {
  assert.equal(median([1, 2, 3, 4]), 2);
  assert.equal(median([3, 1, 2]), 2);
});

test('acrossRuns gives the median and the min–max of per-run values', () => {
  assert.deepEqual(acrossRuns([1.2, 0.9, 1.5]), { median: 1.2, min: 0.9, max: 1.5, runs: 3 });
});

test('added subtracts percentile by percentile', () => {
  assert.deepEqual(added({ p50: 22, p95: 25, p99: 30 }, { p50: 21, p95: 23, p99: 26 }), {
    p50: 1,
    p95: 2,
    p99: 4,
  });
});
