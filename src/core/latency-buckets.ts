/**
 * The latency histogram's bucket bounds (pure), in milliseconds: one set for request latency and time to
 * first token, shared by the rollups that count into them (usage_hourly, usage_minutely, usage_totals:
 * columns lat_0 … lat_27 and ttft_0 … ttft_27, migration 0023) and every reader (analytics percentiles,
 * GET /admin/metrics). Bucket i holds LATENCY_BOUNDS_MS[i-1] < v <= LATENCY_BOUNDS_MS[i]; the last bucket
 * (index LATENCY_BOUNDS_MS.length) is everything above the last bound (+Inf). Changing a bound changes
 * what stored counts mean: add a migration, never edit these in place.
 */
export const LATENCY_BOUNDS_MS = [
  1, 2, 5, 10, 20, 35, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000,
  20000, 30000, 60000, 120000, 300000,
] as const;

/** How many buckets a histogram has: one per bound, and +Inf. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;
