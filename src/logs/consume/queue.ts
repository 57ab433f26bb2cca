/**
 * The Worker's queue handler: log batches, and the log dead-letter queue
 * (recognised by its `-dlq` suffix); the events either stores are exported as spans and
 * GenAI metrics when OTEL_EXPORTER_OTLP_ENDPOINT (or a signal's own endpoint) is set
 * (src/logs/otel/config.ts).
 */
import type { Bindings } from '../../env';
import { consumeLogs, type OtelExport } from './consumer';
import { consumeDeadLetters } from './dead-letters';
import { otelConfig } from '../otel/config';
import { indexDaysOf } from '../retention';
import { LogStore } from '../store';

/** The collector is reached with the Worker's own fetch (a method reference would lose its `this`). */
const ports = { fetch: (request: Request) => fetch(request) };

export async function handleQueue(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const store = new LogStore(env.DB, env.LOG_ARCHIVE ?? null, { index: indexDaysOf(env.LOG_INDEX_DAYS) > 0 });
  if (batch.queue.endsWith('-dlq')) await consumeDeadLetters(batch, store, Date.now(), otelExport(env));
  else await consumeLogs(batch, store, Date.now(), otelExport(env));
}

function otelExport(env: Bindings): OtelExport {
  const config = otelConfig(env);
  return config ? { config, ports } : null;
}
