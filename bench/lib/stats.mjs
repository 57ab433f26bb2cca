/**
 * Descriptive statistics for the bench, pure. Percentiles use the nearest-rank
 * method: the p-th percentile of n sorted values is the value at rank
 * ceil(p/100 · n) (1-based), so every reported percentile is a latency that was
 * really observed, never an interpolation between two; p0 is the minimum.
 * Spread across repeated runs is reported as min–max of the per-run values
 * (with 3 repeats an interquartile range would mean nothing).
 */

/** Ascending copy of the finite values. */
export function sorted(values) {
  return Float64Array.from(values.filter((v) => Number.isFinite(v))).sort();
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentileSorted(asc, p) {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const n = asc.length;
  if (n === 0) return Number.NaN;
  if (p === 0) return asc[0];
  // p·n first, then /100: (p/100)·n drifts in floating point (99.9/100·1000 = 999.0000000000001).
  const rank = Math.ceil((p * n) / 100);
  return asc[Math.min(n, Math.max(1, rank)) - 1];
}

export function percentile(values, p) {
  return percentileSorted(sorted(values), p);
}

export function mean(values) {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The median as the nearest-rank p50 (an observed value, like every other percentile). */
export function median(values) {
  return percentile(values, 50);
}

/** n, min, mean, p50, p95, p99, p99.9 and max of a sample. */
export function summarize(values) {
  const asc = sorted(values);
  return {
    n: asc.length,
    min: asc.length ? asc[0] : Number.NaN,
    mean: mean(asc),
    p50: percentileSorted(asc, 50),
    p95: percentileSorted(asc, 95),
    p99: percentileSorted(asc, 99),
    p999: percentileSorted(asc, 99.9),
    max: asc.length ? asc[asc.length - 1] : Number.NaN,
  };
}

/** Median and min–max of one number measured once per repeat. */
export function acrossRuns(values) {
  const asc = sorted(values);
  return {
    median: percentileSorted(asc, 50),
    min: asc.length ? asc[0] : Number.NaN,
    max: asc.length ? asc[asc.length - 1] : Number.NaN,
    runs: asc.length,
  };
}

/** Field-by-field difference of two summaries (a − b): "added latency" of a over b. */
export function added(a, b, fields = ['p50', 'p95', 'p99']) {
  return Object.fromEntries(fields.map((f) => [f, a[f] - b[f]]));
}
