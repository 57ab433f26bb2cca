/**
 * The log queue's consumer: one D1 transaction per batch (see store.ts for the
 * exactly-once rollups). Malformed messages are parked in dead_letters in that
 * same transaction and acked, since retrying cannot fix them. If the write
 * fails, the whole batch is retried with backoff; after max_retries (5, in
 * wrangler.toml) the queue moves it to the dead-letter queue, whose consumer
 * (dead-letters.ts) writes the messages one by one and parks any that still fail.
 */
import { deadLetter, parseMessage } from './messages';
import type { LogRow } from './rows';
import type { DeadLetter, LogStore } from './store';

export async function consumeLogs(batch: MessageBatch<unknown>, store: LogStore, now: number): Promise<void> {
  const rows: LogRow[] = [];
  const dead: DeadLetter[] = [];
  for (const message of batch.messages) {
    const parsed = parseMessage(message.body);
    if (parsed.ok) {
      rows.push(parsed.row);
    } else {
      console.error(
        'log message rejected',
        JSON.stringify({ queue: batch.queue, message_id: message.id, reason: parsed.reason }),
      );
      dead.push(deadLetter(message, batch.queue, parsed.reason));
    }
  }
  try {
    await store.write(rows, dead, now);
    batch.ackAll();
  } catch (err) {
    const attempts = Math.max(...batch.messages.map((m) => m.attempts));
    console.error(
      'log batch write failed; retrying',
      JSON.stringify({
        queue: batch.queue,
        messages: batch.messages.length,
        attempts,
        error: errorText(err),
      }),
    );
    batch.retryAll({ delaySeconds: retryDelaySeconds(attempts) });
  }
}

/** 5 s, 10 s, 20 s, 40 s, then every 60 s: rides out a D1 blip without hammering it. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60, 5 * 2 ** Math.max(0, attempts - 1));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
