/**
 * The dead-letter queue's consumer: the last chance for log messages whose
 * batch failed max_retries times. Each message (a batch of events, or one
 * event) is written on its own, with its receipt, so one
 * poison message cannot sink the others; a message that still fails is parked
 * in the dead_letters table with the error. Only if D1 refuses even that is the
 * message retried (max_retries 10), and on its last attempt its body goes to
 * the Worker's error log, so nothing is dropped silently. The events it stores
 * were never exported (the log consumer exports only what it stored), so they
 * are exported here, spans and metrics in one request each for the batch, as the consumer does.
 */
import type { LogEvent } from '../../core/log-event';
import { deadLetter, unpack } from './messages';
import { errorText, exportBatch, type OtelExport, retryDelaySeconds } from './consumer';
import type { LogStore } from '../store';

const isBatch = (body: unknown): body is { events: unknown[] } =>
  typeof body === 'object' && body !== null && 'events' in body && Array.isArray(body.events);

/** Keep in step with max_retries of the dead-letter queue's consumer in wrangler.toml. */
export const DLQ_MAX_RETRIES = 10;

export async function consumeDeadLetters(
  batch: MessageBatch<unknown>,
  store: LogStore,
  now: number,
  otel: OtelExport = null,
): Promise<void> {
  const stored: LogEvent[] = [];
  for (const message of batch.messages) {
    const source = { id: message.id, queue: batch.queue, attempts: message.attempts };
    const { rows, events, dead, receipt } = unpack(message.body, source);
    try {
      await store.write(rows, dead, now, receipt ? [{ ...receipt, via: 'dlq' }] : []);
      message.ack();
      stored.push(...events);
    } catch (err) {
      const reason = `write failed: ${errorText(err)}`;
      // Parked event by event (a batch's body could exceed a dead letter's cap), with the receipt.
      const events = receipt && isBatch(message.body) ? message.body.events : [message.body];
      const parked = events.map((body, i) =>
        deadLetter(receipt ? `${message.id}:${i}` : message.id, source, body, reason),
      );
      try {
        await store.write(
          [],
          parked,
          now,
          receipt ? [{ ...receipt, stored: 0, dead: parked.length, via: 'dlq' }] : [],
        );
        console.error(
          'log message parked in dead_letters',
          JSON.stringify({ message_id: message.id, reason }),
        );
        message.ack();
      } catch (parkErr) {
        const last = message.attempts > DLQ_MAX_RETRIES;
        console.error(
          last ? 'log message dropped after every retry' : 'dead letter could not be stored; retrying',
          JSON.stringify({
            message_id: message.id,
            attempts: message.attempts,
            error: errorText(parkErr),
            body: last ? message.body : undefined,
          }),
        );
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }
  }
  if (otel) await exportBatch(stored, otel, batch.queue, now);
}
