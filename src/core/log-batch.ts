/**
 * The log queue's message (version 2): several LogEvents in one message,
 * numbered per producing isolate. `seq` counts an isolate's batches from 1 and
 * `sent` is how many events the isolate had handed over up to and including
 * this batch, so the consumer's receipts (log_batches) show what was sent,
 * what arrived and which batches are missing, without a write per request
 * (src/logs/read/reconcile.ts). Version 1 messages — one bare LogEvent — are still
 * accepted by the consumer (src/logs/consume/messages.ts).
 */
import * as z from 'zod';
import type { LogEvent } from './log-event';

/** Most events in one batch; a flush happens at this count, at the byte cap, or after the wait. */
export const MAX_BATCH_EVENTS = 50;

export const LogBatch = z.object({
  v: z.literal(2),
  isolate: z.string().min(1).max(64),
  seq: z.number().int().positive(),
  sent: z.number().int().positive(),
  events: z.array(z.unknown()).min(1).max(MAX_BATCH_EVENTS),
});
export type LogBatch = Omit<z.infer<typeof LogBatch>, 'events'> & { events: LogEvent[] };

/** Whether a queue body claims to be a batch (then it must validate as one). */
export function isBatchBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'v' in body && 'events' in body;
}
