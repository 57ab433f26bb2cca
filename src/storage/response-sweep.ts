/**
 * The daily cron's part for stored responses: deletes the records expired by now (their D1 index rows and
 * R2 objects, src/storage/response-store.ts), a batch of SWEEP_MAX at a time, at most MAX_BATCHES batches
 * (100,000 records) a run; a larger backlog is finished by the next runs. Expired records are already
 * missing for every reader; this only frees their storage.
 */
import type { Bindings } from '../env';
import { type ResponseStore, StoredResponses, SWEEP_MAX } from './response-store';

const MAX_BATCHES = 100;

/** Deletes expired records in bounded batches; returns how many went. */
export async function sweepResponses(store: ResponseStore, now: number, batch = SWEEP_MAX): Promise<number> {
  const size = Math.min(batch, SWEEP_MAX);
  let deleted = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await store.sweep(now, size);
    deleted += n;
    if (n < size) return deleted;
  }
  console.error(
    'stored responses sweep stopped at its per-run cap; the next run continues',
    JSON.stringify({ deleted }),
  );
  return deleted;
}

/** The scheduled handler's part; the controller's time is the clock. */
export async function sweepScheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const store = new StoredResponses(env.DB, env.RESPONSES ?? null);
  const deleted = await sweepResponses(store, controller.scheduledTime);
  console.log(JSON.stringify({ edgeway_responses_sweep: { cron: controller.cron, deleted } }));
}
