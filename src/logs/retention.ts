/**
 * Log retention, run by the daily cron. Without an archive: deletes raw request
 * logs older than LOG_RETENTION_DAYS (default 30) from D1. With LOG_ARCHIVE
 * bound: deletes archived days older than LOG_RETENTION_DAYS from R2
 * (archive/retention.ts) and index rows older than LOG_INDEX_DAYS (default 3)
 * from D1. D1 rows go in chunks, so no single D1 query runs long.
 * Usage rollups and dead letters are kept, except the per-minute analytics buckets (usage_minutely),
 * deleted once older than MINUTE_BUCKET_HOURS (so, with a daily cron, 48 to 72 hours old); batch receipts (the reconciliation)
 * go with the logs, a whole isolate at a time. One run deletes at most
 * MAX_CHUNKS × CHUNK rows (1 M); a larger backlog is finished by the next runs.
 */
import type { Bindings } from '../env';
import { pruneArchive } from './archive/retention';
import { utcDay } from './rows';
import { LogStore } from './store';

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const CHUNK = 5_000;
const MAX_CHUNKS = 200;

export const DEFAULT_INDEX_DAYS = 3;

/** Hours the per-minute analytics buckets are kept: the dashboard reads them for ranges of up to 6 h. */
export const MINUTE_BUCKET_HOURS = 48;

/** LOG_INDEX_DAYS: days the recent index keeps a request; 0 writes no index (rollups only). */
export function indexDaysOf(raw: string | undefined): number {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isInteger(n) && n >= 0 ? n : DEFAULT_INDEX_DAYS;
}

export function retentionDays(raw: string | undefined, fallback = DEFAULT_RETENTION_DAYS): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Deletes raw logs older than `days` before `now`; returns how many rows went. */
export async function pruneLogs(store: LogStore, days: number, now: number): Promise<number> {
  const cutoff = now - days * DAY_MS;
  let deleted = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const n = await store.deleteBefore(cutoff, CHUNK);
    deleted += n;
    if (n < CHUNK) return deleted;
  }
  console.error(
    'log retention stopped at its per-run cap; the next run continues',
    JSON.stringify({ deleted, cutoff }),
  );
  return deleted;
}

/** The Worker's scheduled handler; the controller's time is the clock. */
export async function handleScheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const now = controller.scheduledTime;
  const store = new LogStore(env.DB);
  const days = retentionDays(env.LOG_RETENTION_DAYS);
  const archive = env.LOG_ARCHIVE;
  const indexDays = archive ? Math.min(days, indexDaysOf(env.LOG_INDEX_DAYS)) : days;
  const deleted = await pruneLogs(store, indexDays, now);
  const receipts = await store.deleteReceiptsBefore(now - days * DAY_MS);
  await store.deleteIngestBefore(now - days * DAY_MS);
  const minutes = await store.deleteMinutesBefore(now - MINUTE_BUCKET_HOURS * 3_600_000);
  const archived = archive ? await pruneArchive(archive, utcDay(now - days * DAY_MS)) : null;
  console.log(
    JSON.stringify({ edgeway_retention: { cron: controller.cron, deleted, receipts, minutes, archived } }),
  );
}
