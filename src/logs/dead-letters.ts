/**
 * The dead-letter queue's consumer: the last chance for log messages whose
 * batch failed max_retries times. Each message is written on its own, so one
 * poison message cannot sink the others; a message that still fails is parked
 * in the dead_letters table with the error. Only if D1 refuses even that is the
 * message retried (max_retries 10), and on its last attempt its body goes to
 * the Worker's error log, so nothing is dropped silently.
 */
import { deadLetter, parseMessage } from './messages';
import { errorText, retryDelaySeconds } from './consumer';
import type { LogStore } from './store';

/** Keep in step with max_retries of the dead-letter queue's consumer in wrangler.toml. */
export const DLQ_MAX_RETRIES = 10;

export async function consumeDeadLetters(
  batch: MessageBatch<unknown>,
  store: LogStore,
  now: number,
): Promise<void> {
  for (const message of batch.messages) {
    const parsed = parseMessage(message.body);
    try {
      if (parsed.ok) await store.write([parsed.row], [], now);
      else await store.write([], [deadLetter(message, batch.queue, parsed.reason)], now);
      message.ack();
    } catch (err) {
      const reason = `write failed: ${errorText(err)}`;
      try {
        await store.write([], [deadLetter(message, batch.queue, reason)], now);
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
}
