/**
 * How healthy a target looks for load balancing (pure): from its recent
 * outcomes, a factor in [MIN_FACTOR, 1] by which the balancer scales the
 * target's configured weight. Outcomes are kept as sums that decay with a
 * half-life (HALF_LIFE_MS), so recent calls count most and an idle target
 * drifts back to neutral. For a group of peers:
 *
 *   errorRate   = failures / (calls + PRIOR_CALLS)      (decayed sums; the prior keeps one failure from halving traffic)
 *   meanTtfb    = ttfbSum / ttfbWeight                   (successes only; unknown below MIN_TTFB_WEIGHT)
 *   speed       = min(1, SPEED_SLACK × fastest peer's meanTtfb / meanTtfb)   (1 when either is unknown)
 *   factor      = clamp((1 − errorRate) × speed, MIN_FACTOR, 1)
 *
 * So a target within 1.5× of its fastest peer and without failures keeps its
 * configured weight exactly; one twice as slow as SPEED_SLACK allows gets half;
 * no target drops below a tenth (only an open breaker takes it out).
 */
import type { Mark } from './breaker';

export const HALF_LIFE_MS = 30_000;
export const MIN_FACTOR = 0.1;
export const PRIOR_CALLS = 5;
export const SPEED_SLACK = 1.5;
export const MIN_TTFB_WEIGHT = 2;

/** One call as health counts it: the breaker's mark plus its time to first byte (null: none, e.g. a failure). */
export interface Outcome extends Mark {
  readonly ttfbMs: number | null;
}

/** Decayed sums as of `at`. */
export interface Health {
  readonly at: number;
  readonly calls: number;
  readonly failures: number;
  readonly ttfbSum: number;
  readonly ttfbWeight: number;
}

export const NO_HEALTH: Health = { at: 0, calls: 0, failures: 0, ttfbSum: 0, ttfbWeight: 0 };

/** The sums after one outcome, decayed to `now` (an outcome known earlier counts for less). */
export function observe(health: Health, outcome: Outcome, now: number): Health {
  const h = decayed(health, now);
  const w = decay(now - outcome.at);
  const timed =
    outcome.ok && outcome.ttfbMs !== null && Number.isFinite(outcome.ttfbMs) && outcome.ttfbMs >= 0;
  return {
    at: h.at,
    calls: h.calls + w,
    failures: h.failures + (outcome.ok ? 0 : w),
    ttfbSum: h.ttfbSum + (timed ? (outcome.ttfbMs ?? 0) * w : 0),
    ttfbWeight: h.ttfbWeight + (timed ? w : 0),
  };
}

/** Each peer's factor, in the order given (unknown targets are neutral). */
export function groupFactors(peers: readonly Health[], now: number): number[] {
  const views = peers.map((p) => decayed(p, now));
  const ttfbs = views.map(meanTtfb);
  const known = ttfbs.filter((t): t is number => t !== null);
  const fastest = known.length > 0 ? Math.min(...known) : null;
  return views.map((h, i) => {
    const reliability = 1 - h.failures / (h.calls + PRIOR_CALLS);
    const ttfb = ttfbs[i] ?? null;
    const speed =
      ttfb === null || fastest === null || ttfb === 0 ? 1 : Math.min(1, (SPEED_SLACK * fastest) / ttfb);
    return Math.min(1, Math.max(MIN_FACTOR, reliability * speed));
  });
}

function meanTtfb(h: Health): number | null {
  return h.ttfbWeight >= MIN_TTFB_WEIGHT ? h.ttfbSum / h.ttfbWeight : null;
}

/** The sums as of `now` (unchanged when `now` is not later than their time). */
export function decayed(h: Health, now: number): Health {
  if (now <= h.at) return h;
  const d = decay(now - h.at);
  return {
    at: now,
    calls: h.calls * d,
    failures: h.failures * d,
    ttfbSum: h.ttfbSum * d,
    ttfbWeight: h.ttfbWeight * d,
  };
}

/** The weight of something `age` ms old: halves every HALF_LIFE_MS; never more than 1. */
function decay(age: number): number {
  return age <= 0 ? 1 : 2 ** (-age / HALF_LIFE_MS);
}
