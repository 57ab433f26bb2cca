/**
 * Log retention, run by the daily cron: deletes raw request logs older than
 * LOG_RETENTION_DAYS (default 30) in chunks, so no single D1 query runs long.
 * Usage rollups and dead letters are kept; batch receipts (the reconciliation)
 * go with the logs, a whole isolate at a time. One run deletes at most
 * MAX_CHUNKS × CHUNK rows (1 M); a larger backlog is finished by the next runs.
 */
import type { Bindings } from '../env';
import { LogStore } from './store';

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const CHUNK = 5_000;
const MAX_CHUNKS = 200;

export function retentionDays(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_RETENTION_DAYS;
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
  const store = new LogStore(env.DB);
  const days = retentionDays(env.LOG_RETENTION_DAYS);
  const deleted = await pruneLogs(store, days, controller.scheduledTime);
  const receipts = await store.deleteReceiptsBefore(controller.scheduledTime - days * DAY_MS);
  console.log(JSON.stringify({ edgeway_retention: { cron: controller.cron, deleted, receipts } }));
}
