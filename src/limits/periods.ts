/**
 * Budget periods (pure): the UTC day, the UTC calendar month, and all time.
 * Each period has a key naming its ledger row ('2026-11-03', '2026-11',
 * 'total'), so a new day needs no reset job: it simply starts a new row.
 */

export const PERIODS = ['day', 'month', 'total'] as const;
export type Period = (typeof PERIODS)[number];

const pad = (n: number) => String(n).padStart(2, '0');

/** The ledger row key of the period that `now` falls in. */
export function periodKey(period: Period, now: number): string {
  if (period === 'total') return 'total';
  const d = new Date(now);
  const month = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
  return period === 'month' ? month : `${month}-${pad(d.getUTCDate())}`;
}

/** When the period containing `now` ends (epoch ms); null for the total, which never resets. */
export function periodEnd(period: Period, now: number): number | null {
  if (period === 'total') return null;
  const d = new Date(now);
  return period === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
