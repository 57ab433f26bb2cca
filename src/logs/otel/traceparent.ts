/**
 * The W3C Trace Context `traceparent` header (pure): the trace a request came
 * in with, so its exported span joins the caller's trace. Parsed by the
 * exchange's exit from the request headers, carried in the LogEvent, and used
 * by the log pipeline's OpenTelemetry export (src/logs/otel/span.ts). Anything
 * that does not follow the format is ignored, as the recommendation says: the
 * span then starts a trace of its own.
 */
import { SPAN_ID, TRACE_ID } from '../../core/log-event';

export interface TraceParent {
  readonly traceId: string;
  readonly parentSpanId: string;
}

/** `version-traceid-parentid-flags`; a later version may append fields after a dash. */
const HEADER = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export function parseTraceParent(header: string | null | undefined): TraceParent | null {
  if (!header || header.length > 512) return null;
  const match = HEADER.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, parentSpanId, , rest] = match;
  // Version ff is invalid; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (!TRACE_ID.test(traceId!) || !SPAN_ID.test(parentSpanId!)) return null;
  return { traceId: traceId!, parentSpanId: parentSpanId! };
}
