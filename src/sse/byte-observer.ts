/**
 * The relay's fast path for a same-format stream that nothing rewrites, captures or assembles: the
 * format's observer (src/codecs/<format>/observer.ts) still decides every event that matters, but the
 * common event (a text or tool-call delta) is read from its bytes and never decoded nor JSON-parsed.
 * This module is the format-free machinery; each client format's byte observer, which says which
 * events are plain, lives in its codec (src/codecs/<format>/byte-observer.ts).
 *
 * An event is left to the full observer, which decodes and parses it, unless it has the usual shape
 * (one `data:` line holding `{…}`, plus for Anthropic an `event:` line naming a content event) and
 * holds none of the keys that carry usage or an error. So the full observer still sees the usage
 * chunk (and strips it when the client did not ask for it), the terminator, every upstream error
 * event, and every data value that is not `{…}`-shaped (which it flags malformed when it is not a JSON
 * object). What the fast path does not check is that a `{…}`-shaped delta is valid JSON inside.
 *
 * Delivered characters of a skipped delta are the BYTES of its content values as sent (UTF-8, with
 * JSON escapes): never fewer than the characters they decode to, and equal for plain ASCII text.
 */
import type { SseEvent } from './framer';
import { parseEvent } from './framer';
import type { StreamObserver, Verdict } from './observer';
import { emptySpan, type EventSpan, isQuote, objectShaped, scanKeys, splitEvent, stringEnd } from './scan';

const EMPTY: Uint8Array = new Uint8Array(0);

export type KeyHandler = (key: number, at: number, bytes: Uint8Array, end: number) => number;

/** What every format's fast path shares: the span, the skipped text's byte count, and the observer around `full`. */
export function byteScanner() {
  const span = emptySpan();
  let chars = 0;
  // The event being scanned, in fields rather than a per-event object or closure.
  let now = EMPTY;
  let nowEnd = 0;
  let handler: KeyHandler = (_key, at) => at;
  const dispatch = (key: number, at: number) => handler(key, at, now, nowEnd);
  return {
    /** Counts a string value's bytes (its quotes excluded); returns where it ends. */
    count(bytes: Uint8Array, at: number, end: number): number {
      if (!isQuote(bytes[at])) return at;
      const after = stringEnd(bytes, at, end);
      chars += Math.max(0, after - at - 2);
      return after;
    },
    keys(bytes: Uint8Array, start: number, end: number, keys: readonly Uint8Array[], onKey: KeyHandler) {
      now = bytes;
      nowEnd = end;
      handler = onKey;
      scanKeys(bytes, start, end, keys, dispatch);
      now = EMPTY;
    },
    /** `plain` says whether an event of the usual shape can be forwarded without the full observer. */
    observer(full: StreamObserver, plain: (bytes: Uint8Array, span: EventSpan) => boolean): StreamObserver {
      return {
        observe: (event: SseEvent): Verdict => full.observe(event),
        observeBytes(bytes: Uint8Array): Verdict {
          const usual = splitEvent(bytes, span) && objectShaped(bytes, span.dataStart, span.dataEnd);
          if (usual) {
            const before = chars;
            if (plain(bytes, span)) return 'forward';
            chars = before;
          }
          return full.observe(parseEvent(bytes));
        },
        get done() {
          return full.done;
        },
        get usage() {
          return full.usage;
        },
        get deliveredChars() {
          return full.deliveredChars + chars;
        },
        captured: '',
        get upstreamError() {
          return full.upstreamError;
        },
        errorFrame: (message, code) => full.errorFrame(message, code),
      };
    },
  };
}
