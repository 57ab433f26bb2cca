/** The shared latency histogram: bucket bounds, column names and the interpolated quantile. */
import { describe, expect, it } from 'vitest';
import {
  bucketColumns,
  bucketOf,
  LATENCY_BOUNDS_MS,
  LATENCY_BUCKETS,
  quantile,
} from '../../../src/core/latency-buckets';

/** A histogram with `n` in bucket `i` for each [i, n]. */
function histogram(...cells: [number, number][]): number[] {
  const counts = new Array<number>(LATENCY_BUCKETS).fill(0);
  for (const [i, n] of cells) counts[i] = n;
  return counts;
}

describe('latency buckets', () => {
  it('has 27 increasing bounds and 28 columns per histogram', () => {
    expect(LATENCY_BOUNDS_MS).toHaveLength(27);
    expect([...LATENCY_BOUNDS_MS].sort((a, b) => a - b)).toEqual([...LATENCY_BOUNDS_MS]);
    expect(bucketColumns('lat')).toHaveLength(28);
    expect(bucketColumns('ttft').at(-1)).toBe('ttft_27');
  });

  it('puts a value on a bound in that bound’s bucket, and above the last in +Inf', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1)).toBe(0);
    expect(bucketOf(1.01)).toBe(1);
    expect(bucketOf(100)).toBe(8);
    expect(bucketOf(100.5)).toBe(9);
    expect(bucketOf(300_000)).toBe(26);
    expect(bucketOf(300_001)).toBe(27);
  });
});

describe('quantile', () => {
  it('is null for an empty histogram', () => {
    expect(quantile(histogram(), 0.5)).toBeNull();
  });

  it('interpolates linearly inside the bucket that holds the rank', () => {
    // 10 values in (75, 100]: the median is halfway through the bucket.
    expect(quantile(histogram([8, 10]), 0.5)).toBeCloseTo(87.5);
    expect(quantile(histogram([8, 10]), 1)).toBe(100);
    // 90 fast (≤ 1 ms) and 10 in (500, 750]: p50 within bucket 0, p95 halfway through bucket 14.
    const h = histogram([0, 90], [14, 10]);
    expect(quantile(h, 0.5)).toBeCloseTo(50 / 90);
    expect(quantile(h, 0.95)).toBeCloseTo(625);
    expect(quantile(h, 0.9)).toBeCloseTo(1);
  });

  it('skips empty buckets and reads the +Inf bucket as the last bound', () => {
    expect(quantile(histogram([3, 1], [20, 1]), 0.99)).toBeGreaterThan(5000);
    expect(quantile(histogram([27, 5]), 0.5)).toBe(300_000);
  });

  it('matches the exact percentile of values spread evenly over one bucket', () => {
    const values = Array.from({ length: 100 }, (_, i) => 1000 + (i + 1) * 5); // (1000, 1500]
    const counts = histogram();
    for (const v of values) counts[bucketOf(v)] = (counts[bucketOf(v)] ?? 0) + 1;
    expect(quantile(counts, 0.95)).toBeCloseTo(1475);
  });
});
