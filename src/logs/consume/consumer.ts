/**
 * The log queue's consumer: one D1 transaction per batch (see src/logs/store.ts for the
 * exactly-once rollups). A message is a batch of events or, from older
 * producers, one event (messages.ts). Malformed events are parked in
 * dead_letters in that same transaction and acked, since retrying cannot fix
 * them; each batch's receipt is recorded there too, for the reconciliation. If the write
 * fails, the whole batch is retried with backoff; after max_retries (5, in
 * wrangler.toml) the queue moves it to the dead-letter queue, whose consumer
 * (dead-letters.ts) writes the messages one by one and parks any that still fail.
 * Once a batch is stored and acked, its events are exported as spans, and as GenAI
 * metrics aggregated over the batch, when an OpenTelemetry collector is configured
 * (src/logs/otel/export.ts: the two requests concurrently, each retried there, never
 * by retrying the batch, so the export cannot hold up or repeat the D1 write).
 */
import type { LogEvent } from '../../core/log-event';
import { unpack } from './messages';
import type { OtelConfig } from '../otel/config';
import { type ExportPorts, exportMetrics, exportSpans } from '../otel/export';
import type { LogRow } from '../rows';
import type { DeadLetter, LogStore, Receipt } from '../store';

/** Where the consumer exports spans and metrics; null when no collector is configured. */
export type OtelExport = { readonly config: OtelConfig; readonly ports: ExportPorts } | null;

export async function consumeLogs(
  batch: MessageBatch<unknown>,
  store: LogStore,
  now: number,
  otel: OtelExport = null,
): Promise<void> {
  const rows: LogRow[] = [];
  const events: LogEvent[] = [];
  const dead: DeadLetter[] = [];
  const receipts: Receipt[] = [];
  for (const message of batch.messages) {
    const unpacked = unpack(message.body, { id: message.id, queue: batch.queue, attempts: message.attempts });
    rows.push(...unpacked.rows);
    events.push(...unpacked.events);
    dead.push(...unpacked.dead);
    if (unpacked.receipt) receipts.push({ ...unpacked.receipt, via: 'queue' });
    for (const d of unpacked.dead) {
      console.error(
        'log message rejected',
        JSON.stringify({ queue: batch.queue, message_id: d.message_id, reason: d.reason }),
      );
    }
  }
  try {
    await store.write(rows, dead, now, receipts);
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
    return;
  }
  if (otel) await exportBatch(events, otel, batch.queue, now);
}

/**
 * Exports a stored batch's events as spans and as metrics, concurrently; a failure is reported, never
 * thrown (the batch is acked already), and one signal's failure does not stop the other.
 */
export async function exportBatch(
  events: LogEvent[],
  otel: NonNullable<OtelExport>,
  queue: string,
  now: number,
): Promise<void> {
  const { config, ports } = otel;
  await Promise.all([
    reported('spans', queue, () => exportSpans(events, config, ports)),
    reported('metrics', queue, () => exportMetrics(events, config, ports, now)),
  ]);
}

async function reported(
  what: 'spans' | 'metrics',
  queue: string,
  run: () => Promise<{ ok: boolean }>,
): Promise<void> {
  const message =
    what === 'spans'
      ? 'OpenTelemetry export failed; spans dropped'
      : 'OpenTelemetry metrics export failed; data points dropped';
  try {
    const outcome = await run();
    if (!outcome.ok) console.error(message, JSON.stringify({ queue, ...outcome }));
  } catch (err) {
    console.error(message, JSON.stringify({ queue, error: errorText(err) }));
  }
}

/** 5 s, 10 s, 20 s, 40 s, then every 60 s: rides out a D1 blip without hammering it. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60, 5 * 2 ** Math.max(0, attempts - 1));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
