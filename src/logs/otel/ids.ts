/**
 * The ids of a request's span (pure). They are derived from the request id
 * rather than drawn at random, so the same event exported twice (a queue
 * redelivery) is the same span, which trace stores merge or show as one.
 * The trace is the caller's when a `traceparent` came in; otherwise the
 * request id itself when it is a UUID (the gateway's own ids are), so a trace
 * is found from the `x-edgeway-request-id` header by dropping the dashes.
 */
import type { LogEvent } from '../../core/log-event';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SpanIds {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
}

export function spanIds(event: Pick<LogEvent, 'requestId' | 'traceId' | 'parentSpanId'>): SpanIds {
  const uuid = UUID.test(event.requestId) ? event.requestId.replaceAll('-', '').toLowerCase() : null;
  return {
    traceId: event.traceId ?? nonZero(uuid ?? hashHex(`trace:${event.requestId}`, 4)),
    spanId: nonZero(hashHex(`span:${event.requestId}`, 2)),
    parentSpanId: event.traceId ? (event.parentSpanId ?? '') : '',
  };
}

/**
 * `words` × 32 bits of a seeded FNV-1a-style hash of `text`, as lowercase hex.
 * Not cryptographic: the ids only need to be spread out and stable.
 */
export function hashHex(text: string, words: number): string {
  let out = '';
  for (let w = 0; w < words; w++) {
    let h = (0x811c9dc5 ^ Math.imul(w + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    }
    // A final avalanche, so ids of similar request ids differ in every digit.
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

/** All-zero ids are invalid in W3C Trace Context and OTLP. */
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
