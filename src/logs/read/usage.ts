/**
 * Reads the usage_daily rollups for the admin API: per UTC day (every day of
 * the range, zeros included, so charts need no gap filling) or per model,
 * for everything, one tenant or one key. Rollups outlive raw-log retention. Per model, the requests
 * that named no model and the failed lookups (model '', src/logs/rollups.ts) count in the totals only.
 */
import * as z from 'zod';

export const UsageTotals = z.object({
  requests: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number(),
  cost_usd: z.number(),
  cache_hits: z.number(),
  saved_tokens: z.number(),
  saved_usd: z.number(),
  errors: z.number(),
});
export type UsageTotals = z.output<typeof UsageTotals>;

const Row = UsageTotals.extend({ bucket: z.string() });

export interface UsageQuery {
  tenantId?: string | undefined;
  keyId?: string | undefined;
  /** Inclusive UTC days, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  groupBy: 'day' | 'model';
}

export type UsageBucket = UsageTotals & ({ day: string } | { model: string | null });

export function zeroTotals(): UsageTotals {
  return {
    requests: 0,
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    cost_usd: 0,
    cache_hits: 0,
    saved_tokens: 0,
    saved_usd: 0,
    errors: 0,
  };
}

/** Every counter summed under its own name (the rollup tables share their counters, src/logs/rollups.ts). */
export const USAGE_SUMS = Object.keys(zeroTotals())
  .map((c) => `sum(${c}) AS ${c}`)
  .join(', ');

export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof UsageTotals)[]) out[k] += b[k];
  return out;
}

/** Every UTC day from `from` to `to`, inclusive (pure). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`);
    t <= end;
    t += 86_400_000
  ) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export class UsageReader {
  constructor(private readonly db: D1Database) {}

  async query(q: UsageQuery): Promise<{ data: UsageBucket[]; totals: UsageTotals }> {
    const where = ['day >= ?', 'day <= ?'];
    const binds: string[] = [q.from, q.to];
    if (q.tenantId !== undefined) {
      where.push('tenant_id = ?');
      binds.push(q.tenantId);
    }
    if (q.keyId !== undefined) {
      where.push('key_id = ?');
      binds.push(q.keyId);
    }
    const bucket = q.groupBy === 'day' ? 'day' : 'model';
    const { results } = await this.db
      .prepare(
        `SELECT ${bucket} AS bucket, ${USAGE_SUMS} FROM usage_daily WHERE ${where.join(' AND ')} GROUP BY bucket ORDER BY bucket`,
      )
      .bind(...binds)
      .all();
    const rows = results.map((r) => Row.parse(r));
    const totals = rows.reduce<UsageTotals>((t, { bucket: _, ...r }) => addTotals(t, r), zeroTotals());
    if (q.groupBy === 'model') {
      // Model '' holds the requests that named no model and the failed lookups (lookup_failures_daily
      // keeps their names): no model's usage, so in the totals but in no row.
      return {
        data: rows.filter((r) => r.bucket !== '').map(({ bucket, ...r }) => ({ model: bucket, ...r })),
        totals,
      };
    }
    const byDay = new Map(rows.map(({ bucket, ...r }) => [bucket, r]));
    return {
      data: daysBetween(q.from, q.to).map((day) => ({ day, ...(byDay.get(day) ?? zeroTotals()) })),
      totals,
    };
  }
}
