/** The Worker's queue handler: log batches, and the log dead-letter queue (recognised by its `-dlq` suffix). */
import type { Bindings } from '../env';
import { consumeLogs } from './consumer';
import { consumeDeadLetters } from './dead-letters';
import { LogStore } from './store';

export async function handleQueue(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const store = new LogStore(env.DB);
  if (batch.queue.endsWith('-dlq')) await consumeDeadLetters(batch, store, Date.now());
  else await consumeLogs(batch, store, Date.now());
}
