/**
 * Where raw logs live in R2 (pure). One object per producer batch, tenant and
 * hour, gzip-compressed NDJSON (one log row per line, as the admin API shows it):
 *
 *   logs/v1/tenant=<tenant>/date=<YYYY-MM-DD>/hour=<HH>/<batch>.ndjson.gz
 *
 * - tenant: the tenant id, or `_none` for requests that never authenticated;
 * - date and hour: UTC, of the request's time (its UUIDv7 id names the same hour);
 * - batch: the producer batch (`<isolate>-<seq>`) or, for a message without
 *   one, the queue message id, so a retried or redelivered batch writes the
 *   same key again: it overwrites, never duplicates.
 * Hive-style `name=value` segments let DuckDB, Spark or R2 SQL read the
 * partitions as columns. Retention deletes whole `date=` prefixes.
 */

export const ARCHIVE_ROOT = 'logs/v1/';
export const NO_TENANT = '_none';
const HOUR_MS = 3_600_000;

/** Tenant ids are [A-Za-z0-9_-]; anything else is escaped so it can never form another path. */
export function tenantSegment(tenantId: string | null): string {
  if (tenantId === null) return NO_TENANT;
  return encodeURIComponent(tenantId).replaceAll('.', '%2E');
}

export function tenantPrefix(tenantId: string | null): string {
  return `${ARCHIVE_ROOT}tenant=${tenantSegment(tenantId)}/`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `date=YYYY-MM-DD/hour=HH/` of an epoch-ms time, UTC. */
export function hourSegment(time: number): string {
  const d = new Date(time);
  return `date=${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}/hour=${pad(d.getUTCHours())}/`;
}

export function hourPrefix(tenantId: string | null, time: number): string {
  return tenantPrefix(tenantId) + hourSegment(time);
}

export function objectKey(tenantId: string | null, hourStart: number, batch: string): string {
  return `${hourPrefix(tenantId, hourStart)}${batch.replace(/[^A-Za-z0-9_-]/g, '_')}.ndjson.gz`;
}

/** The start (epoch ms) of the UTC hour holding `time`. */
export const hourOf = (time: number): number => Math.floor(time / HOUR_MS) * HOUR_MS;

/** Every hour start from `from` (inclusive) to `to` (exclusive), oldest first. */
export function hoursBetween(from: number, to: number): number[] {
  const hours: number[] = [];
  for (let h = hourOf(from); h < to; h += HOUR_MS) hours.push(h);
  return hours;
}

/** The day of a `date=YYYY-MM-DD/` segment in a listed prefix; null if it is not one. */
export function dayOfPrefix(prefix: string): string | null {
  return /date=(\d{4}-\d{2}-\d{2})\/$/.exec(prefix)?.[1] ?? null;
}
