/**
 * Reads usage_totals (migration 0023): all-time usage per tenant, model and provider, the cumulative
 * counters and latency / TTFT histograms GET /admin/metrics exposes, with the names of the tenants in
 * scope. One D1 round trip (a batch of two statements), over a table of one row per tenant × model ×
 * provider (never the raw logs), optionally narrowed to some tenants; rows come in primary-key order, so
 * an exposition built from them is stable from scrape to scrape.
 */
import * as z from 'zod';
import { LATENCY_BUCKETS } from '../../core/latency-buckets';
import { ANALYTICS_COUNTER_COLUMNS, type AnalyticsCounter } from '../rollups';

/** The counter columns, as the table names them (src/logs/rollups.ts writes them). */
export const TOTAL_COUNTERS = ANALYTICS_COUNTER_COLUMNS;
export type TotalCounter = AnalyticsCounter;

export interface UsageTotalsRow {
  /** '' for requests that never authenticated; model and provider '' for requests that reached no model. */
  readonly tenantId: string;
  readonly model: string;
  readonly provider: string;
  readonly counts: Readonly<Record<TotalCounter, number>>;
  /** latency_ms histogram: LATENCY_BUCKETS counts, bucket i per src/core/latency-buckets.ts (not cumulative). */
  readonly latency: readonly number[];
  /** ttft_ms histogram of the requests that had a first token, same buckets. */
  readonly ttft: readonly number[];
}

const bucketColumns = (prefix: string) => Array.from({ length: LATENCY_BUCKETS }, (_, i) => `${prefix}_${i}`);
const LAT = bucketColumns('lat');
const TTFT = bucketColumns('ttft');

/** The row as D1 returns it: the key columns typed here, each count checked as it is read. */
const RowKeys = z.looseObject({ tenant_id: z.string(), model: z.string(), provider: z.string() });
const Count = z.number().nonnegative();

export interface UsageTotalsScope {
  /** Only these tenants' rows; undefined for every row. */
  readonly tenantIds?: readonly string[] | undefined;
}

export interface TenantName {
  readonly id: string;
  readonly name: string;
}

export interface UsageTotals {
  readonly rows: UsageTotalsRow[];
  /** Every tenant in scope, with or without usage, by id. */
  readonly tenants: TenantName[];
}

const TenantRow = z.object({ id: z.string(), name: z.string() });

export async function readUsageTotals(db: D1Database, scope: UsageTotalsScope): Promise<UsageTotals> {
  // One bound parameter whatever the number of tenants (D1 allows 100 per statement).
  const only = (column: string) =>
    scope.tenantIds ? `WHERE ${column} IN (SELECT value FROM json_each(?))` : '';
  const binds = scope.tenantIds ? [JSON.stringify(scope.tenantIds)] : [];
  const [totals, tenants] = await db.batch([
    db
      .prepare(`SELECT * FROM usage_totals ${only('tenant_id')} ORDER BY tenant_id, model, provider`)
      .bind(...binds),
    db.prepare(`SELECT id, name FROM tenants ${only('id')} ORDER BY id`).bind(...binds),
  ]);
  return {
    rows: (totals?.results ?? []).map(toRow),
    tenants: (tenants?.results ?? []).map((t) => TenantRow.parse(t)),
  };
}

function toRow(raw: unknown): UsageTotalsRow {
  const r = RowKeys.parse(raw);
  const n = (column: string) => Count.parse(r[column]);
  return {
    tenantId: r.tenant_id,
    model: r.model,
    provider: r.provider,
    counts: Object.fromEntries(TOTAL_COUNTERS.map((c) => [c, n(c)])) as Record<TotalCounter, number>,
    latency: LAT.map(n),
    ttft: TTFT.map(n),
  };
}
