/**
 * Where LogEvents go: the log Queue (batched per isolate; its consumer writes
 * D1), the Worker's console, or nowhere, chosen by LOG_SINK; and the one call
 * that hands an event over (from the exchange's exit, inside waitUntil), which
 * first makes it sendable (src/logs/produce/normalise.ts).
 */
import { LOG_BATCH_WAIT_MS } from '../../config';
import type { LogEvent, LogSink } from '../../core/log-event';
import { LogBatcher } from './batcher';
import { deliverBatch, type LogQueue } from './delivery';
import { normaliseEvent } from './normalise';
import { LogStore } from '../store';

/** Where a batch the queue refuses is written instead, and how long a batch waits to fill. */
export interface SinkOptions {
  /** The fallback store's database; a refused batch is lost without it. */
  readonly db?: D1Database | null;
  readonly archive?: R2Bucket | null;
  /** Whether the fallback store writes the D1 index (LOG_INDEX_DAYS > 0). */
  readonly index?: boolean;
  /** LOG_BATCH_WAIT_MS. */
  readonly waitMs?: number;
}

/**
 * Production and dev: the log Queue, one batcher per sink (deps are built once
 * per isolate). A batch the queue refuses after its retries is written to
 * `db` directly (src/logs/produce/delivery.ts).
 */
export function queueSink(queue: LogQueue, options: SinkOptions = {}): LogSink {
  const { db = null, archive = null, index = true, waitMs = LOG_BATCH_WAIT_MS } = options;
  const store = db ? new LogStore(db, archive, { index }) : null;
  const batcher = new LogBatcher({
    deliver: (batch) => deliverBatch(batch, { queue, store }).then(() => {}),
    waitMs,
  });
  return { send: (event) => batcher.add(event) };
}

/** Without a queue binding the event goes to the Worker's own log stream (wrangler tail). */
export const consoleSink: LogSink = {
  send: async (event) => console.log(JSON.stringify({ edgeway_log: event })),
};

/**
 * LOG_SINK picks the sink: "queue" (the default; the console when the
 * LOG_QUEUE binding is absent), "console", or "off" (benchmarks measuring
 * logging on versus off; requests are then not logged at all).
 */
export function chooseSink(
  mode: string | undefined,
  queue: LogQueue | undefined,
  options: SinkOptions = {},
): LogSink {
  if (mode === 'off') return offSink;
  if (mode === 'console' || !queue) return consoleSink;
  return queueSink(queue, options);
}

const offSink: LogSink = { send: async () => {} };

/** Normalises and sends one event; a failure is reported, never thrown (the caller runs inside waitUntil). */
export async function emit(sink: LogSink, event: LogEvent): Promise<void> {
  await Promise.resolve()
    .then(() => sink.send(normaliseEvent(event, Date.now())))
    .catch((err: unknown) => console.error('log send failed', err instanceof Error ? err.message : err));
}
