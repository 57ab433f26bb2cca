/**
 * The Responses API's byte-level fast path (src/sse/byte-observer.ts): every named event but the
 * terminal ones and `error` is plain, read from its bytes alone. A delivered delta's `delta` value is
 * counted from its bytes, and every plain event's `sequence_number` is read, so the gateway's own
 * error frame is still numbered after the last event relayed. The terminal events (usage, the end)
 * and errors go to the full observer, which parses them.
 */
import { byteScanner } from '../../sse/byte-observer';
import type { StreamObserver } from '../../sse/observer';
import { asciiBytes, bytesAre } from '../../sse/scan';
import { type Sequence, sequencedObserver } from './observer';
import { DELIVERED_DELTAS, TERMINAL_EVENTS } from './relay-events';

const DELTAS = DELIVERED_DELTAS.map(asciiBytes);
/** Events the full observer must see. */
const FULL = [...TERMINAL_EVENTS, 'error'].map(asciiBytes);
/** Key 0 is read as the sequence number, key 1 (deltas only) counted as delivered text. */
const KEYS = ['sequence_number', 'delta'].map(asciiBytes);
const ZERO = 48;
const NINE = 57;

export function responsesByteObserver(): StreamObserver {
  const sequence: Sequence = { next: 0 };
  const full = sequencedObserver({}, sequence);
  const scan = byteScanner();
  // What the event being scanned still needs read; the scan stops once it has both.
  let wantsDelta = false;
  let seenSequence = false;
  const onKey = (key: number, at: number, bytes: Uint8Array, end: number): number => {
    let after = at;
    if (key === 0 && !seenSequence) {
      seenSequence = true;
      after = readSequence(bytes, at, end, sequence);
    } else if (key === 1 && wantsDelta) {
      wantsDelta = false;
      after = scan.count(bytes, at, end);
    }
    return seenSequence && !wantsDelta ? end : after;
  };
  return scan.observer(full, (bytes, span) => {
    const { nameStart: s, nameEnd: e } = span;
    if (s === -1 || FULL.some((name) => bytesAre(bytes, s, e, name))) return false;
    wantsDelta = DELTAS.some((name) => bytesAre(bytes, s, e, name));
    seenSequence = false;
    scan.keys(bytes, span.dataStart, span.dataEnd, KEYS, onKey);
    return true;
  });
}

/** Reads the unsigned integer at `at` into `sequence` (as the next number: one past it); returns where it ends. */
function readSequence(bytes: Uint8Array, at: number, end: number, sequence: Sequence): number {
  let value = 0;
  let i = at;
  while (i < end && bytes[i]! >= ZERO && bytes[i]! <= NINE) value = value * 10 + bytes[i++]! - ZERO;
  if (i > at) sequence.next = value + 1;
  return i;
}
