/**
 * Per-minute rate windows as two counters, not timestamp arrays (pure).
 *
 * A sliding-window counter: the count of the current fixed minute plus the
 * previous minute's count weighted by how much of it still overlaps the last
 * 60 s. It costs two numbers per window whatever the traffic, never lets a
 * burst straddling a minute boundary through at twice the rate (a plain fixed
 * window does), and is exact where it matters: N requests in a fresh minute
 * pass, the next one waits.
 */

export const WINDOW_MS = 60_000;

export interface WindowCounts {
  /** Start of the current fixed minute, epoch ms (a multiple of WINDOW_MS). */
  readonly start: number;
  readonly prev: number;
  readonly cur: number;
}

export const EMPTY_WINDOW: WindowCounts = { start: 0, prev: 0, cur: 0 };

/** Slack for the weighted sum's floating-point error, so N of N is never refused by 1e-16. */
const EPSILON = 1e-9;

/** The counters as of `now`: shifted by one minute, or cleared after two. */
export function roll(w: WindowCounts, now: number): WindowCounts {
  const start = now - (now % WINDOW_MS);
  if (start === w.start) return w;
  if (start - w.start === WINDOW_MS) return { start, prev: w.cur, cur: 0 };
  return { start, prev: 0, cur: 0 };
}

/** The sliding count over the last minute, as of `now`. */
export function used(w: WindowCounts, now: number): number {
  const r = roll(w, now);
  return r.prev * ((WINDOW_MS - (now - r.start)) / WINDOW_MS) + r.cur;
}

/** Whether `cost` more fits under `limit` now. */
export function fits(w: WindowCounts, limit: number, cost: number, now: number): boolean {
  return used(w, now) + cost <= limit + EPSILON;
}

/** Adds `amount` to the current minute (negative amounts never drive it below 0). */
export function add(w: WindowCounts, amount: number, now: number): WindowCounts {
  const r = roll(w, now);
  return { ...r, cur: Math.max(0, r.cur + amount) };
}

/**
 * Corrects an amount charged earlier, in the minute starting `chargedAt`: a
 * settle replacing a reservation. Minutes that have slid out are left alone.
 */
export function adjust(w: WindowCounts, chargedAt: number, delta: number, now: number): WindowCounts {
  const r = roll(w, now);
  if (chargedAt === r.start) return { ...r, cur: Math.max(0, r.cur + delta) };
  if (chargedAt === r.start - WINDOW_MS) return { ...r, prev: Math.max(0, r.prev + delta) };
  return r;
}

/** Start of the minute `now` falls in: what a reservation records as `chargedAt`. */
export function minuteOf(now: number): number {
  return now - (now % WINDOW_MS);
}

/**
 * How long until `cost` more fits under `limit`: 0 when it fits now, null when
 * it never can (the cost alone is over the limit).
 */
export function waitMs(w: WindowCounts, limit: number, cost: number, now: number): number | null {
  if (cost > limit) return null;
  const r = roll(w, now);
  const elapsed = now - r.start;
  if (r.cur + cost <= limit) {
    if (fits(r, limit, cost, now)) return 0;
    const at = WINDOW_MS * (1 - (limit - r.cur - cost) / r.prev);
    return Math.max(0, Math.ceil(at - elapsed));
  }
  // Only the next minute can help: its previous minute is today's `cur`.
  const at = WINDOW_MS * (1 - (limit - cost) / r.cur);
  return WINDOW_MS - elapsed + Math.max(0, Math.ceil(at));
}

/** How long until the whole allowance is back (OpenAI's `x-ratelimit-reset-*`). */
export function resetMs(w: WindowCounts, now: number): number {
  const r = roll(w, now);
  const elapsed = now - r.start;
  if (r.cur > 0) return 2 * WINDOW_MS - elapsed;
  if (r.prev > 0) return WINDOW_MS - elapsed;
  return 0;
}
