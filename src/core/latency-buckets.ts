/**
 * The latency histogram every rollup and reader shares (pure): its bucket bounds, the rollup tables'
 * column names (migration 0023: lat_0 … lat_27 and ttft_0 … ttft_27) and the quantile of a histogram.
 * Bucket i holds LATENCY_BOUNDS_MS[i-1] < v <= LATENCY_BOUNDS_MS[i]; bucket 0 holds v <= 1 ms and the
 * last bucket (27) everything above 300 s (+Inf). Summed histograms (any rows, any range) stay histograms,
 * so a percentile over a month costs one sum per column, never a scan of raw rows.
 */

/** Upper bounds in ms: 27 bounds, 28 buckets. Changing them needs a new migration, so they never change. */
export const LATENCY_BOUNDS_MS = [
  1, 2, 5, 10, 20, 35, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000,
  20000, 30000, 60000, 120000, 300000,
] as const;

export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export type HistogramPrefix = 'lat' | 'ttft';

/** The histogram's columns in bucket order, e.g. lat_0 … lat_27. */
export function bucketColumns(prefix: HistogramPrefix): string[] {
  return Array.from({ length: LATENCY_BUCKETS }, (_, i) => `${prefix}_${i}`);
}

/** The bucket a value falls in (v <= bound, first match; NaN and negatives go to bucket 0). */
export function bucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++) if (!(ms > (LATENCY_BOUNDS_MS[i] ?? 0))) return i;
  return LATENCY_BOUNDS_MS.length;
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, by linear interpolation inside the bucket that holds the
 * rank q·total (bucket 0 spans 0 … 1 ms). A rank in the +Inf bucket reads as the last bound (300 000 ms),
 * the most the histogram can say. Null for an empty histogram.
 */
export function quantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((s, n) => s + n, 0);
  if (!(total > 0)) return null;
  const rank = Math.min(Math.max(q, 0), 1) * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i] ?? 0;
    if (n > 0 && below + n >= rank) {
      if (i >= LATENCY_BOUNDS_MS.length) return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] ?? null;
      const lo = i === 0 ? 0 : (LATENCY_BOUNDS_MS[i - 1] ?? 0);
      const hi = LATENCY_BOUNDS_MS[i] ?? lo;
      return lo + ((hi - lo) * (rank - below)) / n;
    }
    below += n;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] ?? null;
}
