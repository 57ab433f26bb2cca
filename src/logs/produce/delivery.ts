/**
 * Delivering one log batch: the queue, retried with backoff; then, if the
 * queue still refuses, straight into D1 through the consumer's own store code
 * (the same idempotent transaction, recorded as a `direct` receipt), so the
 * events are stored and counted rather than lost. D1 is the fallback because
 * it is where the events end up anyway: durable, strongly consistent,
 * exactly-once with the queue path (a send that failed but did arrive is
 * ignored on the request id and the batch's (isolate, seq)), and needs no
 * replay job. Only when D1 refuses as well does the batch go to the error
 * log, whole, and it then shows as a missing sequence in the reconciliation.
 */
import { errorText } from '../consume/consumer';
import type { LogBatch } from '../../core/log-batch';
import { unpackBatch } from '../consume/messages';
import type { LogStore } from '../store';

/** Queue sends per batch before the fallback; waits between them (ms), doubled each time. */
export const SEND_ATTEMPTS = 3;
export const FIRST_BACKOFF_MS = 50;

export type Outcome = 'queued' | 'stored directly' | 'lost';

/** The one queue method delivery uses (the LOG_QUEUE binding, or a test's adapter around it). */
export interface LogQueue {
  send(body: unknown, options?: QueueSendOptions): Promise<unknown>;
}

export interface DeliveryPorts {
  readonly queue: LogQueue;
  /** The fallback store; null where there is no D1 (the batch then goes to the error log). */
  readonly store: LogStore | null;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function deliverBatch(batch: LogBatch, ports: DeliveryPorts): Promise<Outcome> {
  const sleep = ports.sleep ?? wait;
  let error: unknown;
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    try {
      await ports.queue.send(batch, { contentType: 'json' });
      return 'queued';
    } catch (err) {
      error = err;
      if (attempt < SEND_ATTEMPTS) await sleep(FIRST_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
  const summary = { isolate: batch.isolate, seq: batch.seq, events: batch.events.length };
  if (ports.store) {
    try {
      const unpacked = unpackBatch(batch, {
        id: `direct:${batch.isolate}:${batch.seq}`,
        queue: 'direct',
        attempts: SEND_ATTEMPTS,
      });
      await ports.store.write(unpacked.rows, unpacked.dead, (ports.now ?? Date.now)(), [
        { ...unpacked.receipt, via: 'direct' },
      ]);
      console.error(
        'log batch stored directly after queue sends failed',
        JSON.stringify({ ...summary, error: errorText(error) }),
      );
      return 'stored directly';
    } catch (storeErr) {
      error = storeErr;
    }
  }
  console.error('log batch lost', JSON.stringify({ ...summary, error: errorText(error), body: batch }));
  return 'lost';
}
