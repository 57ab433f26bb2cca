/**
 * Reads the per-end-user and per-tag rollups (migration 0020) for the admin API: one tenant's top groups
 * by spend over a range of UTC days (end users, or values of one tag key, or every tag=value pair), an
 * optional id prefix, and the totals and count of every group that matched, not only the top ones.
 * The top list and the totals are one D1 batch, so they read the same snapshot. Rollups outlive
 * raw-log retention.
 *
 * Cost: the rows read are the tenant's rollup rows in the range (one per end user, or tag value, per
 * day), since the ranking needs every group's sum; the primary keys (tenant_id, day, …) keep the scan to
 * that tenant and those days.
 */
import * as z from 'zod';
import { USAGE_SUMS, UsageTotals, zeroTotals } from './usage';

export interface TopUsageQuery {
  tenantId: string;
  /** Inclusive UTC days, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  /** How many groups, the costliest first. */
  limit: number;
  /** Only end users (or tag values) whose id starts with this. */
  search?: string | undefined;
}

export type TopGroup = { kind: 'end_user' } | { kind: 'tag'; tag?: string | undefined };

export type TopBucket = UsageTotals & ({ end_user: string } | { tag: string; value: string });

export interface TopUsage {
  data: TopBucket[];
  totals: UsageTotals;
  /** Groups that matched (the data holds the first `limit`). */
  groups: number;
}

const EndUserRow = UsageTotals.extend({ end_user: z.string() });
const TagRow = UsageTotals.extend({ tag: z.string(), value: z.string() });

export async function topUsage(db: D1Database, group: TopGroup, q: TopUsageQuery): Promise<TopUsage> {
  const byTag = group.kind === 'tag';
  const table = byTag ? 'usage_tags_daily' : 'usage_end_users_daily';
  const keys = byTag ? 'tag, value' : 'end_user';
  const searched = byTag ? 'value' : 'end_user';
  const where = ['tenant_id = ?', 'day >= ?', 'day <= ?'];
  const binds: (string | number)[] = [q.tenantId, q.from, q.to];
  if (group.kind === 'tag' && group.tag !== undefined) {
    where.push('tag = ?');
    binds.push(group.tag);
  }
  if (q.search !== undefined) {
    // The range bound lets the primary key skip what sorts before the prefix; substr checks the prefix
    // in characters, as SQLite's length() counts them.
    where.push(`${searched} >= ?`, `substr(${searched}, 1, length(?)) = ?`);
    binds.push(q.search, q.search, q.search);
  }
  const grouped = `SELECT ${keys}, ${USAGE_SUMS} FROM ${table} WHERE ${where.join(' AND ')} GROUP BY ${keys}`;
  const totals = `SELECT count(*) AS groups, ${USAGE_SUMS} FROM (${grouped})`;
  const [top, all] = await db.batch<Record<string, unknown>>([
    db.prepare(`${grouped} ORDER BY cost_usd DESC, requests DESC, ${keys} LIMIT ?`).bind(...binds, q.limit),
    db.prepare(totals).bind(...binds),
  ]);
  const row = all?.results[0] ?? {};
  return {
    data: (top?.results ?? []).map((r) => (byTag ? TagRow.parse(r) : EndUserRow.parse(r))),
    totals: UsageTotals.parse(withZeros(row)),
    groups: z.number().parse(row.groups),
  };
}

/** The tag keys the tenant's usage was rolled up by in the range, sorted (at most 100). */
export async function tagKeys(db: D1Database, tenantId: string, from: string, to: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      'SELECT DISTINCT tag FROM usage_tags_daily WHERE tenant_id = ? AND day >= ? AND day <= ? ORDER BY tag LIMIT 100',
    )
    .bind(tenantId, from, to)
    .all<{ tag: string }>();
  return results.map((r) => r.tag);
}

/** SUM over no rows is NULL: the totals of a range with no usage read as zeros. */
function withZeros(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(zeroTotals())) out[k] = r[k] ?? 0;
  return out;
}
