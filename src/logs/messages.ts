/**
 * A log queue message at the boundary (pure): validated with the LogEvent
 * schema and turned into a row, or rejected with a reason and kept as a dead
 * letter. A message that fails validation never becomes valid on retry, so it
 * is parked, not retried.
 */
import { LogEvent } from '../core/log-event';
import type { DeadLetter } from './store';
import { toRow, type LogRow } from './rows';

export type Parsed = { ok: true; row: LogRow } | { ok: false; reason: string };

/** Longest message body kept in dead_letters, in characters. */
const MAX_DEAD_BODY = 64 * 1024;

export function parseMessage(body: unknown): Parsed {
  const result = LogEvent.safeParse(body);
  if (!result.success) {
    const detail = result.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`)
      .join('; ');
    return { ok: false, reason: `malformed: ${detail}` };
  }
  try {
    return { ok: true, row: toRow(result.data) };
  } catch (err) {
    // e.g. a time outside the Date range.
    return { ok: false, reason: `malformed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function deadLetter(message: Message<unknown>, queue: string, reason: string): DeadLetter {
  const body = message.body;
  const requestId =
    typeof body === 'object' && body !== null && 'requestId' in body && typeof body.requestId === 'string'
      ? body.requestId.slice(0, 200)
      : null;
  return {
    message_id: message.id,
    queue,
    request_id: requestId,
    reason: reason.slice(0, 1000),
    body: bodyText(body),
    attempts: message.attempts,
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
