/**
 * Splits a byte stream into complete Server-Sent Events without copying the
 * common case: when a chunk holds only whole events it is forwarded as is.
 * Lines end in LF or CRLF (every LLM provider uses these; bare CR is not supported).
 */

export interface SseEvent {
  /** The `event:` field, or null for the default `message` type. */
  readonly event: string | null;
  /** The `data:` lines joined by LF; empty for comment-only events. */
  readonly data: string;
}

export interface SseFrame {
  readonly event: SseEvent;
  /** The raw bytes of the event, including its terminating blank line. */
  readonly bytes: Uint8Array;
}

const LF = 10;
const CR = 13;
const decoder = new TextDecoder();

export class SseFramer {
  private pending: Uint8Array = new Uint8Array(0);

  /** Feeds one chunk; returns the events it completed. */
  push(chunk: Uint8Array): SseFrame[] {
    const buf = this.pending.byteLength ? concat(this.pending, chunk) : chunk;
    const frames: SseFrame[] = [];
    let eventStart = 0;
    let lineStart = 0;
    for (let i = buf.indexOf(LF); i !== -1; i = buf.indexOf(LF, i + 1)) {
      const lineEnd = i > lineStart && buf[i - 1] === CR ? i - 1 : i;
      if (lineEnd === lineStart) {
        if (lineStart > eventStart) {
          const bytes = buf.subarray(eventStart, i + 1);
          frames.push({ event: parseEvent(bytes), bytes });
        }
        eventStart = i + 1;
      }
      lineStart = i + 1;
    }
    this.pending = eventStart < buf.byteLength ? buf.slice(eventStart) : new Uint8Array(0);
    return frames;
  }

  /** Bytes of an event that never got its blank line. */
  get remainder(): Uint8Array {
    return this.pending;
  }
}

export function parseEvent(bytes: Uint8Array): SseEvent {
  const text = decoder.decode(bytes);
  let event: string | null = null;
  let data: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === null ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
  }
  return { event, data: data ?? '' };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
