/**
 * A log queue message at the boundary (pure): a batch (src/core/log-batch.ts) or
 * a single LogEvent (the version 1 message, still accepted). Each event is
 * validated with the LogEvent schema and turned into a row, or kept as a dead
 * letter with its reason; a batch also yields its receipt for the
 * reconciliation. A message that fails validation never becomes valid on
 * retry, so it is parked, not retried.
 */
import { hourOf, objectKey } from '../archive/layout';
import { LogEvent } from '../../core/log-event';
import { isBatchBody, LogBatch } from '../../core/log-batch';
import { toRow, type LogRow } from '../rows';
import type { DeadLetter, Receipt } from '../store';

export type Parsed = { ok: true; row: LogRow; event: LogEvent } | { ok: false; reason: string };

/** Where a message came from: the queue's message id and attempts, or the producer's direct write. */
export interface Source {
  readonly id: string;
  readonly queue: string;
  readonly attempts: number;
}

export interface Unpacked {
  readonly rows: LogRow[];
  /** The valid events the rows were made from (for the OpenTelemetry export), in the same order. */
  readonly events: LogEvent[];
  readonly dead: DeadLetter[];
  /** The batch's numbering and counts; null for a version 1 message or a malformed envelope. */
  readonly receipt: Omit<Receipt, 'via'> | null;
}

/** Longest message body kept in dead_letters, in characters: one whole event always fits. */
const MAX_DEAD_BODY = 128 * 1024;

/**
 * The row with the archive object it belongs in: fixed by its producer batch (or queue message),
 * tenant and hour, so every path that writes the batch (queue, dead-letter queue, direct) names the
 * same object.
 */
function archived(row: LogRow, batch: string): LogRow {
  const tenant = typeof row.tenant_id === 'string' ? row.tenant_id : null;
  return { ...row, archive_key: objectKey(tenant, hourOf(Number(row.time)), batch) };
}

export function unpack(body: unknown, source: Source): Unpacked {
  if (!isBatchBody(body)) {
    const parsed = parseEvent(body);
    return parsed.ok
      ? { rows: [archived(parsed.row, source.id)], events: [parsed.event], dead: [], receipt: null }
      : { rows: [], events: [], dead: [deadLetter(source.id, source, body, parsed.reason)], receipt: null };
  }
  const batch = LogBatch.safeParse(body);
  if (!batch.success) {
    return {
      rows: [],
      events: [],
      dead: [deadLetter(source.id, source, body, `malformed batch: ${issues(batch.error)}`)],
      receipt: null,
    };
  }
  return unpackBatch(batch.data, source);
}

/** A batch whose envelope is valid: every event on its own, so one bad event cannot sink the others. */
export function unpackBatch(
  batch: Omit<LogBatch, 'events'> & { events: readonly unknown[] },
  source: Source,
): Unpacked & { receipt: Omit<Receipt, 'via'> } {
  const rows: LogRow[] = [];
  const events: LogEvent[] = [];
  const dead: DeadLetter[] = [];
  const name = `${batch.isolate}-${batch.seq}`;
  batch.events.forEach((event, i) => {
    const parsed = parseEvent(event);
    if (parsed.ok) {
      rows.push(archived(parsed.row, name));
      events.push(parsed.event);
    } else dead.push(deadLetter(`${source.id}:${i}`, source, event, parsed.reason));
  });
  return {
    rows,
    events,
    dead,
    receipt: {
      isolate: batch.isolate,
      seq: batch.seq,
      sent: batch.sent,
      events: batch.events.length,
      stored: rows.length,
      dead: dead.length,
    },
  };
}

export function parseEvent(body: unknown): Parsed {
  const result = LogEvent.safeParse(body);
  if (!result.success) return { ok: false, reason: `malformed: ${issues(result.error)}` };
  try {
    return { ok: true, row: toRow(result.data), event: result.data };
  } catch (err) {
    // e.g. a time outside the Date range.
    return { ok: false, reason: `malformed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function issues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`)
    .join('; ');
}

export function deadLetter(messageId: string, source: Source, body: unknown, reason: string): DeadLetter {
  const requestId =
    typeof body === 'object' && body !== null && 'requestId' in body && typeof body.requestId === 'string'
      ? body.requestId.slice(0, 200)
      : null;
  return {
    message_id: messageId,
    queue: source.queue,
    request_id: requestId,
    reason: reason.slice(0, 1000),
    body: bodyText(body),
    attempts: source.attempts,
  };
}

function bodyText(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return text.length > MAX_DEAD_BODY ? text.slice(0, MAX_DEAD_BODY) : text;
}
