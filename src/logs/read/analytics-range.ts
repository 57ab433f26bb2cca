/**
 * An analytics range (pure): a preset (1h, 24h, 7d, 30d) ending now, or from/to, resolved to the rollup
 * table it reads and the step of its time series. Ranges up to 6 h read the per-minute buckets (kept
 * 48 h; an older short range reads the hourly ones), longer ones the hourly buckets. The step is the
 * smallest of STEPS no finer than the table that gives at most MAX_POINTS points, so a chart always spans
 * the whole range with bars of one width:
 * 1 h → 1 min (61 points), 24 h → 1 h, 7 d → 3 h, 30 d → 6 h.
 */

export const PRESETS = ['1h', '24h', '7d', '30d'] as const;
export type Preset = (typeof PRESETS)[number];

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const PRESET_MS: Record<Preset, number> = { '1h': HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

/** Ranges up to this long read usage_minutely, if it still holds their start (retention keeps 48 h). */
export const MINUTE_RANGE_MAX_MS = 6 * HOUR;
const MINUTES_KEPT_MS = 48 * HOUR;
/** The longest range: hourly buckets are kept forever, but a page of a year of them is not a page view. */
export const MAX_RANGE_MS = 400 * DAY;
const MAX_POINTS = 125;
/** Series steps; each divides a day, so `start - start % step` aligns to UTC. */
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY];

export interface AnalyticsRange {
  preset: Preset | 'custom';
  /** Inclusive epoch ms bounds on a bucket's start. */
  from: number;
  to: number;
  table: 'usage_minutely' | 'usage_hourly';
  granularity: 'minute' | 'hour';
  /** The time series' bucket width (ms): a multiple of the table's. */
  stepMs: number;
  /** The UTC days the range touches, for the daily tables (end users, failed lookups). */
  days: { from: string; to: string };
}

export type RangeInput = { preset: Preset } | { from: number; to: number };

export type RangeProblem = { problem: 'inverted' | 'too_long'; message: string };

export function resolveRange(input: RangeInput, now: number): AnalyticsRange | RangeProblem {
  const preset = 'preset' in input ? input.preset : 'custom';
  const to = 'preset' in input ? now : input.to;
  const from = 'preset' in input ? now - PRESET_MS[input.preset] : input.from;
  if (from > to) return { problem: 'inverted', message: '`from` must not be after `to`.' };
  if (to - from > MAX_RANGE_MS)
    return { problem: 'too_long', message: `The range spans more than ${MAX_RANGE_MS / DAY} days.` };
  const minutes = to - from <= MINUTE_RANGE_MAX_MS && from >= now - MINUTES_KEPT_MS;
  const unit = minutes ? MINUTE : HOUR;
  const stepMs = STEPS.find((s) => s >= unit && (to - from) / s <= MAX_POINTS) ?? DAY;
  return {
    preset,
    // The bucket that holds `from` counts whole: a range starts on its table's bucket boundary.
    from: from - (from % unit),
    to,
    table: minutes ? 'usage_minutely' : 'usage_hourly',
    granularity: minutes ? 'minute' : 'hour',
    stepMs,
    days: { from: utcDay(from), to: utcDay(to) },
  };
}

/** Every step's start from the range's first to the one holding `to` (the series' x axis, pure). */
export function stepStarts(range: AnalyticsRange): number[] {
  const out: number[] = [];
  const last = range.to - (range.to % range.stepMs);
  for (let t = range.from - (range.from % range.stepMs); t <= last; t += range.stepMs) out.push(t);
  return out;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
