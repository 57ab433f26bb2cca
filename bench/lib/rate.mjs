/**
 * Open-loop rate control and the step search for the highest sustained rate, pure.
 *
 * Open loop: request i is due at t0 + i/rate whatever happened to the earlier
 * ones, and its latency is measured from that intended send time, not from when
 * the client managed to send it. A stalled server therefore shows up as latency
 * (no coordinated omission: the generator never waits for a reply before sending
 * the next request). bench/loadgen/main.go implements the same schedule.
 */
import { summarize } from './stats.mjs';

/** Intended send time of request i, in µs after t0. */
export function intendedOffsetUs(i, rate) {
  return Math.floor((i * 1e6) / rate);
}

/** How many requests an open-loop run of `durationMs` at `rate` sends. */
export function plannedCount(rate, durationMs) {
  return Math.ceil((durationMs * rate) / 1000);
}

/**
 * Reads one open-loop run: `samples` are parallel arrays (start_us = intended
 * offset, lat_us = completion − intended send, status 0 = transport error or
 * timeout). Requests due during the warm-up are dropped. Achieved rate counts
 * successful replies over the window from the first measured due time to the
 * later of the planned end and the last reply, so a server that falls behind
 * shows a lower rate rather than a longer run.
 */
export function analyzeOpenLoop({ samples, rate, durationMs, warmupMs = 0 }) {
  const from = warmupMs * 1000;
  const latencies = [];
  let sent = 0;
  let errors = 0;
  let lastEnd = durationMs * 1000;
  const statuses = {};
  for (let i = 0; i < samples.start_us.length; i++) {
    const start = samples.start_us[i];
    if (start < from) continue;
    sent++;
    const status = samples.status[i];
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) {
      latencies.push(samples.lat_us[i] / 1000);
      lastEnd = Math.max(lastEnd, start + samples.lat_us[i]);
    } else errors++;
  }
  const windowS = (lastEnd - from) / 1e6;
  return {
    targetRps: rate,
    sent,
    ok: latencies.length,
    errors,
    errorRate: sent ? errors / sent : 1,
    achievedRps: windowS > 0 ? latencies.length / windowS : 0,
    statuses,
    latencyMs: summarize(latencies),
  };
}

export const SUSTAINED = { p99Ms: 1000, maxErrorRate: 0.001, minAchievedRatio: 0.95 };

/** Whether a run sustained its rate: p99 below the bound, errors below the bound, and the rate really achieved. */
export function sustained(run, criteria = SUSTAINED) {
  const reasons = [];
  if (run.sent === 0) reasons.push('nothing sent');
  if (run.errorRate >= criteria.maxErrorRate) reasons.push(`errors ${(run.errorRate * 100).toFixed(2)}%`);
  if (!(run.latencyMs.p99 < criteria.p99Ms)) reasons.push(`p99 ${Math.round(run.latencyMs.p99)} ms`);
  if (run.achievedRps < run.targetRps * criteria.minAchievedRatio)
    reasons.push(`achieved ${Math.round(run.achievedRps)}/s`);
  return { pass: reasons.length === 0, reasons };
}

/** Rounds a level to a whole number with at most two significant figures (the search never needs finer steps). */
export function roundRate(x) {
  if (x <= 0) return 0;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 1);
  return Math.max(1, Math.round(x / magnitude) * magnitude);
}

/**
 * Next level of a step search, or null when done. `history` is [{ level, pass }].
 * Grows by `factor` while every level passes, walks down by `factor` while
 * nothing has passed, then bisects geometrically between the best pass and the
 * lowest failure until they are within `precision` (0.1 = 10 %).
 */
export function nextLevel(
  history,
  { start, factor = 1.5, max = Infinity, min = 1, precision = 0.1, maxSteps = 12 },
) {
  if (history.length === 0) return start;
  if (history.length >= maxSteps) return null;
  const passes = history.filter((h) => h.pass).map((h) => h.level);
  const fails = history.filter((h) => !h.pass).map((h) => h.level);
  const lo = passes.length ? Math.max(...passes) : 0;
  const hi = fails.length ? Math.min(...fails.filter((f) => f > lo).concat(Infinity)) : Infinity;
  let next;
  if (hi === Infinity) next = lo >= max ? null : Math.min(max, roundRate(lo * factor));
  else if (lo === 0) next = hi <= min ? null : Math.max(min, roundRate(hi / factor));
  else next = hi / lo <= 1 + precision ? null : roundRate(Math.sqrt(lo * hi));
  if (next === null || history.some((h) => h.level === next)) return null;
  return next;
}

/** The highest passing level of a finished search (0 when none passed). */
export function bestLevel(history) {
  const passes = history.filter((h) => h.pass).map((h) => h.level);
  return passes.length ? Math.max(...passes) : 0;
}
